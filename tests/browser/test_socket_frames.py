"""The page and its socket do no work twice: the board is rendered once when the
socket opens (the page asks nothing more), and after a refused message the page
asks the socket for the board rather than fetching it over HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.models import User
from games.services import SeatRequest, match_create
from tests.browser.helpers import log_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_socket_renders_the_board_once_and_a_refusal_refreshes_over_the_socket(
    live_site: str, browser: Any
) -> None:
    person = User.objects.create_user(username="framer", password="x", display_name="Framer")
    # Waiting for a second player: nothing moves unless the page asks.
    match = match_create(
        creator=person, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    context = browser.new_context()
    log_in(context, live_site, person)
    page = context.new_page()
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []
    board_fetches: list[str] = []

    def watch(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    page.on("request", lambda request: board_fetches.append(request.url) if "/board" in request.url else None)
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_selector("#match-page[data-connected='yes']")

    # A chat message the server refuses (a control character): its answer comes after
    # any board the page could have asked for on opening, so the count is complete.
    page.fill("#chat-text", "bell\x07")
    page.press("#chat-text", "Enter")
    # A function, not an expression: Playwright polls an expression through eval, which
    # the page's Content-Security-Policy refuses whenever the answer is not there at once.
    page.wait_for_function(
        "() => document.getElementById('match-error') && !document.getElementById('match-error').hidden"
    )
    page.wait_for_function("true")
    kinds = [message["type"] for message in received]
    first_error = kinds.index("error")
    assert kinds[:first_error].count("board") == 1, kinds
    assert [message["type"] for message in sent][:1] == ["chat"], sent  # no "hello" on opening

    # After the refusal the page asked the socket, which answered with the board.
    for _ in range(100):  # the socket's events reach the test a moment after the page's
        if kinds[first_error + 1 :].count("board") or board_fetches:
            break
        page.wait_for_timeout(20)
        kinds = [message["type"] for message in received]
    assert {"type": "refresh"} in sent, sent
    assert "board" in kinds[first_error + 1 :], kinds
    assert board_fetches == [], board_fetches
    context.close()
