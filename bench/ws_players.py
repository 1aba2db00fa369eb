"""The players of ``bench/ws_load.py``: pairs of accounts with their matches, and the
clients that play them over real WebSockets, against the site or the echo baseline.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import random
import re
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from bench.ws_servers import Server

GAME = "dont-go-boom"

# The board's act-forms (games/templatetags/boards.py), read as match.js reads them.
_ACT_FORM = re.compile(
    r'<form method="post" action="[^"]*" class="act-form">.*?'
    r'name="ply" value="(\d+)">.*?name="action_id" value="([^"]+)">.*?name="action" value="([^"]*)">',
    re.DOTALL,
)
_FINISHED = 'data-status="finished"'


def act_forms(board_html: str) -> list[dict[str, Any]]:
    """The ``act`` messages a page could send from this board: one per act-form, with the
    form's action, ply and action id, exactly as ``static/js/match.js`` builds them."""
    return [
        {"type": "act", "action": json.loads(html.unescape(action)), "ply": int(ply), "action_id": action_id}
        for ply, action_id, action in _ACT_FORM.findall(board_html)
    ]


# -- the players ------------------------------------------------------------------------


@dataclass
class Pair:
    """Two accounts with a session each, and the match they play now."""

    index: int
    cookies: tuple[str, str]
    users: tuple[Any, Any]
    match_id: int = 0
    matches: dict[int, int] = field(default_factory=dict)  # match id -> its ply when play began


def make_pairs(count: int, tag: str) -> list[Pair]:
    from django.conf import settings
    from django.test import Client

    from accounts.models import User

    pairs = []
    for index in range(count):
        users = tuple(
            User.objects.create_user(username=f"bench-{tag}-{index}-{side}", password=None) for side in "ab"
        )
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)  # the session a login makes
            cookies.append(
                f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            )
        pairs.append(Pair(index, (cookies[0], cookies[1]), (users[0], users[1])))
    return pairs


def start_match(pair: Pair) -> None:
    """A new running match between the pair, the longest the game allows, through the
    services as the lobby makes one: created with an invitation, then joined."""
    from games.engine import get
    from games.models import Match
    from games.services import SeatRequest, match_create, match_join

    longest = {option.name: option.maximum for option in get(GAME).options if option.maximum is not None}
    first, second = pair.users
    match = match_create(
        creator=first, game_slug=GAME, options=longest,
        seats=[SeatRequest("me"), SeatRequest("invite", username=second.username)],
    )  # fmt: skip
    match_join(match_id=match.pk, user=second)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.RUNNING
    pair.match_id = match.pk
    pair.matches[match.pk] = match.ply


# -- the clients ------------------------------------------------------------------------


@dataclass
class Move:
    action_id: str
    seat: int
    ply: int
    sent: float
    acted: float | None = None
    own_board: float | None = None
    opponent_board: float | None = None
    acked_ply: int | None = None
    acks: int = 0
    marked_duplicate: bool = False
    refused: str | None = None

    @property
    def settled(self) -> bool:
        if self.refused is not None:
            return True
        return self.acted is not None and self.own_board is not None and self.opponent_board is not None


@dataclass
class Tally:
    """What went wrong on a target's sockets, over the whole run."""

    errors: list[str] = field(default_factory=list)
    lost: int = 0  # moves never settled (no acted, or a board never came)
    replaced: int = 0  # finished matches replaced by new ones


class Target:
    """What the clients talk to: the site, or the echo baseline."""

    name: str
    servers: list[Server]
    sends_board_on_connect: bool

    def socket(self, table: Table, seat: int) -> tuple[str, str, dict[str, str]]:
        raise NotImplementedError

    def moves(self, table: Table, seat: int, rng: random.Random) -> dict[str, Any] | None:
        """The act message ``seat`` sends now, or None when it has no move."""
        raise NotImplementedError

    def finished(self, table: Table) -> bool:
        return False

    async def next_match(self, table: Table) -> None:
        raise NotImplementedError


class SiteTarget(Target):
    name = "site"
    sends_board_on_connect = True

    def __init__(self, servers: list[Server], pairs: list[Pair], database: ThreadPoolExecutor):
        self.servers = servers
        self.pairs = pairs
        self.database = database

    def socket(self, table: Table, seat: int) -> tuple[str, str, dict[str, str]]:
        server = self.servers[table.index % len(self.servers)]
        pair = self.pairs[table.index]
        url = f"ws://127.0.0.1:{server.port}/ws/matches/{pair.match_id}/"
        return url, server.origin, {"Cookie": pair.cookies[seat]}

    def moves(self, table: Table, seat: int, rng: random.Random) -> dict[str, Any] | None:
        forms = act_forms(table.boards[seat][1])
        return rng.choice(forms) if forms else None

    def finished(self, table: Table) -> bool:
        return any(ply == table.latest and _FINISHED in board for ply, board in table.boards)

    async def next_match(self, table: Table) -> None:
        await asyncio.get_running_loop().run_in_executor(self.database, start_match, self.pairs[table.index])


class EchoTarget(Target):
    name = "baseline"
    sends_board_on_connect = False

    def __init__(self, servers: list[Server]):
        from bench.echo_site import ECHO_PATH  # here: importing it sets Django up

        self.servers = servers
        self.path = ECHO_PATH

    def socket(self, table: Table, seat: int) -> tuple[str, str, dict[str, str]]:
        server = self.servers[table.index % len(self.servers)]
        return f"ws://127.0.0.1:{server.port}/" + self.path.format(pair=table.index), server.origin, {}

    def moves(self, table: Table, seat: int, rng: random.Random) -> dict[str, Any] | None:
        if table.latest % 2 != seat:
            return None  # the players take turns
        action = {"type": "draw", "from": "deck"}
        return {"type": "act", "action": action, "ply": table.latest, "action_id": str(uuid.uuid4())}


class Table:
    """One match (or echo pair) and its two players' sockets."""

    def __init__(self, target: Target, index: int, tally: Tally, rng: random.Random):
        self.target = target
        self.index = index
        self.tally = tally
        self.rng = rng
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        self.boards: list[tuple[int, str]] = [(-1, ""), (-1, "")]  # per seat: the last board's ply and html
        self.latest = -1  # the newest ply either socket heard of
        self.sent: dict[str, Move] = {}  # every move of the run on this table, by action id
        self.pending: Move | None = None
        self.changed = asyncio.Event()
        self.closing = False

    async def open(self) -> None:
        self.closing = False
        self.boards = [(-1, ""), (-1, "")]
        self.latest = -1
        self.sockets = []
        for seat in (0, 1):
            url, origin, headers = self.target.socket(self, seat)
            ws = await connect(
                url, origin=Origin(origin), additional_headers=headers, open_timeout=60, max_size=None
            )
            self.sockets.append(ws)
        self.readers = [asyncio.create_task(self._read(seat, ws)) for seat, ws in enumerate(self.sockets)]
        if not self.target.sends_board_on_connect:
            self.boards = [(0, ""), (0, "")]
            self.latest = 0
        if not await self._until(lambda: all(ply >= 0 for ply, _ in self.boards), time.monotonic() + 60):
            raise RuntimeError(
                f"{self.target.name} table {self.index}: no board within a minute of connecting"
            )

    async def close(self) -> None:
        self.closing = True
        for ws in self.sockets:
            await ws.close()
        await asyncio.gather(*self.readers, return_exceptions=True)

    async def _read(self, seat: int, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                now = time.perf_counter()
                self._received(seat, json.loads(raw), now)
                self.changed.set()
        except ConnectionClosed:
            pass
        except Exception as error:  # a message the client cannot read: stop, and say so
            self.tally.errors.append(f"{self.target.name} table {self.index} seat {seat}: {error!r}")
        if not self.closing:
            self.tally.errors.append(
                f"{self.target.name} table {self.index} seat {seat}: socket closed ({ws.close_code})"
            )
            self.changed.set()

    def _received(self, seat: int, message: dict[str, Any], now: float) -> None:
        kind = message.get("type")
        if kind == "board":
            ply = message["ply"]
            if ply >= self.boards[seat][0]:
                self.boards[seat] = (ply, message["html"])
            self.latest = max(self.latest, ply)
            move = self.pending
            if move is not None and ply > move.ply:
                if seat == move.seat and move.own_board is None:
                    move.own_board = now
                elif seat != move.seat and move.opponent_board is None:
                    move.opponent_board = now
        elif kind == "acted":
            move = self.sent.get(message.get("action_id") or "")
            if move is None or seat != move.seat:
                self.tally.errors.append(
                    f"{self.target.name} table {self.index}: an acted for no move of its socket"
                )
                return
            move.acks += 1
            if move.acks == 1:
                move.acted = now
                move.acked_ply = message["ply"]
                move.marked_duplicate = bool(message.get("duplicate"))
                self.latest = max(self.latest, move.acked_ply)
                if move.acked_ply != move.ply + 1:
                    self.tally.errors.append(
                        f"{self.target.name} table {self.index}: a move at ply {move.ply} acted as ply "
                        f"{move.acked_ply} (one move is one ply)"
                    )
        elif kind == "error":
            self.tally.errors.append(
                f"{self.target.name} table {self.index} seat {seat}: {message.get('code')}"
            )
            move = self.sent.get(message.get("action_id") or "")
            if move is not None and move.refused is None:
                move.refused = str(message.get("code"))
        # presence, online, pong: nothing a mover waits for

    async def _changed(self, deadline: float) -> bool:
        """Wait for the next message on either socket; False if ``deadline`` came first."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        self.changed.clear()
        with suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout=remaining)
        return True

    async def _until(self, condition: Callable[[], bool], deadline: float) -> bool:
        while not condition():
            if not await self._changed(deadline):
                return False
        return True

    async def _choices(self, deadline: float) -> list[tuple[int, dict[str, Any]]] | None:
        """The moves the players can make now (none when the match is over), or None
        when no board to move on came before ``deadline``."""
        while True:
            choices = self._movable()
            if choices or self.target.finished(self):
                return choices
            if not await self._changed(deadline):
                return None

    def _movable(self) -> list[tuple[int, dict[str, Any]]]:
        choices = []
        for seat in (0, 1):
            if self.boards[seat][0] == self.latest:
                message = self.target.moves(self, seat, self.rng)
                if message is not None:
                    choices.append((seat, message))
        return choices

    async def play(self, step: Step) -> None:
        """Move on this match's schedule until the step ends; wait for the last move."""
        interval = len(step.tables) / step.rate
        due = step.start + self.rng.uniform(0, interval)
        while due < step.end:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if time.monotonic() >= step.end:
                break  # behind schedule at the end: the step is over, the moves not made are not
            if self.target.finished(self):
                await self.close()
                await self.target.next_match(self)
                await self.open()
                self.tally.replaced += 1
                continue
            choices = await self._choices(step.end)
            if choices is None:
                break
            if not choices:
                continue  # the match is over: replaced above
            seat, message = self.rng.choice(choices)
            move = Move(message["action_id"], seat, message["ply"], time.perf_counter())
            self.sent[move.action_id] = move
            self.pending = move
            step.moves.append(move)
            await self.sockets[seat].send(json.dumps(message))
            settled = await self._until(functools.partial(getattr, move, "settled"), step.end + step.drain)
            self.pending = None
            if not settled:
                self.tally.lost += 1
                break
            if move.refused is not None:
                # As the page does on an error: ask for the board as it is now.
                await self.sockets[seat].send(json.dumps({"type": "refresh"}))
            due += interval


@dataclass
class Step:
    rate: float
    tables: list[Table]
    start: float
    end: float
    drain: float
    moves: list[Move] = field(default_factory=list)
