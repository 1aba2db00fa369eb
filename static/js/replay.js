// The replay page (/matches/<id>/replay): step through a match without reloading.
// Without JavaScript every control is a plain link or form and works the same.
// Each step is fetched as one frame (the server replays the match to it) and the
// address is updated, so the link in the address bar shows that very step.
// When the viewer has a finished post-game review of the match, the steps where the
// expert would have played differently are marked (see "The viewer's review" below).
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
        // The menu says whose eyes the frame shows, also after the browser's Back.
        const eyesMenu = document.getElementById("replay-eyes");
        if (eyesMenu) eyesMenu.value = frame().dataset.eyes;
        markReview();
        // The menu's form keeps the reader's place, should it be sent as a plain form.
        const stepField = page.querySelector("form.replay-eyes input[name=step]");
        if (stepField) stepField.value = String(step);
        if (remember) history.pushState({ step: step, eyes: eyes }, "", query);
      })
      .catch(function (error) { if (error.name !== "AbortError") location.assign(query); });
  }

  page.addEventListener("click", function (event) {
    const link = event.target.closest(".replay-nav a[data-step], .replay-marks a[data-step]");
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

  // -- The viewer's review ---------------------------------------------------------
  // The review is a feature of its own (games/review): this page knows only its plain
  // path (data-review-url, on finished matches for a signed-in viewer) and its JSON.
  // A disagreement is marked on the step its replay link shows, the board just before
  // my move: a mark under the slider (a link, with its step in words), and there the
  // expert's choice beside what I played; on the next step, the log entries my move
  // added are marked too. No review ({"requested": false}), one not finished, or one
  // that failed: no marks, and the replay works as without them.
  let disagreements = []; // [{step, played, expert}] in step order
  const MARK_AIR_PX = 4; // between two marks on one lane; closer ones go on another lane

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text; // labels carry players' names: text, never HTML
    return made;
  }

  function loadReview() {
    if (!page.dataset.reviewUrl) return;
    fetch(page.dataset.reviewUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (review) {
        if (!review || review.done !== true || review.problem || !Array.isArray(review.reviewed_decisions)) return;
        disagreements = review.reviewed_decisions
          .filter(function (decision) { return decision.agrees === false; })
          .map(function (decision) {
            return { step: decision.step, played: decision.played_label, expert: decision.expert_label };
          });
        markReview();
      })
      .catch(function () { /* the marks are extra: the replay is the same without them */ });
  }

  function markReview() {
    const current = frame();
    if (!disagreements.length || !current || current.querySelector(".replay-review")) return;
    const step = parseInt(current.dataset.step, 10);
    const last = parseInt(current.dataset.last, 10);
    const eyes = current.dataset.eyes;
    const slider = document.getElementById("replay-slider");

    const box = element("div", "replay-review");
    const marks = element("ol", "replay-marks");
    marks.setAttribute("aria-label", "Steps where the expert would have played differently");
    const ticks = element("datalist");
    ticks.id = "replay-review-steps";
    disagreements.forEach(function (decision) {
      const item = element("li");
      const link = element("a", "replay-mark", String(decision.step));
      link.href = "?step=" + decision.step + "&eyes=" + encodeURIComponent(eyes);
      link.dataset.step = decision.step;
      link.title = "Step " + decision.step + ": the expert would have played " + decision.expert;
      link.setAttribute("aria-label", link.title);
      if (decision.step === step) link.setAttribute("aria-current", "step");
      item.style.setProperty("--at", last > 0 ? decision.step / last : 0);
      item.appendChild(link);
      marks.appendChild(item);
      const tick = element("option");
      tick.value = decision.step;
      ticks.appendChild(tick);
    });
    box.appendChild(marks);
    box.appendChild(ticks);
    const legend = element("p", "replay-review-legend muted", "▲ Steps where the expert would have played differently (");
    const toReview = element("a", "", "your review");
    toReview.href = page.dataset.reviewUrl.replace(/\.json$/, "");
    legend.appendChild(toReview);
    legend.appendChild(document.createTextNode(")."));
    box.appendChild(legend);

    const here = disagreements.find(function (decision) { return decision.step === step; });
    if (here) {
      const note = element("p", "replay-review-note");
      note.id = "replay-review-note";
      note.appendChild(element("strong", "", "Your decision here: "));
      note.appendChild(element("span", "replay-review-played", "you played " + here.played + ". "));
      note.appendChild(element("strong", "", "The expert would have played: "));
      note.appendChild(element("span", "replay-review-expert", here.expert));
      box.appendChild(note);
    }
    if (slider) {
      slider.after(box);
      slider.setAttribute("list", ticks.id);
    } else {
      current.prepend(box);
    }
    spreadMarks(marks);

    // The step after a disagreement shows my move in the log: its entries are the current ones.
    const made = disagreements.find(function (decision) { return decision.step === step - 1; });
    const entries = current.querySelectorAll(".replay-log li.is-current");
    if (made && entries.length) {
      entries.forEach(function (entry) { entry.classList.add("is-disagreement"); });
      // Newest first: the last current entry is the move itself, the others what it caused.
      entries[entries.length - 1].appendChild(
        element("span", "replay-log-expert", "The expert would have played: " + made.expert)
      );
    }
  }

  // Marks too close to share a line (a long match, two disagreements a step apart) are
  // put on lanes below one another, so each stays readable and clickable.
  function spreadMarks(marks) {
    const width = marks.getBoundingClientRect().width;
    const items = marks.querySelectorAll("li");
    let gap = 0; // the widest mark, and a little air
    items.forEach(function (item) { gap = Math.max(gap, item.getBoundingClientRect().width + MARK_AIR_PX); });
    const lanes = []; // each lane's rightmost mark so far, in pixels
    items.forEach(function (item) {
      const x = parseFloat(item.style.getPropertyValue("--at")) * width;
      let lane = lanes.findIndex(function (end) { return x - end >= gap; });
      if (lane === -1) { lane = lanes.length; lanes.push(x); } else { lanes[lane] = x; }
      item.style.setProperty("--lane", lane);
    });
    marks.style.setProperty("--lanes", Math.max(lanes.length, 1));
  }

  window.addEventListener("resize", function () {
    const marks = document.querySelector("#replay-frame .replay-marks");
    if (marks) spreadMarks(marks);
  });

  window.addEventListener("popstate", function (event) {
    if (event.state) show(event.state.step, event.state.eyes, false);
  });
  history.replaceState({ step: parseInt(frame().dataset.step, 10), eyes: frame().dataset.eyes }, "", location.href);
  const go = document.getElementById("replay-eyes-go");
  if (go) go.hidden = true; // the select shows the frame on change
  loadReview();
})();
