"""Caps on a client's and a match's open sockets, and presence announced sparingly
(games/live/socket_limits.py)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games.live.socket_limits import PRESENCE_BURST, SOCKETS_PER_CLIENT_PER_MATCH, SocketRegistry
from games.models import Match
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


async def drain(ws: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Everything the socket has been sent so far."""
    messages = []
    while not await ws.receive_nothing(timeout=0.3):
        messages.append(await ws.receive_json_from())
    return messages


def test_one_client_may_open_only_a_few_sockets_on_a_match(duel: Match) -> None:
    stranger = Viewer(None)

    async def scenario() -> None:
        opened = []
        for _ in range(SOCKETS_PER_CLIENT_PER_MATCH):
            ws = socket(duel.pk, stranger)
            assert (await ws.connect())[0]
            await next_of(ws, "board")
            opened.append(ws)
        refused = socket(duel.pk, stranger)
        await refused.connect()
        error = await next_of(refused, "error")
        assert error["code"] == "too_many_sockets"
        assert (await refused.receive_output(timeout=2))["code"] == 4008
        await refused.wait()  # the refused socket's handler has finished
        # One closes, and there is room again.
        await opened.pop().disconnect()
        again = socket(duel.pk, stranger)
        assert (await again.connect())[0]
        await next_of(again, "board")
        for ws in [*opened, again]:
            await ws.disconnect()

    run(scenario)


def test_presence_is_told_once_per_person_and_sparingly(duel: Match, ann: User, bob: User) -> None:
    ann_viewer, bob_viewer = Viewer(ann), Viewer(bob)

    async def scenario() -> None:
        watcher = socket(duel.pk, ann_viewer)
        assert (await watcher.connect())[0]
        await next_of(watcher, "board")
        # Bob in three tabs: one announcement.
        tabs = [socket(duel.pk, bob_viewer) for _ in range(3)]
        for tab in tabs:
            assert (await tab.connect())[0]
        presence = [m for m in await drain(watcher) if m["type"] == "presence"]
        assert presence == [{"type": "presence", "online": True, "who": presence[0]["who"]}]
        for tab in tabs[:2]:
            await tab.disconnect()
        assert not [m for m in await drain(watcher) if m["type"] == "presence"]  # one tab is still open
        await tabs[2].disconnect()
        assert [m["online"] for m in await drain(watcher) if m["type"] == "presence"] == [False]
        # A spectator opening and closing the page over and over: a few frames, not 2 per cycle.
        for _ in range(30):
            flicker = socket(duel.pk, Viewer(None))
            assert (await flicker.connect())[0]
            await flicker.disconnect()
        frames = [m for m in await drain(watcher) if m["type"] == "presence"]
        assert len(frames) <= PRESENCE_BURST + 2, len(frames)
        await watcher.disconnect()

    run(scenario)


def test_the_registry_counts_out_what_it_counted_in() -> None:
    registry = SocketRegistry()
    for _ in range(3):
        assert registry.open(client="a", match_id=1) is None
    for _ in range(3):
        registry.close(client="a", match_id=1)
    assert not registry.per_client and not registry.per_match and not registry.per_client_match
