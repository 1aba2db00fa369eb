// The site's service worker (served at /notify/service-worker.js with scope "/": games/notify/push_views.py).
// It only shows the pushes the site sends (games/notify/push.py, push_messages.py) and
// opens the match a tap is about. It has no fetch handler: pages load as they would
// without it, never from a cache of its own.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// A path on this site, as a whole address; anything else (another site, a bad value) is the home page.
function siteUrl(path) {
  try {
    const url = new URL(path || "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let message = {};
  if (event.data) {
    try {
      message = event.data.json();
    } catch (error) {
      message = { body: event.data.text() };
    }
  }
  const options = {
    body: String(message.body || ""),
    icon: "/favicon.ico",
    data: { url: siteUrl(message.url), kind: String(message.kind || "") },
  };
  if (message.tag) {
    // One notification per match: a newer push replaces the older, and still alerts.
    options.tag = String(message.tag);
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(String(message.title || "Boomsite"), options));
});

// A tap: the tab that has the match open comes forward, or a new one opens it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = siteUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.split("#")[0] === url.split("#")[0]);
      if (open && "focus" in open) return open.focus();
      return self.clients.openWindow(url);
    })
  );
});
