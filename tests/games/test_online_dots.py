"""The online dots of the match page's players list: a dot by each player who has the
match open now (games/live/presence.py), on the page and kept up over the match socket as
people come and go."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create
from tests.conftest import ensure_bot_accounts
from tests.games.helpers import logged_in
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)

_DOT = re.compile(
    r'<span class="online-dot" data-online-seat="(\d+)" title="online"( hidden)?>(.*?)</span></span>'
)


def dots(client: Client, match: Match) -> dict[int, bool]:
    """Each person's seat on the page, and whether its dot shows."""
    page = client.get(f"/matches/{match.pk}/").content.decode()
    found = _DOT.findall(page)
    assert all("online" in words for _, _, words in found), "each dot says what it means"
    return {int(seat): not hidden for seat, hidden, _ in found}


async def drain(ws: WebsocketCommunicator) -> list[dict[str, Any]]:
    messages = []
    while not await ws.receive_nothing(timeout=0.3):
        messages.append(await ws.receive_json_from())
    return messages


def test_the_page_shows_a_dot_by_each_player_who_has_the_match_open(
    duel: Match, ann: User, bob: User
) -> None:
    bob_browser, ann_client, stranger = Viewer(bob), logged_in(ann), Client()
    seen: dict[str, dict[int, bool]] = {}

    async def scenario() -> None:
        ws = socket(duel.pk, bob_browser)
        assert (await ws.connect())[0]
        await next_of(ws, "board")
        seen["ann, bob there"] = await database_sync_to_async(dots)(ann_client, duel)
        seen["stranger, bob there"] = await database_sync_to_async(dots)(stranger, duel)
        await ws.disconnect()
        seen["stranger, bob gone"] = await database_sync_to_async(dots)(stranger, duel)
        seen["ann, bob gone"] = await database_sync_to_async(dots)(ann_client, duel)

    run(scenario)
    assert seen == {
        # Ann is looking at the page she is shown: her own dot shows.
        "ann, bob there": {0: True, 1: True},
        "stranger, bob there": {0: False, 1: True},
        "stranger, bob gone": {0: False, 1: False},
        "ann, bob gone": {0: True, 1: False},
    }


def test_bots_have_no_dot(ann: User) -> None:
    ensure_bot_accounts()
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )
    assert dots(logged_in(ann), match) == {0: True}


def test_the_socket_tells_the_page_when_a_player_comes_and_goes(duel: Match, ann: User, bob: User) -> None:
    ann_browser, bob_browser = Viewer(ann), Viewer(bob)

    async def scenario() -> None:
        watcher = socket(duel.pk, ann_browser)
        assert (await watcher.connect())[0]
        board = await next_of(watcher, "board")
        assert 'data-online-seat="1" title="online" hidden' in board["html"]
        # A spectator coming and going changes no dot: presence notes only.
        spectator = socket(duel.pk, Viewer(None))
        assert (await spectator.connect())[0]
        await spectator.disconnect()
        assert [m["type"] for m in await drain(watcher)] == ["presence", "presence"]
        # Bob opens the match, then closes it.
        arriving = socket(duel.pk, bob_browser)
        assert (await arriving.connect())[0]
        assert await next_of(watcher, "online") == {"type": "online", "seats": [0, 1]}
        await arriving.disconnect()
        assert await next_of(watcher, "online") == {"type": "online", "seats": [0]}
        await watcher.disconnect()

    run(scenario)
