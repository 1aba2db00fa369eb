// The matches waiting for the signed-in person (their turn, or an invitation), live on
// every page: one socket per page (/ws/me/) pushes {"type": "badge", "count": n} as it
// opens and whenever the count changes; the navigation's badge and the tab's title
// follow it, and the "boomsite:waiting" event tells the page (home.js). Opt-in browser
// notifications: "Notify me" asks once; afterwards a count that grows while the tab is
// in the background shows one notification, unless this browser gets Web Push, which
// tells each turn itself (push_settings.js, service_worker.js).
(function () {
  "use strict";
  const badge = document.getElementById("your-turn-badge");
  if (!badge || !badge.dataset.socket) return; // signed out: no socket
  const link = document.getElementById("my-matches-link");
  const notifyMe = document.getElementById("notify-me");
  // The title the page has without a count (base.html puts the count in front of it).
  // One count, one word for it: a turn to take and an invitation to answer both wait for you.
  const PREFIX = /^\(\d+\) Waiting for you · /;
  const plainTitle = document.title.replace(PREFIX, "");
  let count = parseInt(badge.textContent, 10) || 0;
  let retry = 1000;

  function show(next) {
    const grew = next > count;
    count = next;
    [badge, document.getElementById("menu-badge")].forEach(function (shown) {
      if (!shown) return;
      shown.textContent = String(next);
      shown.hidden = next === 0;
    });
    document.title = next ? "(" + next + ") Waiting for you · " + plainTitle : plainTitle;
    // For a page that shows what waits (the home page's home.js): every count heard.
    document.dispatchEvent(new CustomEvent("boomsite:waiting", { detail: { count: next } }));
    if (grew && document.hidden) notify(next);
  }

  function canNotify() {
    return "Notification" in window;
  }

  function notify(next) {
    if (!canNotify() || Notification.permission !== "granted") return;
    // A browser with Web Push turned on (the account page) is told by its push, with the
    // match named: this tab's notification would say the same thing a second time.
    pushIsOn().then(function (on) {
      if (!on) showNotification(next);
    });
  }

  function pushIsOn() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) return Promise.resolve(false);
    return navigator.serviceWorker
      .getRegistration("/")
      .then(function (registration) {
        return registration ? registration.pushManager.getSubscription() : null;
      })
      .then(Boolean, function () {
        return false;
      });
  }

  function showNotification(next) {
    const text = next === 1 ? "A match is waiting for you." : next + " matches are waiting for you.";
    try {
      // One tag: a later one replaces it (and the other tabs' ones), so one stays shown.
      const note = new Notification("Waiting for you · Boomsite", { body: text, tag: "boomsite-waiting" });
      note.onclick = function () {
        window.focus();
        location.href = link.href;
        note.close();
      };
    } catch (error) {
      // Some browsers (Chrome on Android) only notify from a service worker: the badge says it.
    }
  }

  function offerNotifications() {
    if (!notifyMe || !canNotify()) return;
    notifyMe.hidden = Notification.permission !== "default";
    notifyMe.addEventListener("click", function () {
      Notification.requestPermission().then(function () {
        notifyMe.hidden = Notification.permission !== "default";
      });
    });
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + badge.dataset.socket);
    socket.onopen = function () {
      retry = 1000;
    };
    socket.onmessage = function (event) {
      const message = JSON.parse(event.data);
      if (message.type === "badge") {
        show(message.count);
        badge.dataset.live = "yes";
      }
    };
    socket.onclose = function (event) {
      badge.dataset.live = "no";
      // Signed out (4401) or too many pages open (4008): this page keeps the count it has.
      if (event.code === 4401 || event.code === 4008) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  offerNotifications();
  connect();
})();
