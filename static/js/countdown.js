// Turn clocks counting down, on every page: each <time data-countdown datetime="…">
// (drawn by games/templatetags/turn_clocks.py, whose words are right without this
// script) is written again every second. Boards the match socket pushes later are
// found on the next tick.
(function () {
  "use strict";
  const MINUTE = 60;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  // By the server's clock, not this machine's, which may be minutes off: the page says
  // what time the server had when it drew it.
  const served = parseFloat(document.documentElement.dataset.serverTime) * 1000;
  const skew = isNaN(served) ? 0 : served - Date.now();

  function unit(count, name) {
    return count + " " + name + (count === 1 ? "" : "s");
  }

  // The same words as turn_clocks.countdown_words (change both together).
  function words(milliseconds) {
    let seconds = Math.floor(milliseconds / 1000);
    if (seconds <= 0) return "time is up";
    if (seconds < HOUR) {
      const minutes = Math.floor(seconds / MINUTE);
      const rest = seconds % MINUTE;
      return minutes + ":" + (rest < 10 ? "0" : "") + rest + " left";
    }
    const days = Math.floor(seconds / DAY);
    seconds %= DAY;
    const hours = Math.floor(seconds / HOUR);
    const minutes = Math.floor((seconds % HOUR) / MINUTE);
    if (days) return unit(days, "day") + (hours ? " " + unit(hours, "hour") : "") + " left";
    return unit(hours, "hour") + (minutes ? " " + unit(minutes, "minute") : "") + " left";
  }

  function tick() {
    const now = Date.now() + skew;
    document.querySelectorAll("time[data-countdown]").forEach(function (clock) {
      const deadline = Date.parse(clock.dateTime);
      if (isNaN(deadline)) return;
      const text = words(deadline - now);
      if (clock.textContent !== text) clock.textContent = text;
    });
  }

  setInterval(tick, 1000);
})();
