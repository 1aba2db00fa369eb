"""The matches waiting for a person (their turn, invitations): the navigation's badge and
the tab title on every page, and the per-person socket (``/ws/me/``) that keeps them
live, in process with the real ASGI stack and the real Redis channel layer."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from accounts.sessions import CLOSE_SIGNED_OUT
from games.live import socket_limits
from games.live.socket_limits import PERSONAL_SOCKETS_PER_CLIENT, SocketRegistry
from games.models import Match
from games.services import SeatRequest, match_create, match_decline, match_submit_action
from tests.games.helpers import logged_in
from tests.games.sockets import Viewer, me_socket, next_of, run

pytestmark = pytest.mark.django_db(transaction=True)

_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_BADGE = re.compile(r'<span class="badge turn-badge" id="your-turn-badge"[^>]*?( hidden)?>(\d+)</span>')


def on_turn(match: Match) -> int:
    match.refresh_from_db()
    return int(match.engine.to_act(match.decoded_state())[0])


def players(match: Match, ann: User, bob: User) -> tuple[User, User]:
    """(whose turn it is, the other one)."""
    return (ann, bob) if on_turn(match) == 0 else (bob, ann)


def play_until_the_turn_passes(match: Match, mover: User) -> None:
    """The mover plays (Go Fox! may keep the turn) until the other player is on."""
    first = on_turn(match)
    while on_turn(match) == first:
        state = match.decoded_state()
        action = match.engine.legal_actions(state, first)[0]
        match_submit_action(match_id=match.pk, user=mover, action=action, ply=match.ply)


def invite(host: User, guest: User) -> Match:
    return match_create(
        creator=host, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username=guest.username)],
    )  # fmt: skip


async def closed_with(ws: WebsocketCommunicator, code: int) -> None:
    """Wait for the server to close ``ws`` with ``code``, then end the connection as a
    browser would: left open, the consumer's task outlives the test (with a TCP Redis it
    then blocks the event loop's shutdown)."""
    while True:
        message: dict[str, Any] = await ws.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            assert message["code"] == code
            await ws.disconnect()
            return


# -- on the pages ------------------------------------------------------------------


def test_invitations_alone_are_waiting_for_you_in_the_title_and_on_my_matches(
    ann: User, bob: User, make_person: Any
) -> None:
    """Issue 34, bug 5: the title said "(2) Your turn" while My matches said no match was
    waiting, both being invitations. One count, one word for it, on both."""
    invite(bob, ann)
    invite(make_person("carl"), ann)
    page = logged_in(ann).get("/matches/").content.decode()
    title = _TITLE.search(page)
    assert title and title.group(1).startswith("(2) Waiting for you · ")
    heading = re.search(r'<h2 id="waiting-for-you-heading">(.*?)</h2>', page, re.S)
    assert heading and " ".join(re.sub(r"<[^>]+>", " ", heading.group(1)).split()) == "Waiting for you 2"
    assert page.count("Accept</button>") == 2
    assert "Nothing is waiting for you" not in page and "Your turn" not in page


def test_every_page_counts_my_turns_and_invitations_in_its_title_and_badge(
    duel: Match, ann: User, bob: User, make_person: Any
) -> None:
    mover, waiting = players(duel, ann, bob)
    invite(make_person("carl"), mover)
    page = logged_in(mover).get("/play/").content.decode()
    title = _TITLE.search(page)
    assert title and title.group(1).startswith("(2) Waiting for you · ")
    assert _BADGE.findall(page) == [("", "2")]
    # Nothing waits for the other player: the plain title, the badge there but hidden (for the script).
    page = logged_in(waiting).get("/play/").content.decode()
    title = _TITLE.search(page)
    assert title and "Your turn" not in title.group(1)
    assert _BADGE.findall(page) == [(" hidden", "0")]
    assert 'data-socket="/ws/me/"' in page and "js/me.js" in page


def test_a_signed_out_visitor_gets_no_badge_and_opens_no_socket(duel: Match) -> None:
    page = Client().get("/play/").content.decode()
    assert "your-turn-badge" not in page and "/ws/me/" not in page and "js/me.js" not in page
    assert "js/countdown.js" in page  # clocks count down for everyone


# -- the socket ----------------------------------------------------------------------


def test_the_socket_sends_the_count_then_again_after_the_opponent_moves(
    duel: Match, ann: User, bob: User
) -> None:
    mover, waiting = players(duel, ann, bob)
    mover_browser, waiting_browser = Viewer(mover), Viewer(waiting)

    async def scenario() -> None:
        movers, waitings = me_socket(mover_browser), me_socket(waiting_browser)
        assert (await movers.connect())[0] and (await waitings.connect())[0]
        assert await next_of(movers, "badge") == {"type": "badge", "count": 1}
        assert await next_of(waitings, "badge") == {"type": "badge", "count": 0}
        await database_sync_to_async(play_until_the_turn_passes)(duel, mover)
        # Each socket counted again from the database, and spoke only when its count changed.
        assert await next_of(waitings, "badge") == {"type": "badge", "count": 1}
        assert await next_of(movers, "badge") == {"type": "badge", "count": 0}
        assert await waitings.receive_nothing(timeout=0.5)
        for ws in (movers, waitings):
            await ws.disconnect()

    run(scenario)


def test_an_invitation_arriving_is_counted(ann: User, bob: User) -> None:
    browser = Viewer(bob)

    async def scenario() -> None:
        ws = me_socket(browser)
        assert (await ws.connect())[0]
        assert await next_of(ws, "badge") == {"type": "badge", "count": 0}
        await database_sync_to_async(invite)(ann, bob)
        assert await next_of(ws, "badge") == {"type": "badge", "count": 1}
        await ws.disconnect()

    run(scenario)


def test_a_declined_invitation_is_no_longer_counted(ann: User, bob: User) -> None:
    browser = Viewer(bob)
    invitation = invite(ann, bob)

    async def scenario() -> None:
        ws = me_socket(browser)
        assert (await ws.connect())[0]
        assert await next_of(ws, "badge") == {"type": "badge", "count": 1}
        await database_sync_to_async(match_decline)(match_id=invitation.pk, user=bob)
        assert await next_of(ws, "badge") == {"type": "badge", "count": 0}
        await ws.disconnect()

    run(scenario)


def test_a_signed_out_socket_is_told_to_log_in_and_closed() -> None:
    async def scenario() -> None:
        ws = me_socket(Viewer(None))
        assert (await ws.connect())[0]
        error = await next_of(ws, "error")
        assert error["code"] == "login_required" and "Log in" in error["message"]
        await closed_with(ws, CLOSE_SIGNED_OUT)

    run(scenario)


def test_bad_messages_get_clear_errors_and_the_socket_goes_on(ann: User) -> None:
    browser = Viewer(ann)

    async def scenario() -> None:
        ws = me_socket(browser)
        assert (await ws.connect())[0]
        await next_of(ws, "badge")
        await ws.send_to(text_data="{not json")
        assert (await next_of(ws, "error"))["code"] == "malformed_message"
        await ws.send_to(text_data="x" * (17 * 1024))
        assert (await next_of(ws, "error"))["message"] == "Messages are JSON text of at most 16 KB."
        for wrong in ({"type": "act", "action": {}}, ["refresh"], {"kind": "refresh"}):
            await ws.send_json_to(wrong)
            error = await next_of(ws, "error")
            assert error["code"] == "unknown_message" and "ping and refresh" in error["message"]
        # Still open, and answering.
        await ws.send_json_to({"type": "ping"})
        assert await next_of(ws, "pong") == {"type": "pong"}
        await ws.send_json_to({"type": "refresh"})
        assert await next_of(ws, "badge") == {"type": "badge", "count": 0}
        await ws.disconnect()

    run(scenario)


def test_logging_out_closes_the_sessions_socket(ann: User) -> None:
    client = Client()
    client.force_login(ann)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    browser = Viewer(None)
    browser.cookie = [cookie]

    async def scenario() -> None:
        ws = me_socket(browser)
        assert (await ws.connect())[0]
        await next_of(ws, "badge")
        answer = await database_sync_to_async(client.post)("/accounts/logout/")
        assert answer.status_code in (200, 302)
        assert (await next_of(ws, "error"))["code"] == "signed_out"
        await closed_with(ws, CLOSE_SIGNED_OUT)

    run(scenario)


def test_one_client_has_a_cap_of_its_own_on_these_sockets() -> None:
    registry = SocketRegistry()
    for _ in range(PERSONAL_SOCKETS_PER_CLIENT):
        assert registry.open_personal(client="user:1") is None
    assert registry.open_personal(client="user:1") is not None
    assert registry.open_personal(client="user:2") is None  # another person's are theirs
    assert registry.open(client="user:1", match_id=1) is None  # and match sockets are counted apart
    registry.close_personal(client="user:1")
    assert registry.open_personal(client="user:1") is None


def test_a_socket_over_the_cap_is_told_so_and_closed(ann: User, monkeypatch: pytest.MonkeyPatch) -> None:
    # A small cap, for time: each socket closed in a test costs the channel layer about a second.
    monkeypatch.setattr(socket_limits, "PERSONAL_SOCKETS_PER_CLIENT", 2)
    browser = Viewer(ann)

    async def scenario() -> None:
        opened = []
        for _ in range(2):
            ws = me_socket(browser)
            assert (await ws.connect())[0]
            await next_of(ws, "badge")
            opened.append(ws)
        refused = me_socket(browser)
        await refused.connect()
        assert (await next_of(refused, "error"))["code"] == "too_many_sockets"
        await closed_with(refused, 4008)
        await refused.wait()
        # One page closes, and there is room again.
        await opened.pop().disconnect()
        again = me_socket(browser)
        assert (await again.connect())[0]
        await next_of(again, "badge")
        for ws in [*opened, again]:
            await ws.disconnect()

    run(scenario)
