"""A move's boards, drawn where the move is stored once per kind of viewer looking and
pushed to each kind's group (games/live/push.py): only a socket of that kind shows one,
including a socket whose viewer changes kind as seats are taken and left."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games.live import push
from games.live.broadcast import viewer_group
from games.live.fragments import live_html
from games.models import Match
from games.selectors import access
from games.services import SeatRequest, match_create, match_join, match_leave
from tests.games.helpers import normalised, play, random_move, without_presence
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


def seen_as(user: User | None, match_id: int) -> str:
    """What ``user`` (None: signed out) sees of the match's live part, drawn for them alone."""
    from django.contrib.auth.models import AnonymousUser

    return without_presence(normalised(live_html(access(match_id, user or AnonymousUser()))))


async def board_of(ws: WebsocketCommunicator) -> dict[str, Any]:
    return await next_of(ws, "board", timeout=10)


def test_a_viewer_who_leaves_a_seat_never_gets_its_next_taker_s_boards(
    ann: User, bob: User, make_person: Any
) -> None:
    """Bob takes a seat, leaves it, and Erin takes it: from then on Bob's socket, still
    open, shows what a watcher sees, move after move; never Erin's hand."""
    erin, dana = make_person("erin"), make_person("dana")
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("open"), SeatRequest("open")],
    )  # fmt: skip
    rng = random.Random(3)
    browser = Viewer(bob)

    async def scenario() -> None:
        ws = socket(match.pk, browser)
        assert (await ws.connect())[0]
        assert "join-match" in (await board_of(ws))["html"]
        await database_sync_to_async(match_join)(match_id=match.pk, user=bob)
        assert "Leave this match" in (await board_of(ws))["html"]  # seat 1's lobby
        await database_sync_to_async(match_leave)(match_id=match.pk, user=bob)
        assert "join-match" in (await board_of(ws))["html"]  # a watcher again
        # ...and out of seat 1's group: what is sent there (a board its socket would show,
        # were it there) does not reach it.
        layer = get_channel_layer()
        assert layer is not None
        stray = {"type": "match.pushed", "kind": "watch-in", "ply": 99, "html": "seat 1's", "online": []}
        await layer.group_send(viewer_group(match.pk, "seat-1"), {**stray, "committed_at": 1.0})
        assert await ws.receive_nothing(timeout=0.5)
        await database_sync_to_async(match_join)(match_id=match.pk, user=erin)
        await board_of(ws)
        await database_sync_to_async(match_join)(match_id=match.pk, user=dana)
        board = await board_of(ws)
        assert board["ply"] == 0 and 'data-status="running"' in board["html"]
        people = {0: ann, 1: erin, 2: dana}
        for _ in range(6):
            await database_sync_to_async(random_move)(match, people, rng)
            board = await board_of(ws)
            await database_sync_to_async(match.refresh_from_db)()
            assert board["ply"] == match.ply
            watcher = await database_sync_to_async(seen_as)(bob, match.pk)
            erins = await database_sync_to_async(seen_as)(erin, match.pk)
            shown = without_presence(normalised(board["html"]))
            assert shown == watcher and shown != erins
        await ws.disconnect()

    run(scenario)


def test_a_watcher_who_takes_a_seat_gets_that_seat_s_boards_and_no_board_of_another_kind(
    ann: User, make_person: Any
) -> None:
    """Carl watches, then takes the open seat: his socket moves to seat 1's group and shows
    his own hand from the first move on. A board sent to the watchers' group, or to his
    new group but drawn for another kind, is not shown."""
    carl = make_person("carl")
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )

    browser = Viewer(carl)

    async def scenario() -> None:
        ws = socket(match.pk, browser)
        assert (await ws.connect())[0]
        await board_of(ws)
        await database_sync_to_async(match_join)(match_id=match.pk, user=carl)
        started = await board_of(ws)
        assert started["ply"] == 0
        assert without_presence(normalised(started["html"])) == await database_sync_to_async(seen_as)(
            carl, match.pk
        )
        layer = get_channel_layer()
        assert layer is not None
        forged = {
            "type": "match.pushed",
            "ply": 99,
            "html": "not for Carl",
            "online": [],
            "committed_at": 1.0,
        }
        await layer.group_send(viewer_group(match.pk, "watch-in"), {**forged, "kind": "watch-in"})
        await layer.group_send(viewer_group(match.pk, "seat-1"), {**forged, "kind": "seat-0"})
        assert await ws.receive_nothing(timeout=0.5)
        for _ in range(4):
            mover = 0 if "Your turn." not in started["html"] else 1
            await database_sync_to_async(play)(match, mover)
            started = await board_of(ws)
            assert without_presence(normalised(started["html"])) == await database_sync_to_async(seen_as)(
                carl, match.pk
            )
        await ws.disconnect()

    run(scenario)


def test_a_move_nobody_watches_draws_no_board_and_each_kind_looking_draws_one(
    duel: Match, ann: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    draw = push.live_html

    def counting_draw(*args: Any, **kwargs: Any) -> str:
        drawn.append(html := draw(*args, **kwargs))
        return html

    monkeypatch.setattr(push, "live_html", counting_draw)
    people = {0: ann, 1: bob}
    rng = random.Random(5)
    random_move(duel, people, rng)
    assert drawn == []  # no socket on the match

    async def scenario() -> None:
        watchers = [socket(duel.pk, Viewer(None)) for _ in range(3)]
        for ws in watchers:
            assert (await ws.connect())[0]
            await board_of(ws)
        await database_sync_to_async(random_move)(duel, people, rng)
        boards = [await board_of(ws) for ws in watchers]
        assert len({board["html"] for board in boards}) == 1  # one drawing for three watchers
        assert len(drawn) == 1
        assert without_presence(normalised(boards[0]["html"])) == await database_sync_to_async(seen_as)(
            None, duel.pk
        )
        for ws in watchers:
            await ws.disconnect()

    run(scenario)
