// Sign-up: the browser's time zone goes with the form, so that every time on the site
// reads in the person's own from the first page (the account page changes it later).
// Without the script the account starts in UTC, as before.
(function () {
  "use strict";
  const form = document.querySelector('form[action$="/accounts/signup/"]');
  if (!form) return;
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  if (!zone) return;
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = "time_zone";
  input.value = zone;
  form.appendChild(input);
})();
