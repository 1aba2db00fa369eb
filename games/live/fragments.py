"""HTML fragments shared by the match page, its board URL and the match socket.

``live_html`` is the part of the match page that changes as the game goes on
(players, the board, the log, the buttons): the page renders it once and the
socket pushes it again, re-rendered for each viewer, after every change.

After a move it is drawn where the move was stored, once per kind of viewer looking
(``viewer_kind``: each seat, the spectators), and pushed to each kind's sockets
(``push.py``). After any other change (a seat taken or left, a start, a resignation,
a clock) the sockets read the match again: a ``LivePicture``, one read of the match
(its row with the state, its seats, who has it open) from which every socket of a
process that one doorbell rang takes its board, again drawn once per kind of viewer,
never once per socket. The live part is the same in every time zone (a paused clock's
date is its player's own: ``templatetags/turn_clocks.py``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from accounts.models import User
from games.boards import score_in_words
from games.engine import get
from games.feature_links import player_pages
from games.live import presence
from games.models import ChatMessage, Match, Seat
from games.selectors import Access, access_to, board_for, seat_names
from games.services.chat import silenced


def chat_closed(access: Access, view: dict[str, Any] | None = None) -> bool:
    """Whether the viewer's seat may not write in the chat now, by the rule the chat
    service refuses by (``services.chat.silenced``): the page shows the reason instead
    of a box whose every message would be refused. ``view``: the seat's view, when the
    caller has it already."""
    seat = access.seat_index
    if seat is None or access.match.status != Match.Status.RUNNING:
        return False
    if view is None:
        view = access.match.engine.view(access.match.decoded_state(), seat)
    return silenced(view, seat)


def online_seats(match_id: int, seats: list[Seat] | None = None) -> list[int]:
    """The seats whose person has the match open now (``presence``, in Redis),
    in seat order. ``seats``: the match's seats when the caller has them; else one query,
    and none when nobody is there."""
    here = presence.connected(match_id)
    if not here:
        return []
    if seats is None:
        seats = list(Seat.objects.filter(match_id=match_id, user_id__in=here).order_by("index"))
    return [seat.index for seat in seats if seat.user_id in here]


def online_for(access: Access, present: set[int] | None = None) -> set[int]:
    """The seats shown as online to this viewer: those whose person has the match open
    now, and the viewer's own, since they are looking at it (so the page, drawn before
    its socket opens, says what the socket's first board says). ``present``: the ids of
    the people with the match open, when the caller has read them (games/live/presence.py)."""
    if present is None:
        online = set(online_seats(access.match.pk, access.seats))
    else:
        online = {seat.index for seat in access.seats if seat.user_id in present}
    if access.my_seat is not None:
        online.add(access.my_seat.index)
    return online


def live_html(
    access: Access, *, request: HttpRequest | None = None, online: set[int] | None = None, state: Any = None
) -> str:
    """The live part of the match page for one viewer (``request`` adds CSRF tokens to its
    forms; ``online``: the seats to show as online, when the caller has read them;
    ``state``: the match's state, when the caller has decoded it)."""
    board = board_for(access, state=state)
    if online is None:
        online = online_for(access)
    # Where each person's name links (settings.PLAYER_PAGES: their profile), asked once
    # per drawing, not by the template for each seat.
    pages = player_pages(seat.user for seat in access.seats)
    is_running = access.match.status == Match.Status.RUNNING
    game = get(access.match.game)
    players = [
        {
            "seat": seat,
            "name": name,
            "page": pages.get(seat.user.pk) if seat.user is not None else None,
            "owes": board is not None and seat.index in board.to_act and is_running,
            # Bots have no dot: they are always there. An invited person may have the page open too.
            "person": seat.user is not None and not seat.user.is_bot,
            "online": seat.index in online,
            "is_me": access.my_seat is not None and access.my_seat.index == seat.index,
            "score_words": score_in_words(game, seat.score) if seat.score is not None else "",
        }
        for seat, name in zip(access.seats, seat_names(access.seats), strict=True)
    ]
    # The page's CSRF token (none over the socket), under the names Django's Jinja2 backend
    # gives it, taken once: the backend's own would mask it again for every button.
    token = get_token(request) if request is not None else ""
    csrf_input = (
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token) if token else ""
    )
    context = {
        "match": access.match,
        "access": access,
        "board": board,
        "players": players,
        # One way of naming seats in words, the boards' own: "Ann", "Ann and Bob", "Ann, Bob and Carl".
        "waiting_for": board.names_text(board.to_act) if board is not None else "",
        # Built on every push for every viewer: the log is computed once here, not per use.
        "log": board.log if board is not None else [],
        # Whether the chat box is closed follows the game (it opens again when the match
        # ends): the page's script reads it from each pushed board.
        "chat_closed": chat_closed(access, board.view if board is not None else None),
        "match_id": access.match.pk,
        # The viewer, explicitly: over the socket there is no request, and the template
        # must not take a signed-in person for a stranger ("Log in to join").
        "user": access.viewer if access.viewer is not None else AnonymousUser(),
        # Where every action button posts (looked up once: a board has up to hundreds).
        "act_url": reverse("match_act", args=[access.match.pk]),
        "csrf_token": token,
        "csrf_input": csrf_input,
    }
    # A Jinja2 template (boomsite/jinja2.py): drawn after every move for each kind of viewer.
    # Escaped as it was drawn, so safe in a Django page (Django's Jinja2 backend returns str).
    return mark_safe(render_to_string("games/_match_live.html", context, using="jinja2"))


def chat_html(message: ChatMessage) -> str:
    return render_to_string("games/_chat_message.html", {"message": message})


# -- one read of a match for all its sockets in a process ----------------------------


SEAT_KIND_PREFIX = "seat-"
WATCHER_KINDS = ("watch-in", "watch-out", "watch-in-invited", "watch-out-invited")


def viewer_kind(access: Access) -> str:
    """What the live part depends on besides the read: who the viewer is at the table.
    A seated or invited person by their seat (the seat's view, its buttons, "you", its
    own online dot): ``seat-<index>``. Everyone else as a watcher, signed in or not (join
    or log in: ``watch-in``, ``watch-out``) and with or without the match's invitation
    link (``-invited``, whose join form carries it). Two viewers of one kind see the
    same live part; a seat's never goes to anyone else. (Two tabs of one seat so get the
    same action ids: the same button pressed in both plays once, the second answered
    as the duplicate it is.) A name a channel-layer group may hold (``broadcast.py``)."""
    if access.my_seat is not None:
        return f"{SEAT_KIND_PREFIX}{access.my_seat.index}"
    signed_in = access.viewer is not None and access.viewer.is_authenticated
    return f"watch-{'in' if signed_in else 'out'}{'-invited' if access.invite is not None else ''}"


# Whom a signed-in watcher's live part is drawn for where the move is stored, with no
# person at hand: it shows nothing of the person but that they are signed in (the join
# form instead of "Log in"). An unsaved account, so nothing can be read through it.
A_SIGNED_IN_WATCHER = User(username="a-signed-in-watcher")


def access_for_kind(match: Match, seats: list[Seat], kind: str) -> Access | None:
    """The access a viewer of ``kind`` has to the match (its seats with their users),
    for drawing that kind's live part with nobody of the kind at hand; None for a kind
    the match has nobody as (a seat no longer taken, a name not a kind's). Whether a
    viewer may see the match at all was decided for each of them when their socket
    connected, and again at every change of seat."""
    if kind.startswith(SEAT_KIND_PREFIX):
        index = kind.removeprefix(SEAT_KIND_PREFIX)
        seat = next((seat for seat in seats if str(seat.index) == index), None)
        if seat is None or seat.user is None:
            return None
        return Access(match=match, seats=seats, my_seat=seat, viewer=seat.user)
    if kind not in WATCHER_KINDS:
        return None
    viewer: User | AnonymousUser = A_SIGNED_IN_WATCHER if kind.startswith("watch-in") else AnonymousUser()
    invite = match.invite_token if kind.endswith("-invited") else None
    return Access(match=match, seats=seats, my_seat=None, invite=invite, viewer=viewer)


@dataclass
class LivePicture:
    """One read of a match for its live part: the row with its state, the seats with
    their users, and the ids of the people who have it open (``games/live/presence.py``).

    Sockets in several threads take their boards from one picture at once: the state
    is decoded once, as it is read (states are immutable), and each kind of viewer's
    live part rendered once, under a lock of its own. A render for one seat is stored
    and looked up under that seat's kind only. A picture serves the sockets answering
    one doorbell, within seconds: a running clock's words ("2:14 left") are then at most
    that old, and ``static/js/countdown.js`` rewrites them every second anyway."""

    match: Match
    seats: list[Seat]
    present: set[int]
    state: Any  # decoded; None before the match starts
    _renders: dict[str, str] = field(default_factory=dict)
    _render_locks: dict[str, threading.Lock] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def ply(self) -> int:
        return self.match.ply

    def access_for(self, user: User | AnonymousUser, *, invite: str | None = None) -> Access:
        """What ``user`` may see of the match in this read (``selectors.access``'s rules); raises ``NotVisible``."""
        return access_to(self.match, self.seats, user, invite=invite)

    def online_for(self, access: Access) -> set[int]:
        return online_for(access, self.present)

    def live_html(self, access: Access) -> str:
        """The live part for ``access``'s viewer: rendered by the first viewer of its
        kind to ask, then the same text for the others."""
        key = viewer_kind(access)
        with self._lock:
            if key in self._renders:
                return self._renders[key]
            render_lock = self._render_locks.setdefault(key, threading.Lock())
        with render_lock:  # a second viewer of this kind waits for the first's render
            if key not in self._renders:
                html = live_html(access, online=self.online_for(access), state=self.state)
                with self._lock:
                    self._renders[key] = html
            return self._renders[key]


def read_live_picture(match_id: int) -> LivePicture | None:
    """A new read of the match for its live part (two queries and one read of Redis), or
    None when there is no such match."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    seats = list(match.seats.select_related("user"))
    present = presence.connected(match_id) if any(seat.user_id is not None for seat in seats) else set()
    state = match.decoded_state() if match.state is not None else None
    return LivePicture(match=match, seats=seats, present=present, state=state)


@dataclass
class _SharedRead:
    started: float
    takers_left: int  # sockets of the process still to take it
    ready: threading.Event = field(default_factory=threading.Event)
    picture: LivePicture | None = None
    failed: bool = False


class PicturesByDoorbell:
    """The pictures of the doorbells (``match.updated``, ``games/live/broadcast.py``) that a
    process's sockets are answering: the first socket a doorbell reaches reads the
    match, the process's other sockets on it take that picture, waiting for it if need be.

    Sound because a doorbell rings after its change committed: a read begun after any
    socket received it shows that change, and maybe later ones, as each socket's own
    read would have. (A socket that answered an earlier doorbell late, with a read that
    already showed this one's change, may get an older picture: ``MatchConsumer`` sends
    none of an older ply, and the doorbells of the changes in between are on their way.)

    A picture is let go once as many sockets took it as the match had in the process
    when it was read, or after ``KEEP_SECONDS`` (a socket closed meanwhile): the
    process holds the pictures of the doorbells being answered, not of every match."""

    KEEP_SECONDS = 5.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._reads: dict[tuple[int, str], _SharedRead] = {}

    def picture(self, match_id: int, ring: str, *, sockets: int) -> LivePicture | None:
        """The picture of doorbell ``ring`` on ``match_id`` (None: no such match);
        ``sockets``: how many sockets of this process are on the match. Blocks: call it
        in a thread (games/live/socket_db.py)."""
        key, now = (match_id, ring), self._clock()
        with self._lock:
            shared = self._reads.get(key)
            reader = shared is None
            if shared is None:
                self._let_go_of_old(now)
                shared = self._reads[key] = _SharedRead(started=now, takers_left=sockets)
            shared.takers_left -= 1
            if shared.takers_left <= 0:
                del self._reads[key]
        if reader:
            try:
                shared.picture = read_live_picture(match_id)
            except BaseException:
                shared.failed = True  # the others read for themselves; this one's error goes up
                raise
            finally:
                shared.ready.set()
            return shared.picture
        shared.ready.wait()
        return read_live_picture(match_id) if shared.failed else shared.picture

    def held(self) -> int:
        """How many pictures are kept for sockets still to take them."""
        with self._lock:
            return len(self._reads)

    def _let_go_of_old(self, now: float) -> None:
        for key in [key for key, shared in self._reads.items() if now - shared.started > self.KEEP_SECONDS]:
            del self._reads[key]


# The process's own, for all its match sockets.
DOORBELL_PICTURES = PicturesByDoorbell()
