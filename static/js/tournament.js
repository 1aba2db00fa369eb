// A tournament's page, live: the socket (/ws/tournaments/<id>/) rings whenever the
// tournament changes (a table finished, a round seated, someone registered or left),
// and this fetches the page's live part again (/tournaments/<id>/live, drawn by the
// server as the page was) and swaps it in. Rings that come while a fetch is on its way
// are folded into one more fetch. Without JavaScript the page is whole; a reload
// shows what changed.
(function () {
  "use strict";
  const page = document.getElementById("tournament-page");
  if (!page || !page.dataset.socket) return;
  const live = document.getElementById("tournament-live");
  const status = document.getElementById("connection");
  let retry = 1000;
  let fetching = false;
  let again = false;

  function setStatus(text) {
    status.textContent = text;
    status.hidden = !text;
  }

  function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    fetch(page.dataset.liveUrl, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        // The withdrawal's tick, if the person gave it, survives the swap.
        const ticked = live.querySelector("#withdraw-form input[name=confirm]:checked");
        // So do the element the person had focused (by its id) and how far each box was
        // scrolled sideways (the bracket and the standings on a phone): a ring must not
        // throw a keyboard user back to the top of the page.
        const active = document.activeElement;
        const focusedId = active && live.contains(active) ? active.id : "";
        const scrolled = {};
        live.querySelectorAll("[data-keep-scroll]").forEach(function (box) {
          scrolled[box.id] = box.scrollLeft;
        });
        live.innerHTML = html;
        const tick = live.querySelector("#withdraw-form input[name=confirm]");
        if (ticked && tick) tick.checked = true;
        Object.keys(scrolled).forEach(function (id) {
          const box = document.getElementById(id);
          if (box) box.scrollLeft = scrolled[id];
        });
        const again = focusedId && document.getElementById(focusedId);
        if (again) again.focus({ preventScroll: true });
        page.dataset.refreshed = String((parseInt(page.dataset.refreshed || "0", 10) || 0) + 1);
      })
      .catch(function () {
        again = true; // tried again with the next ring, or below
      })
      .finally(function () {
        fetching = false;
        if (again) {
          again = false;
          setTimeout(refresh, 1000);
        }
      });
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + page.dataset.socket);
    socket.onopen = function () {
      retry = 1000;
      setStatus("");
      page.dataset.connected = "yes";
      // What changed between the page's drawing (or the socket's last close) and now.
      refresh();
    };
    socket.onmessage = function (event) {
      const message = JSON.parse(event.data);
      if (message.type === "changed") refresh();
    };
    socket.onclose = function (event) {
      page.dataset.connected = "no";
      // No such tournament (4404) or too many pages open (4008): the page stays as drawn.
      if (event.code === 4404 || event.code === 4008) return;
      setStatus("Reconnecting…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  connect();
})();
