"""games/live/presence.py: who has a match open, in Redis, for every process to read."""

from __future__ import annotations

import time

import pytest
import time_machine

from accounts.models import User
from games.live import presence
from games.models import Match
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_open_socket_counts_until_it_closes(duel: Match, ann: User, bob: User) -> None:
    viewer = Viewer(ann)
    seen: dict[str, bool] = {}

    async def scenario() -> None:
        ws = socket(duel.pk, viewer)
        assert (await ws.connect())[0]
        await next_of(ws, "board")
        seen["open"] = presence.is_connected(ann.pk, duel.pk)
        seen["bob"] = presence.is_connected(bob.pk, duel.pk)
        await ws.disconnect()
        seen["closed"] = presence.is_connected(ann.pk, duel.pk)

    run(scenario)
    assert seen == {"open": True, "bob": False, "closed": False}


def test_a_signed_out_spectator_is_not_recorded(duel: Match) -> None:
    viewer = Viewer(None)

    async def scenario() -> None:
        ws = socket(duel.pk, viewer)
        assert (await ws.connect())[0]
        await next_of(ws, "board")
        assert presence.connected(duel.pk) == set()
        await ws.disconnect()

    run(scenario)


def test_a_member_left_by_a_killed_server_expires(duel: Match, ann: User) -> None:
    async def recorded() -> None:
        await presence.record(duel.pk, "a-socket-of-a-server-that-died", "seat-0", ann.pk)

    run(recorded)
    assert presence.is_connected(ann.pk, duel.pk)
    with time_machine.travel(time.time() + presence.TTL_SECONDS + 1):
        assert not presence.is_connected(ann.pk, duel.pk)
