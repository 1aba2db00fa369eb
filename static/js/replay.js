// The replay page (/matches/<id>/replay): step through a match without reloading.
// Without JavaScript every control is a plain link or form and works the same.
// Each step is fetched as one frame (the server replays the match to it) and the
// address is updated, so the link in the address bar shows that very step.
(function () {
  "use strict";
  const page = document.getElementById("replay-page");
  if (!page) return;
  let loading = null;

  function frame() { return document.getElementById("replay-frame"); }

  function show(step, eyes, remember) {
    const current = frame();
    const last = parseInt(current.dataset.last, 10);
    step = Math.max(0, Math.min(last, step));
    if (loading) loading.abort();
    loading = new AbortController();
    const query = "?step=" + step + "&eyes=" + encodeURIComponent(eyes);
    fetch(page.dataset.frameUrl + query, { signal: loading.signal, headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        frame().outerHTML = html;
        if (remember) history.pushState({ step: step, eyes: eyes }, "", query);
      })
      .catch(function (error) { if (error.name !== "AbortError") location.assign(query); });
  }

  page.addEventListener("click", function (event) {
    const link = event.target.closest(".replay-nav a[data-step]");
    if (!link) return;
    event.preventDefault();
    show(parseInt(link.dataset.step, 10), frame().dataset.eyes, true);
  });

  page.addEventListener("change", function (event) {
    if (event.target.id === "replay-slider") show(parseInt(event.target.value, 10), frame().dataset.eyes, true);
    if (event.target.id === "replay-eyes") show(parseInt(frame().dataset.step, 10), event.target.value, true);
  });

  document.addEventListener("keydown", function (event) {
    if (event.target.closest("input, select, textarea") && event.target.id !== "replay-slider") return;
    const now = frame();
    const step = parseInt(now.dataset.step, 10);
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: parseInt(now.dataset.last, 10) };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key], now.dataset.eyes, true);
  });

  window.addEventListener("popstate", function (event) {
    if (event.state) show(event.state.step, event.state.eyes, false);
  });
  history.replaceState({ step: parseInt(frame().dataset.step, 10), eyes: frame().dataset.eyes }, "", location.href);
  const go = document.getElementById("replay-eyes-go");
  if (go) go.hidden = true; // the select shows the frame on change
})();
