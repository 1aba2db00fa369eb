// The account page's "Notifications on this device" (templates/notify/_push_settings.html):
// registers the site's service worker, asks the browser's permission, subscribes with
// the site's VAPID public key and posts the subscription to the site (games/notify/push_views.py).
// Every visit posts the browser's subscription again, so that the site keeps it up to
// date (a browser may renew it on its own).
(function () {
  "use strict";
  const box = document.getElementById("push-device");
  if (!box) return;
  const status = document.getElementById("push-status");
  const onButton = document.getElementById("push-on");
  const offButton = document.getElementById("push-off");
  const csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;

  function say(words) {
    status.textContent = words;
  }
  function show(on) {
    onButton.hidden = on;
    offButton.hidden = !on;
  }
  // The VAPID public key (base64url) as the bytes PushManager.subscribe takes.
  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4);
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  }
  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    let answer = {};
    try {
      answer = await response.json();
    } catch (error) {
      answer = {};
    }
    if (!response.ok) throw new Error((answer.error && answer.error.message) || "The site refused (" + response.status + ").");
    return answer;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot show notifications from websites. On an iPhone or iPad, add the site to your Home Screen first.");
    return;
  }
  const registered = navigator.serviceWorker.register(box.dataset.worker, { scope: "/" });

  async function refresh() {
    const registration = await registered;
    const subscription = await registration.pushManager.getSubscription();
    if (Notification.permission === "denied") {
      say("Notifications are blocked for this site in this browser's settings: allow them there, then come back.");
      onButton.hidden = offButton.hidden = true;
      return;
    }
    if (subscription && Notification.permission === "granted") {
      await post(box.dataset.subscribe, subscription.toJSON());
      say("Notifications are on in this browser.");
      show(true);
    } else {
      say("Notifications are off in this browser.");
      show(false);
    }
  }

  onButton.addEventListener("click", async () => {
    onButton.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(permission === "denied"
          ? "You blocked notifications for this site: allow them in this browser's settings to turn them on."
          : "Notifications stay off: the browser's question was not answered.");
        return;
      }
      say("Turning notifications on…");
      const registration = await registered;
      await navigator.serviceWorker.ready;
      let subscription;
      try {
        subscription = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key),
        });
      } catch (error) {
        say("This browser could not subscribe to its push service (" + error.message + "). Try again later, or in another browser.");
        return;
      }
      await post(box.dataset.subscribe, subscription.toJSON());
      say("Notifications are on in this browser.");
      show(true);
    } catch (error) {
      say("Notifications could not be turned on: " + error.message);
    } finally {
      onButton.disabled = false;
    }
  });

  offButton.addEventListener("click", async () => {
    offButton.disabled = true;
    try {
      const registration = await registered;
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        await post(box.dataset.unsubscribe, { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      say("Notifications are off in this browser.");
      show(false);
    } catch (error) {
      say("Notifications could not be turned off: " + error.message);
    } finally {
      offButton.disabled = false;
    }
  });

  refresh().catch((error) => say("Notifications are not available here: " + error.message));
})();
