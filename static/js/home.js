// The signed-in home page's "Waiting for you" and running matches, kept live. me.js tells
// every count of matches waiting it hears over its socket (the "boomsite:waiting" event);
// when it differs from the count the part shows, this draws both parts again from
// /home/live/ (#home-live's data-url). A failed fetch leaves the page as it is: the next
// change, or a reload, brings it up to date. Countdowns in the new rows are found by
// countdown.js on its next tick.
(function () {
  "use strict";
  const live = document.getElementById("home-live");
  if (!live || !live.dataset.url) return;
  const status = document.getElementById("home-live-status");
  let asked = 0; // the latest request: an answer to an older one arriving later is dropped

  function shownCount() {
    const section = document.getElementById("waiting-for-you");
    return section ? parseInt(section.dataset.count, 10) || 0 : 0;
  }

  // Where the keyboard was, as something that survives drawing the rows again: the
  // address of the link, or of the form of the button.
  function place(element) {
    if (!element || !live.contains(element)) return null;
    const form = element.closest("form");
    if (form) return "form " + form.action;
    return element.href ? "link " + element.href : null;
  }

  function focusPlace(wanted) {
    if (!wanted) return;
    const found = [...live.querySelectorAll("a[href], form button")].find(function (element) {
      return place(element) === wanted;
    });
    if (found) found.focus();
  }

  function say(count) {
    if (!status) return;
    status.textContent = count
      ? count === 1 ? "1 match is waiting for you." : count + " matches are waiting for you."
      : "Nothing waits for you now.";
  }

  function refresh() {
    const mine = ++asked;
    fetch(live.dataset.url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        // A redirect is the login page (the session ended): nothing to draw here.
        if (!response.ok || response.redirected) throw new Error("home/live: " + response.status);
        return response.text();
      })
      .then(function (html) {
        if (mine !== asked) return;
        const wanted = place(document.activeElement);
        live.innerHTML = html;
        focusPlace(wanted);
        say(shownCount());
        live.dataset.drawn = String(mine);
      })
      .catch(function () {});
  }

  document.addEventListener("boomsite:waiting", function (event) {
    if (event.detail.count !== shownCount()) refresh();
  });
})();
