// The match page, live: one WebSocket per page. Moves and chat go up the socket;
// the server pushes the re-rendered board (built from this viewer's seat view)
// with its ply after every change. Without a socket, every form still posts.
(function () {
  "use strict";
  const page = document.getElementById("match-page");
  if (!page) return;
  const live = document.getElementById("live-area");
  const chatList = document.getElementById("chat-list");
  const chatForm = document.getElementById("chat-form");
  const chatClosed = document.getElementById("chat-closed");
  const status = document.getElementById("connection");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let socket = null;
  let retry = 500;
  let shownPly = currentPly();
  let shownStatus = currentStatus();

  function currentPly() {
    const el = document.getElementById("match-live");
    return el ? parseInt(el.dataset.ply, 10) : -1;
  }

  function currentStatus() {
    const el = document.getElementById("match-live");
    return el ? el.dataset.status : "";
  }

  function setStatus(text) {
    status.hidden = !text;
    status.textContent = text || "";
  }

  // The header's facts change when the match starts or ends (the Replay link, the fair
  // deal, the invitation link that is of no use once every seat is taken): the page is
  // fetched again then, and its header's part swapped in.
  function refreshHeader() {
    fetch(location.href, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("match-header-live");
        const shown = document.getElementById("match-header-live");
        if (fresh && shown) shown.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* the facts are as they were; a reload shows the new ones */ });
  }

  // Where the keyboard's focus last went: a move's button, disabled while its move is
  // on its way, lets the focus fall to the page's body without another focus event.
  let focusWasInLive = false;
  document.addEventListener("focusin", function (event) {
    focusWasInLive = live.contains(event.target);
  });

  // The page's first Tab stop: "Skip to your move" (to the board's prompt) while the
  // viewer has a decision to make, "Skip to content" otherwise; turns come and go with
  // the pushed boards. A click moves the focus itself: the address may already end in
  // the same #fragment, which the browser would not jump to again.
  const skip = document.getElementById("skip-link");
  function showSkipLink() {
    if (!skip) return;
    const mine = Boolean(live.querySelector(".your-turn") && live.querySelector("[data-prompt]"));
    skip.textContent = mine ? "Skip to your move" : "Skip to content";
    skip.setAttribute("href", mine ? "#board-prompt" : "#main");
  }
  if (skip) {
    skip.addEventListener("click", function (event) {
      const target = document.getElementById(skip.getAttribute("href").slice(1));
      if (!target) return;
      event.preventDefault();
      target.focus();
      target.scrollIntoView({ block: "start" });
    });
  }

  function showBoard(ply, html) {
    if (ply < shownPly) return; // an older push overtaken by a newer one
    const log = logPlace();
    // A move's button is gone with the board it was on: the keyboard's focus would drop
    // to the page's top (16 Tabs from the next move). It goes to the new board's prompt
    // instead, which says what happened and what is asked now.
    const active = document.activeElement;
    const hadFocus =
      (active && active !== live && live.contains(active)) ||
      ((!active || active === document.body) && focusWasInLive);
    live.innerHTML = html;
    shownPly = ply;
    keepLogPlace(log);
    if (hadFocus && (!document.activeElement || document.activeElement === document.body)) {
      const prompt = live.querySelector("[data-prompt]");
      if (prompt) prompt.focus({ preventScroll: true });
    }
    fillTokens();
    showChatBox();
    showSkipLink();
    if (currentStatus() !== shownStatus) {
      shownStatus = currentStatus();
      refreshHeader();
    }
  }

  // The log is drawn anew with every board: without this, each push (a bot's move, every
  // second) would open it again and scroll a reader who went back in it to the newest event.
  function logPlace() {
    const details = live.querySelector(".match-log");
    const list = live.querySelector(".log-list");
    if (!details || !list) return null;
    // Newest first: new events arrive at the top, so the place is kept from the bottom.
    return { open: details.open, atNewest: list.scrollTop === 0, fromEnd: list.scrollHeight - list.scrollTop };
  }

  function keepLogPlace(place) {
    const details = live.querySelector(".match-log");
    const list = live.querySelector(".log-list");
    if (!place || !details || !list) return;
    details.open = place.open;
    if (!place.atNewest) list.scrollTop = list.scrollHeight - place.fromEnd;
  }

  // A seat the game silences gets the reason instead of the chat box, for as long as the
  // board says so (It's a Bomb!'s Crisis Unit may write again once the match is over).
  function showChatBox() {
    const board = document.getElementById("match-live");
    if (!board || !chatForm || !chatClosed) return;
    const closed = board.dataset.chatClosed === "yes";
    chatForm.hidden = closed;
    chatClosed.hidden = !closed;
  }

  // The online dots: the socket says which seats' people have the match open whenever
  // that changes between boards (each board draws them as they were when it was made).
  function showOnline(seats) {
    live.querySelectorAll("[data-online-seat]").forEach(function (dot) {
      dot.hidden = seats.indexOf(parseInt(dot.dataset.onlineSeat, 10)) === -1;
    });
  }

  // Forms pushed over the socket carry no CSRF token: the page's own is used.
  function fillTokens() {
    live.querySelectorAll('form[method="post"]').forEach(function (form) {
      let input = form.querySelector('input[name="csrfmiddlewaretoken"]');
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = "csrfmiddlewaretoken";
        form.appendChild(input);
      }
      if (!input.value) input.value = csrf;
    });
  }

  function refetch() {
    fetch(page.dataset.boardUrl, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text().then(function (html) {
          showBoard(parseInt(response.headers.get("X-Match-Ply"), 10), html);
        });
      })
      .catch(function () { setStatus("Could not refresh the board."); });
  }

  function flash(text) {
    let box = document.getElementById("match-error");
    if (!box) {
      box = document.createElement("p");
      box.id = "match-error";
      box.className = "message error";
      box.setAttribute("role", "alert");
      page.insertBefore(box, page.firstChild.nextSibling);
    }
    box.textContent = text;
    box.hidden = !text;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + page.dataset.socket);
    socket.onopen = function () {
      retry = 500;
      setStatus("");
      page.dataset.connected = "yes";
      // Nothing to ask: the server pushes the board as the socket opens (once).
    };
    socket.onclose = function (event) {
      page.dataset.connected = "no";
      if (event.code === 4401) {
        // Signed out (here or elsewhere), or the password changed: the page acted as
        // someone it no longer is, so it stops rather than reconnect as somebody else.
        setStatus("You are signed out here: reload the page to go on.");
        return;
      }
      if (event.code === 4503) {
        // The server is busy (its database connections all in use): wait longer first.
        retry = Math.max(retry, 5000);
      }
      setStatus("Reconnecting…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
    socket.onmessage = function (event) {
      const message = JSON.parse(event.data);
      if (message.type === "board") {
        showBoard(message.ply, message.html);
      } else if (message.type === "chat") {
        if (!chatList.querySelector('[data-id="' + message.id + '"]')) {
          chatList.insertAdjacentHTML("beforeend", message.html);
          chatList.lastElementChild.scrollIntoView({ block: "nearest" });
        }
      } else if (message.type === "online") {
        showOnline(message.seats);
      } else if (message.type === "error") {
        flash(message.message);
        // Whatever was refused, show the board as it is now, with its buttons enabled
        // again: the socket that answered sends it (HTTP only if the socket is gone).
        if (socket && socket.readyState === WebSocket.OPEN) {
          socket.send(JSON.stringify({ type: "refresh" }));
        } else {
          refetch();
        }
      } else if (message.type === "acted" || message.type === "chatted") {
        flash("");
      }
    };
  }

  function sendOrPost(event, payload) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false; // the form posts as usual
    event.preventDefault();
    socket.send(JSON.stringify(payload));
    return true;
  }

  // A move: the button's form says what to play and from which ply.
  live.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    fillTokens();
    if (!form.classList.contains("act-form")) return;
    const sent = sendOrPost(event, {
      type: "act",
      action: JSON.parse(form.elements.action.value),
      ply: parseInt(form.elements.ply.value, 10),
      action_id: form.elements.action_id.value,
    });
    if (sent) form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  });

  // A drawn piece (e.g. in an SVG) that stands for a button: clicking it presses the button.
  live.addEventListener("click", function (event) {
    const speak = event.target.closest(".speak");
    if (speak) {
      event.preventDefault();
      if ("speechSynthesis" in window) {
        window.speechSynthesis.cancel();
        window.speechSynthesis.speak(new SpeechSynthesisUtterance(speak.dataset.say));
      }
      return;
    }
    const target = event.target.closest("[data-click-target]");
    if (!target) return;
    const wanted = target.dataset.clickTarget;
    const button = Array.prototype.find.call(live.querySelectorAll("button[data-action]"), function (b) {
      return b.dataset.action === wanted;
    });
    if (button) button.click();
  });

  if (chatForm) {
    chatForm.addEventListener("submit", function (event) {
      const input = chatForm.elements.text;
      if (sendOrPost(event, { type: "chat", text: input.value })) input.value = "";
    });
  }

  fillTokens();
  connect();
})();
