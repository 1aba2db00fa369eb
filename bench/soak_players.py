"""The people of ``bench/soak.py``: their accounts and matches, their open tabs (match
sockets), the email they read and the pages they load.

A **slot** is one of the matches in play, kept in play for the whole soak: when its
match ends, the bench makes the next one for the same people (through the services, as
the lobby does) and every tab on the old match moves to the new one. A slot is one of:

- ``pvp``: two people with the match open, each on another Daphne; they move on the
  soak's schedule through their sockets;
- ``pvb``: a person with the match open against a bot (the worker plays it);
- ``nudged``: a person against a bot who is not looking: each "your turn" email brings
  them to the match (a socket opened for it), where they move once and leave;
- ``away``: a person against a bot who never comes: their five-minute turn clock runs
  out, the autopilot plays, and the "about to lose on time" email goes first.

Every slot has watchers: idle tabs of signed-in people and of visitors, each from an
address of its own, spread over both Daphnes. Every tab sends the site's origin and
``X-Forwarded-For: 10.x.y.z``, as a proxy in front would; it only ever connects to
127.0.0.1.
"""

from __future__ import annotations

import asyncio
import email
import http.client
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from email.message import Message
from typing import Any, Literal

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from bench.soak_stack import ReceivedMail
from bench.ws_players import act_forms
from bench.ws_servers import Server

FINISHED = 'data-status="finished"'
FIVE_MINUTES = 5 * 60
# (game, options, weight): short games, so that matches end and new ones start during
# the soak (Boom Box about 24 plies, one round of Don't Go Boom about 70, Go Fox! 96).
GAMES: list[tuple[str, dict[str, Any], float]] = [
    ("boom-box", {}, 0.6),
    ("dont-go-boom", {"rounds": 1}, 0.25),
    ("go-fox", {}, 0.15),
]
LIVE_TURN_LIMITS: list[int | None] = [None, FIVE_MINUTES, 60 * 60, 24 * 60 * 60]
BOT_LEVELS = ["random", "basic"]
Kind = Literal["pvp", "pvb", "nudged", "away"]
SETTLE_SECONDS = 60.0  # a move not answered (acted, and its boards) by then is lost
OPEN_SECONDS = 60.0
_MATCH_LINK = re.compile(r"/matches/(\d+)/")


def address(number: int) -> str:
    """The ``number``-th client address, 10.0.1.1 onwards (the header's value only)."""
    return f"10.{number // 64516 % 256}.{number // 254 % 254 + 1}.{number % 254 + 1}"


# -- accounts -------------------------------------------------------------------------


@dataclass
class Viewer:
    """Someone with tabs open: a signed-in person (``cookie``) or a visitor (None)."""

    address: str
    user_id: int = 0
    username: str = ""
    cookie: str | None = None
    wants_game_over: bool = True
    api_token: str | None = None


def make_people(count: int, tag: str, first_address: int, *, game_over_off_every: int = 0) -> list[Viewer]:
    """``count`` people with verified addresses and a session each, made as signing up,
    confirming and logging in leave them; every ``game_over_off_every``-th one has
    turned the "match over" emails off."""
    from allauth.account.models import EmailAddress
    from django.conf import settings
    from django.test import Client

    from accounts.models import Notify, User
    from accounts.services import user_update_notifications

    people = []
    for index in range(count):
        username = f"soak-{tag}-{index}"
        user = User.objects.create_user(username=username, email=f"{username}@soak.test", password=None)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        wants = not (game_over_off_every and index % game_over_off_every == game_over_off_every - 1)
        if not wants:
            user = user_update_notifications(
                user=user, turn=Notify.EACH, invitation=Notify.EACH, game_over=Notify.OFF,
                digest_hour=user.digest_hour,
            )  # fmt: skip
        client = Client()
        client.force_login(user)  # the session a login makes
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        people.append(Viewer(address(first_address + index), user.pk, username, cookie, wants))
    return people


def give_api_tokens(people: list[Viewer]) -> None:
    from accounts.models import User
    from accounts.services import api_token_create

    for person in people:
        _token, secret = api_token_create(user=User.objects.get(pk=person.user_id), name="soak")
        person.api_token = secret


# -- the slots --------------------------------------------------------------------------


@dataclass
class SentMove:
    action_id: str
    slot: int
    match_id: int
    seat: int
    ply: int
    sent: float
    mover: Tab | None
    acted: float | None = None
    acked_ply: int | None = None
    acks: int = 0
    duplicate: bool = False
    refused: str | None = None
    own_board: float | None = None
    opponent_board: float | None = None
    heard_by: set[int] = field(default_factory=set)  # ids of the tabs that saw its board

    def settled(self, opponent: bool) -> bool:
        if self.refused is not None:
            return True
        done = self.acted is not None and self.own_board is not None
        return done and (self.opponent_board is not None or not opponent)


@dataclass
class Slot:
    index: int
    kind: Kind
    people: list[Viewer]
    level: str
    rng: random.Random
    match_id: int = 0
    game: str = ""
    games: dict[int, str] = field(default_factory=dict)  # match id -> its game
    seats: dict[int, int] = field(default_factory=dict)  # user id -> seat index
    matches: list[int] = field(default_factory=list)
    watchers: list[tuple[Viewer, int]] = field(default_factory=list)  # (viewer, server index)
    tabs: list[Tab] = field(default_factory=list)  # the people's open tabs (live slots)
    watcher_tabs: list[Tab] = field(default_factory=list)
    latest: int = -1
    finished: bool = False
    last_move: SentMove | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    mail: asyncio.Queue[tuple[str, int]] = field(default_factory=asyncio.Queue)  # (kind, match id)

    @property
    def has_opponent_tab(self) -> bool:
        return self.kind == "pvp"


def choose_game(rng: random.Random) -> tuple[str, dict[str, Any]]:
    names = [(game, options) for game, options, _ in GAMES]
    return rng.choices(names, weights=[weight for _, _, weight in GAMES])[0]


def start_match(slot: Slot) -> None:
    """The slot's next match, through the services as the lobby makes one: a person
    invites the other and they join, or a person takes a bot on (in a random seat)."""
    from accounts.models import User
    from games.models import Match
    from games.services import SeatRequest, match_create, match_join

    game, options = choose_game(slot.rng)
    # Nudged and away players: the shortest clock the lobby offers (games/clocks.py).
    live = slot.kind in ("pvp", "pvb")
    turn_limit = slot.rng.choice(LIVE_TURN_LIMITS) if live else FIVE_MINUTES
    creator = User.objects.get(pk=slot.people[0].user_id)
    if slot.kind == "pvp":
        guest = slot.people[1].username
        seats = [SeatRequest("me"), SeatRequest("invite", username=guest)]
        slot.rng.shuffle(seats)
        match = match_create(
            creator=creator, game_slug=game, options=options, seats=seats, turn_limit=turn_limit
        )
        match_join(match_id=match.pk, user=User.objects.get(pk=slot.people[1].user_id))
    else:
        seats = [SeatRequest("me"), SeatRequest("bot", level=slot.level)]
        slot.rng.shuffle(seats)
        match = match_create(
            creator=creator, game_slug=game, options=options, seats=seats, turn_limit=turn_limit
        )
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.RUNNING, match.status
    slot.match_id = match.pk
    slot.game = game
    slot.games[match.pk] = game
    slot.seats = {seat.user_id: seat.index for seat in match.seats.all() if seat.user_id}
    slot.matches.append(match.pk)
    slot.latest = -1
    slot.finished = False
    slot.last_move = None


# -- what went on, for the report ------------------------------------------------------


@dataclass
class Record:
    moves: dict[str, SentMove] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # socket trouble: unexpected closes, refusals
    refusals: Counter[str] = field(default_factory=Counter)
    reused_ids: list[str] = field(default_factory=list)  # boards offering an action id sent before
    stale_tabs: list[str] = field(default_factory=list)  # open tabs left behind their match's ply at the end
    stuck: list[str] = field(default_factory=list)  # live matches where nobody had a board to move on
    reloads: int = 0  # pages asked again after a minute without the board they waited for
    lost: int = 0  # moves never settled
    opponent_ms: list[float] = field(default_factory=list)
    watcher_ms: list[float] = field(default_factory=list)
    watcher_other_process_ms: list[float] = field(default_factory=list)
    acted_ms: list[float] = field(default_factory=list)
    bot_reply_ms: list[float] = field(default_factory=list)
    opened: int = 0
    closed: int = 0
    open_failures: list[str] = field(default_factory=list)
    replaced: int = 0
    nudged_moves: int = 0
    http: Counter[int] = field(default_factory=Counter)
    http_ms: list[float] = field(default_factory=list)
    http_5xx: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    mail: list[tuple[float, int, str, int | None]] = field(default_factory=list)  # (at, user, kind, match)
    mail_unread: list[str] = field(default_factory=list)
    scrapes: list[tuple[float, str]] = field(default_factory=list)  # (monotonic time, /metrics text)


class World:
    """Everything the clients share: the servers, the slots, the record, the schedule."""

    def __init__(self, servers: list[Server], origin: str, slots: list[Slot], database: ThreadPoolExecutor):
        self.servers = servers
        self.origin = origin
        self.slots = slots
        self.database = database
        self.record = Record()
        self.stopping = False
        self.open_gate = asyncio.Semaphore(16)
        self.people = {person.user_id: slot for slot in slots for person in slot.people}
        self.tab_ids = iter(range(1, 1 << 62))

    def tabs_open(self) -> int:
        return sum(len(slot.tabs) + len(slot.watcher_tabs) for slot in self.slots)

    async def in_database(self, function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.database, function, *args)


class Tab:
    """One open match page: a socket, and the board it shows."""

    def __init__(self, world: World, slot: Slot, viewer: Viewer, server_index: int, seat: int | None):
        self.world = world
        self.slot = slot
        self.viewer = viewer
        self.server_index = server_index
        self.seat = seat
        self.id = next(world.tab_ids)
        self.match_id = slot.match_id
        self.ply = -1
        self.html = ""
        self.opened_at = 0.0
        self.closing = False
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.first_board = asyncio.Event()

    async def open(self) -> bool:
        server = self.world.servers[self.server_index]
        headers = {"X-Forwarded-For": self.viewer.address}
        if self.viewer.cookie:
            headers["Cookie"] = self.viewer.cookie
        url = f"ws://127.0.0.1:{server.port}/ws/matches/{self.match_id}/"
        async with self.world.open_gate:
            try:
                # No pings from the client: a browser sends none (it answers Daphne's).
                self.ws = await connect(
                    url, origin=Origin(self.world.origin), additional_headers=headers,
                    open_timeout=OPEN_SECONDS, max_size=None, ping_interval=None,
                )  # fmt: skip
            except (OSError, TimeoutError, InvalidHandshake) as error:
                self.world.record.open_failures.append(f"match {self.match_id}: {error!r}")
                return False
            self.opened_at = time.perf_counter()
            self.reader = asyncio.create_task(self._read(self.ws))
            try:
                await asyncio.wait_for(self.first_board.wait(), OPEN_SECONDS)
            except TimeoutError:
                self.world.record.open_failures.append(f"match {self.match_id}: no board within a minute")
                return False
        self.world.record.opened += 1
        return True

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        self.world.record.closed += 1

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                self._received(json.loads(raw), time.perf_counter())
        except ConnectionClosed:
            pass
        except Exception as error:
            self.world.record.errors.append(f"match {self.match_id}: unreadable message {error!r}")
        if not self.closing:
            self.world.record.errors.append(
                f"match {self.match_id}: socket closed by the server ({ws.close_code} {ws.close_reason})"
            )
        self.slot.changed.set()

    def _received(self, message: dict[str, Any], now: float) -> None:
        kind = message.get("type")
        slot = self.slot
        if kind == "board":
            ply = int(message["ply"])
            if ply >= self.ply:
                self.ply, self.html = ply, str(message["html"])
            self.first_board.set()
            if self.match_id != slot.match_id:
                return
            if ply >= slot.latest:
                slot.latest = ply
                slot.finished = slot.finished or FINISHED in self.html
            move = slot.last_move
            if move is not None and ply > move.ply and self.id not in move.heard_by:
                move.heard_by.add(self.id)
                if self is move.mover:
                    move.own_board = now
                elif self.seat is not None and self.opened_at < move.sent:
                    if move.opponent_board is None:
                        move.opponent_board = now
                        self.world.record.opponent_ms.append((now - move.sent) * 1000)
                elif self.opened_at < move.sent:
                    self.world.record.watcher_ms.append((now - move.sent) * 1000)
                    if move.mover is not None and move.mover.server_index != self.server_index:
                        self.world.record.watcher_other_process_ms.append((now - move.sent) * 1000)
            slot.changed.set()
        elif kind == "acted":
            move = self.world.record.moves.get(str(message.get("action_id")))
            if move is None or move.mover is not self:
                self.world.record.errors.append(f"match {self.match_id}: an acted for no move of this tab")
                return
            move.acks += 1
            if move.acks == 1:
                move.acted = now
                move.acked_ply = int(message["ply"])
                move.duplicate = bool(message.get("duplicate"))
                self.world.record.acted_ms.append((now - move.sent) * 1000)
            slot.changed.set()
        elif kind == "error":
            code = str(message.get("code"))
            self.world.record.refusals[code] += 1
            move = self.world.record.moves.get(str(message.get("action_id")))
            if move is not None and move.refused is None:
                move.refused = code
            elif code not in ("stale_ply", "not_your_turn", "game_over"):
                self.world.record.errors.append(f"match {self.match_id}: error {code}")
            slot.changed.set()
        # presence, online, chat, pong: nothing a player waits for

    def moves(self) -> list[dict[str, Any]]:
        """What this tab's page could send now: its board's act-forms, if it is the latest,
        less the buttons already pressed (the page disables a form once it is sent)."""
        if self.seat is None or self.ply < self.slot.latest or self.match_id != self.slot.match_id:
            return []
        return [form for form in act_forms(self.html) if form["action_id"] not in self.world.record.moves]

    async def reload(self) -> None:
        """What a person does with a page that has not changed for a minute: ask again
        (the socket answers ``refresh`` with the board as it is now)."""
        self.world.record.reloads += 1
        await self.send({"type": "refresh"})


async def wait_for(slot: Slot, condition: Callable[[], bool], deadline: float) -> bool:
    while not condition():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        slot.changed.clear()
        with suppress(TimeoutError):
            await asyncio.wait_for(slot.changed.wait(), timeout=min(remaining, 5.0))
    return True


# -- opening and moving the tabs ------------------------------------------------------------


async def open_tabs(world: World, slot: Slot) -> None:
    """The people's tabs (live slots) and the watchers' on the slot's match."""
    tabs = []
    if slot.kind in ("pvp", "pvb"):
        for number, person in enumerate(slot.people):
            # The two players of a match on different Daphnes: a move crosses Redis.
            server = (slot.index + number) % len(world.servers)
            tabs.append(Tab(world, slot, person, server, slot.seats[person.user_id]))
    watchers = [Tab(world, slot, viewer, server, None) for viewer, server in slot.watchers]
    opened = await asyncio.gather(*(tab.open() for tab in tabs + watchers))
    slot.tabs = [tab for tab, ok in zip(tabs, opened[: len(tabs)], strict=True) if ok]
    slot.watcher_tabs = [tab for tab, ok in zip(watchers, opened[len(tabs) :], strict=True) if ok]


async def close_tabs(slot: Slot) -> None:
    tabs, slot.tabs, slot.watcher_tabs = slot.tabs + slot.watcher_tabs, [], []
    await asyncio.gather(*(tab.close() for tab in tabs))


async def replace_match(world: World, slot: Slot) -> None:
    """The slot's match is over: the next one for the same people, and every tab moves there."""
    await world.in_database(start_match, slot)
    await close_tabs(slot)
    world.record.replaced += 1
    await open_tabs(world, slot)


async def make_move(world: World, slot: Slot, tab: Tab, message: dict[str, Any], deadline: float) -> SentMove:
    move = SentMove(
        message["action_id"], slot.index, slot.match_id, tab.seat or 0, int(message["ply"]),
        time.perf_counter(), tab,
    )  # fmt: skip
    earlier = world.record.moves.get(move.action_id)
    if earlier is not None:
        # The page offered a button whose action id was sent already: the site will answer
        # it as that earlier move's duplicate, and this move is not played.
        world.record.reused_ids.append(
            f"match {slot.match_id} ({slot.kind} {slot.games.get(slot.match_id)}): an action id sent at ply "
            f"{earlier.ply} (acted as {earlier.acked_ply}) offered again on the board of ply {move.ply} "
            f"(tab {'the same' if earlier.mover is tab else 'another'})"
        )
        world.record.moves[f"{move.action_id}/{len(world.record.reused_ids)}"] = earlier
    world.record.moves[move.action_id] = move
    slot.last_move = move
    await tab.send(message)
    if not await wait_for(slot, lambda: move.settled(slot.has_opponent_tab), deadline):
        world.record.lost += 1
        missing = [
            name
            for name, value in (("acted", move.acted), ("the mover's board", move.own_board))
            if value is None
        ]
        if slot.has_opponent_tab and move.opponent_board is None:
            missing.append("the opponent's board")
        world.record.errors.append(
            f"match {slot.match_id} ({slot.kind}): a move at ply {move.ply}: no {' nor '.join(missing)} "
            f"within {SETTLE_SECONDS:.0f} s (tabs at plies {[tab.ply for tab in slot.tabs]})"
        )
        for behind in [tab, *(other for other in slot.tabs if other is not tab)]:
            if behind.ply <= move.ply:
                await behind.reload()
    elif move.refused is not None:
        await tab.send({"type": "refresh"})  # as the page does after an error
    return move


async def play_live(world: World, slot: Slot, interval: float, end: float) -> None:
    """A ``pvp`` or ``pvb`` slot: a move every ``interval`` seconds (at a random phase),
    a new match when one ends, until ``end`` (monotonic)."""
    due = time.monotonic() + slot.rng.uniform(0, interval)
    while True:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if time.monotonic() >= end or world.stopping:
            return
        if slot.finished:
            await replace_match(world, slot)
            due = time.monotonic() + slot.rng.uniform(0, interval)
            continue
        waited_until = min(end, time.monotonic() + SETTLE_SECONDS)
        if not await wait_for(slot, lambda: bool(_choices(slot)) or slot.finished, waited_until):
            if time.monotonic() >= end:
                return
            # Nothing to play for a minute: a push went missing (the board stayed), so
            # the players reload their pages, as people would.
            world.record.stuck.append(
                f"match {slot.match_id} ({slot.kind}): no board to move on for a minute"
            )
            for tab in slot.tabs:
                await tab.reload()
            continue
        choices = _choices(slot)
        if not choices:
            continue  # over: replaced above
        tab, message = slot.rng.choice(choices)
        move = await make_move(world, slot, tab, message, time.monotonic() + SETTLE_SECONDS)
        if slot.kind == "pvb" and move.acked_ply is not None and move.refused is None:
            await _time_bot_reply(world, slot, move)
        due = max(due + interval, time.monotonic())


def _choices(slot: Slot) -> list[tuple[Tab, dict[str, Any]]]:
    return [(tab, form) for tab in slot.tabs for form in tab.moves()]


async def _time_bot_reply(world: World, slot: Slot, move: SentMove) -> None:
    """When the move handed the turn to the bot: from ``act`` to the board after its reply."""
    assert move.acked_ply is not None
    if slot.finished or any(tab.moves() for tab in slot.tabs):
        return  # still the person's turn, or over
    after = move.acked_ply
    answered = await wait_for(
        slot, lambda: slot.latest > after or slot.finished, time.monotonic() + SETTLE_SECONDS
    )
    if answered and slot.latest > after:
        world.record.bot_reply_ms.append((time.perf_counter() - move.sent) * 1000)


async def play_nudged(world: World, slot: Slot, end: float) -> None:
    """A ``nudged`` slot: the person opens the match when an email says it is their turn
    (or that it is over, to start the next), moves, and leaves."""
    person = slot.people[0]
    while time.monotonic() < end and not world.stopping:
        try:
            kind, match_id = await asyncio.wait_for(
                slot.mail.get(), timeout=min(5.0, max(0.1, end - time.monotonic()))
            )
        except TimeoutError:
            continue
        if match_id != slot.match_id:
            continue
        if kind == "game_over":
            await replace_match(world, slot)
            continue
        if kind != "turn":
            continue
        await asyncio.sleep(slot.rng.uniform(0.5, 2.0))  # reading the email
        server = slot.rng.randrange(len(world.servers))
        tab = Tab(world, slot, person, server, slot.seats[person.user_id])
        if not await tab.open():
            continue
        slot.tabs = [tab]
        forms = tab.moves()
        for _ in range(10):  # the moves of one visit: until the turn passes to the bot
            if not forms or slot.finished or time.monotonic() >= end:
                break
            move = await make_move(
                world, slot, tab, slot.rng.choice(forms), time.monotonic() + SETTLE_SECONDS
            )
            world.record.nudged_moves += move.acted is not None
            # Looked at as the move's board arrives: the bot's reply is for the next email.
            forms = tab.moves()
            if move.refused is not None or move.acted is None:
                break
            await asyncio.sleep(slot.rng.uniform(0.3, 1.0))
        slot.tabs = []
        await tab.close()
        if slot.finished and time.monotonic() < end:
            await replace_match(world, slot)


# -- the mail they read ----------------------------------------------------------------------


def read_mail(mail: ReceivedMail) -> tuple[int, str, int | None] | str:
    """(user id, kind, match id) of a message the site sent, from its one-click
    unsubscribe link (signed: ``games/notify/tokens.py``) and its match link; or why not."""
    from django.core import signing

    from games.notify import tokens

    message = email.message_from_bytes(mail.raw)
    header = str(message.get("List-Unsubscribe", "")).strip("<> ")
    if "/unsubscribe/" not in header:
        return f"no unsubscribe link: {message.get('Subject')!r}"
    token = header.rstrip("/").rsplit("/", 1)[1]
    try:
        data = signing.loads(token, salt=tokens.SALT)
    except signing.BadSignature:
        return f"a link this site did not sign: {message.get('Subject')!r}"
    link = _MATCH_LINK.search(_text_of(message))
    return int(data["user"]), str(data["kind"]), int(link[1]) if link else None


def _text_of(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            return payload.decode() if isinstance(payload, bytes) else ""
    return ""


def mail_arrived(world: World, mail: ReceivedMail) -> None:
    """On the event loop's thread: note the message and tell the person it is for."""
    read = read_mail(mail)
    if isinstance(read, str):
        world.record.mail_unread.append(read)
        return
    user_id, kind, match_id = read
    world.record.mail.append((mail.at, user_id, kind, match_id))
    slot = world.people.get(user_id)
    if slot is not None and slot.kind == "nudged" and match_id is not None:
        slot.mail.put_nowait((kind, match_id))


# -- pages and the API --------------------------------------------------------------------------


def _pages(world: World, rng: random.Random) -> tuple[Viewer | None, str, dict[str, str]]:
    """A page someone loads now: (who, path, extra headers)."""
    slot = rng.choice(world.slots)
    person = rng.choice(slot.people)
    match_id = slot.match_id
    finished = rng.choice(slot.matches[:-1]) if len(slot.matches) > 1 else None
    roll = rng.random()
    if roll < 0.3:  # a visitor
        path = rng.choice([
            "/", "/play/", f"/play/{slot.game}/", f"/play/{slot.game}/how-to-play", f"/matches/{match_id}/",
            f"/matches/{match_id}/board", f"/players/{person.username}/", f"/play/{slot.game}/leaderboard",
            "/healthz", "/tournaments/",
        ])  # fmt: skip
        return None, path, {}
    if roll < 0.85 or person.api_token is None:  # the person, signed in
        pages = [
            "/", "/matches/", f"/matches/{match_id}/", f"/matches/{match_id}/board", "/history/",
            "/accounts/settings/", f"/players/{person.username}/",
        ]  # fmt: skip
        if finished is not None:  # a replay and an export are of a finished match
            pages += [f"/matches/{finished}/replay", f"/matches/{finished}/export.json"]
        return person, rng.choice(pages), {}
    path = rng.choice([f"/api/matches/{match_id}", "/api/history"])
    return None, path, {"Authorization": f"Bearer {person.api_token}"}


def _get(port: int, path: str, headers: dict[str, str], keep: int | None = 300) -> tuple[int, str]:
    """A GET's status and the start of its body (``keep`` characters; None: all of it)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        return response.status, body[:keep].decode(errors="replace")
    finally:
        connection.close()


async def load_pages(world: World, rate: float, end: float, seed: int) -> None:
    """GET requests at ``rate`` a second (Poisson), each from someone of the soak."""
    if rate <= 0:
        return
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="soak-http")
    pending: set[asyncio.Future[None]] = set()

    async def one() -> None:
        viewer, path, headers = _pages(world, rng)
        # Anonymous requests come from addresses of their own too (the rate limits read it).
        headers = {
            **headers,
            "X-Forwarded-For": viewer.address if viewer else address(900_000 + rng.randrange(5000)),
        }
        if viewer is not None and viewer.cookie:
            headers["Cookie"] = viewer.cookie
        server = world.servers[rng.randrange(len(world.servers))]
        started = time.perf_counter()
        try:
            status, body = await loop.run_in_executor(pool, _get, server.port, path, headers)
        except Exception as error:
            world.record.http_errors.append(f"GET {path}: {error!r}")
            return
        world.record.http_ms.append((time.perf_counter() - started) * 1000)
        world.record.http[status] += 1
        if status >= 500:
            world.record.http_5xx.append(f"{status} GET {path}: {body!r}")

    try:
        while time.monotonic() < end and not world.stopping:
            await asyncio.sleep(rng.expovariate(rate))
            if len(pending) < 16:
                task = asyncio.ensure_future(one())
                pending.add(task)
                task.add_done_callback(pending.discard)
        await asyncio.gather(*pending, return_exceptions=True)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


async def scrape_metrics(world: World, every: float, end: float) -> None:
    """``GET /metrics`` every ``every`` seconds from 127.0.0.1, as Prometheus on the host
    would: one Daphne answers for every process (``PROMETHEUS_MULTIPROC_DIR``)."""
    loop = asyncio.get_running_loop()
    while True:
        port = world.servers[len(world.record.scrapes) % len(world.servers)].port
        started = time.perf_counter()
        try:
            status, text = await loop.run_in_executor(None, _get, port, "/metrics", {}, None)
        except Exception as error:
            world.record.http_errors.append(f"GET /metrics: {error!r}")
        else:
            world.record.http[status] += 1
            world.record.http_ms.append((time.perf_counter() - started) * 1000)
            if status == 200:
                world.record.scrapes.append((time.monotonic(), text))
            elif status >= 500:
                world.record.http_5xx.append(f"{status} GET /metrics: {text[:120]!r}")
        if time.monotonic() >= end or world.stopping:
            return
        await asyncio.sleep(min(every, max(0.0, end - time.monotonic())))


def current_plies(match_ids: list[int]) -> dict[int, int]:
    from games.models import Match

    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "ply"))


async def find_stale_tabs(world: World, quiet_seconds: float) -> None:
    """Once play has stopped: every open tab shows its match's latest ply (a board the
    socket never pushed leaves its page behind until the next change, or a reload). The
    plies are read first and the tabs looked at ``quiet_seconds`` later, so a board still
    on its way, or a move made meanwhile (a bot's, the autopilot's), is not counted."""
    await asyncio.sleep(quiet_seconds)
    plies = await world.in_database(current_plies, [slot.match_id for slot in world.slots])
    await asyncio.sleep(quiet_seconds)
    world.record.stale_tabs = [
        f"match {tab.match_id} ({slot.kind}): a {'player' if tab.seat is not None else 'watcher'} on "
        f"Daphne {tab.server_index + 1} shows ply {tab.ply}, the match was at {plies[tab.match_id]}"
        for slot in world.slots
        for tab in slot.tabs + slot.watcher_tabs
        if tab.match_id in plies and tab.ply < plies[tab.match_id]
    ]
