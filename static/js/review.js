// The post-game review page (/matches/<id>/review) while the expert works on it:
// poll the review's status, move the progress bar, and reload the page once the
// review is done (or has stalled: the page then offers to resume it).
// Without JavaScript the page refreshes itself (<noscript><meta http-equiv="refresh">).
(function () {
  "use strict";
  const box = document.getElementById("review-progress");
  if (!box) return;
  const bar = document.getElementById("review-bar");
  const count = document.getElementById("review-count");
  const EVERY_MS = 2000;

  function poll() {
    fetch(box.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (status) {
        if (status.done || status.stalled) {
          location.reload();
          return;
        }
        bar.max = status.decisions;
        bar.value = status.reviewed;
        if (count.textContent !== status.words) count.textContent = status.words;
        setTimeout(poll, EVERY_MS);
      })
      // A failed poll (the server restarting, a lost connection) tries again, more slowly.
      .catch(function () { setTimeout(poll, 5 * EVERY_MS); });
  }
  setTimeout(poll, EVERY_MS);
})();
