"""The site's WebSockets: the match socket (``/ws/matches/<id>/``: moves and chat up,
boards down) and the per-person socket (``/ws/me/``: the count of matches waiting for
a signed-in person, on every page).

A match socket shows the match to one kind of viewer (``fragments.viewer_kind``: a
seat, or a kind of watcher), decided from its viewer's access when it connects and
again whenever it reads the match. It is in two groups: the match's, for doorbells,
chat and presence, and its kind's (``broadcast.viewer_group``), which a move's boards
are pushed to, drawn once per kind where the move was stored (``push.py``): a move
costs a socket no read. It shows a pushed board only if the board's kind is its own
and its ply newer than the board it shows. On a doorbell (any change but a move: one
that may change who the viewer is) it reads the match again (one read per ring per
process, shared by its sockets on the match: ``fragments.PicturesByDoorbell``) and,
should its viewer's kind have changed, moves to the new kind's group first. So a
board drawn from a seat's view goes to that seat's sockets only. Moves go through the
same service as a form post or the API.

An async consumer, on purpose and against the Channels default: a sync consumer
blocks a worker thread in ``async_to_sync`` during ``disconnect``, and when Daphne
shuts down with sockets open its event loop is gone, so that thread waits forever
and the process never exits (seen in tests/boomsite/test_scale_out.py). Database
work runs on the sockets' own threads (``games/live/socket_db.py``), not on asgiref's one.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import OperationalError
from django.utils import timezone

from accounts.sessions import CLOSE_SIGNED_OUT, session_tag, signed_in_user, user_group
from boomsite import metrics
from games import blocks, selectors, services
from games.errors import API_ONLY_MESSAGE, BUSY_MESSAGE, ErrorCode, is_pool_exhausted
from games.inputs import BadInput, parse_json
from games.live import presence
from games.live.broadcast import match_group, person_group, viewer_group
from games.live.fragments import DOORBELL_PICTURES, chat_html, online_seats, read_live_picture, viewer_kind
from games.live.socket_db import socket_db
from games.live.socket_limits import REGISTRY
from games.models import ChatMessage
from games.services import SubmitResult

# A socket may send this many messages at once, refilled at RATE_PER_SECOND: above
# the pace of a quick player clicking through forced moves, far below a flood. A
# socket that keeps flooding is closed.
BURST = 30
RATE_PER_SECOND = 10.0
STRIKES_BEFORE_CLOSE = 20
MAX_MESSAGE_BYTES = 16 * 1024

# A move reads the session again at most this often: a logout, a password change and a
# deactivation close the socket at once (``session_check``, ``session_ended``); this
# catches a session that ended without a word (expired, deleted by hand).
SESSION_RECHECK_SECONDS = 60.0

CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4029
CLOSE_TOO_MANY = 4008


class SiteSocket(AsyncJsonWebsocketConsumer):
    """What the site's sockets share: the rate limit and the checks on every message, the
    errors they answer, and following the session they were opened with
    (``accounts/sessions.py``). A socket of a signed-in person sets ``session_key`` and
    joins ``user_group``, whose events arrive at ``session_check`` and ``session_ended``."""

    user: Any
    session_key: str | None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels dispatches, less the hop to asgiref's thread that it makes before
        every message to close that thread's old connections: these sockets do their
        database work on threads of their own, which look after theirs (games/live/socket_db.py)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except OperationalError as error:
            # Every connection of the process's pool stayed in use too long: the
            # socket says so and stays open (nothing was written), as HTTP answers 503.
            # While it connects, it is closed to try again later instead
            # (boomsite/busy_sockets.py, around every socket).
            if not is_pool_exhausted(error) or message["type"] == "websocket.connect":
                raise
            await self._error(ErrorCode.BUSY, BUSY_MESSAGE)

    def _start_limits(self) -> None:
        self.tokens = float(BURST)
        self.refilled_at = time.monotonic()
        self.strikes = 0

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._take_token():
            self.strikes += 1
            if self.strikes >= STRIKES_BEFORE_CLOSE:
                await self.close(code=CLOSE_FLOODING)
                return
            await self._error(ErrorCode.RATE_LIMITED, "Slow down: too many messages.")
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self._error(ErrorCode.MALFORMED_MESSAGE, "Messages are JSON text of at most 16 KB.")
            return
        try:
            content = parse_json(text_data)
        except BadInput as error:
            await self._error(ErrorCode.MALFORMED_MESSAGE, str(error))
            return
        await self.receive_json(content)

    async def session_check(self, event: dict[str, Any]) -> None:
        """The account changed (password, active flag): close unless still signed in."""
        if not await self._session_still_signs_in():
            await self._signed_out()

    async def session_ended(self, event: dict[str, Any]) -> None:
        """A logout: close if it was this socket's session."""
        if event["session"] == session_tag(self.session_key):
            await self._signed_out()

    def _client_key(self) -> str:
        """Who opened the socket, for the caps and for presence (one person however many
        tabs): the person, or else the address (behind TRUSTED_PROXIES, the client's:
        boomsite/client_address.py)."""
        if self._is_signed_in():
            return f"user:{self.user.pk}"
        client = self.scope.get("client") or ("unknown", 0)
        return f"address:{client[0]}"

    def _is_signed_in(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    async def _session_still_signs_in(self) -> bool:
        return await socket_db(self._signs_in_still)()

    def _signs_in_still(self) -> bool:
        """The socket's session, read afresh, still signs in the user it opened with."""
        user = signed_in_user(getattr(self, "session_key", None))
        return user is not None and user.pk == self.user.pk

    async def _signed_out(self, *, action_id: str | None = None) -> None:
        await self._error(
            ErrorCode.SIGNED_OUT, "You are signed out here: reload the page to go on.", action_id=action_id
        )
        await self.close(code=CLOSE_SIGNED_OUT)

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.refilled_at) * RATE_PER_SECOND)
        self.refilled_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def _error(self, code: str, message: str, *, action_id: str | None = None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "action_id": action_id})


class MatchConsumer(SiteSocket):
    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        self._start_limits()
        # The seats whose online dots this socket's page shows (set by each board it sends).
        self.told_online: set[int] | None = None
        self.own_seat: set[int] = set()  # the viewer's seat, always shown online to them
        self.shown_ply = -1  # the ply of the last board sent
        try:
            self.who, self.kind = await socket_db(self._who_and_kind)()
        except selectors.NotVisible:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        # Caps per client and per match (games/live/socket_limits.py): counted before the
        # socket joins anything, and counted out in disconnect.
        self.client = self._client_key()
        refusal = REGISTRY.open(client=self.client, match_id=self.match_id)
        if refusal is not None:
            await self.accept()
            await self._error(ErrorCode.TOO_MANY_SOCKETS, f"Too many open connections: {refusal}.")
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.counted = True
        metrics.socket_opened(metrics.SocketKind.MATCH)
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(viewer_group(self.match_id, self.kind), self.channel_name)
        if self._is_signed_in():
            # The socket follows its session: a logout, a password change or a
            # deactivation closes it (accounts/sessions.py).
            self.session_key = self.scope["session"].session_key
            self.session_checked_at = time.time()  # by the handshake, just now
            self.user_group = user_group(self.user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()
        # Recorded in Redis for every process, and kept fresh while the socket is open
        # (games/live/presence.py): its kind, for a move's push to draw it; its person,
        # for the nudge decision and the online dots. Before the first board is read: a
        # move whose push missed the kind committed before that read, which shows it.
        await presence.record(self.match_id, self.channel_name, self.kind, self._user_id())
        await self._mark_seen()
        self.keep_present = asyncio.create_task(self._keep_present())
        if REGISTRY.viewer_arrived(viewer=self.client, match_id=self.match_id):
            await self._announce(online=True)
        await self._send_board()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            REGISTRY.close(client=self.client, match_id=self.match_id)
            metrics.socket_closed(metrics.SocketKind.MATCH)
        # Forgotten before the departure is announced, so the announcement's online seats leave it out.
        if hasattr(self, "keep_present"):
            self.keep_present.cancel()
            await presence.forget(self.match_id, self.channel_name, self.kind, self._user_id())
        if hasattr(self, "group"):
            if REGISTRY.viewer_left(viewer=self.client, match_id=self.match_id):
                await self._announce(online=False)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(viewer_group(self.match_id, self.kind), self.channel_name)
        if hasattr(self, "user_group"):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)

    async def _keep_present(self) -> None:
        while True:
            await asyncio.sleep(presence.REFRESH_SECONDS)
            await presence.record(self.match_id, self.channel_name, self.kind, self._user_id())
            await self._mark_seen()

    async def _mark_seen(self) -> None:
        """A person with a match open is on the site (``presence.online_among``)."""
        if (user_id := self._user_id()) is not None:
            await presence.mark_seen_async(user_id)

    def _user_id(self) -> int | None:
        return self.user.pk if self._is_signed_in() else None

    # -- from the browser (through SiteSocket.receive) ---------------------------

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind in ("hello", "refresh"):
            await self._send_board()
        elif kind == "act":
            await self._act(content)
        elif kind == "chat":
            await self._chat(content)
        else:
            await self._error(ErrorCode.UNKNOWN_MESSAGE, "Unknown message type.")

    async def _act(self, content: dict[str, Any]) -> None:
        action_id = content.get("action_id")
        echo = action_id if isinstance(action_id, str) and len(action_id) <= 64 else None
        if not self._is_signed_in():
            await self._error(ErrorCode.LOGIN_REQUIRED, "Log in to play.", action_id=echo)
            return
        if self.user.is_program_bot:
            await self._error(ErrorCode.API_ONLY, API_ONLY_MESSAGE, action_id=echo)
            return
        try:
            result = await socket_db(self._move, writes=True)(
                content.get("action"), content.get("ply"), action_id
            )
        except services.MatchError as error:
            await self._error(error.code, str(error), action_id=echo)
            return
        if result is None:
            await self._signed_out(action_id=echo)
            return
        await self.send_json(
            {"type": "acted", "ply": result.ply, "action_id": echo, "duplicate": result.duplicate}
        )

    def _move(self, action: Any, ply: Any, action_id: Any) -> SubmitResult | None:
        """The move, if the session still signs in (None otherwise): read again when it
        was last read ``SESSION_RECHECK_SECONDS`` ago (one call to the database's thread
        for both)."""
        if time.time() - self.session_checked_at >= SESSION_RECHECK_SECONDS:
            if not self._signs_in_still():
                return None
            self.session_checked_at = time.time()
        return services.match_submit_action(
            match_id=self.match_id, user=self.user, action=action, ply=ply, action_id=action_id
        )

    async def _chat(self, content: dict[str, Any]) -> None:
        if not self._is_signed_in():
            await self._error(ErrorCode.LOGIN_REQUIRED, "Log in to chat.")
            return
        if not await self._session_still_signs_in():
            await self._signed_out()
            return
        try:
            await socket_db(services.chat_post, writes=True)(
                match_id=self.match_id, user=self.user, text=content.get("text")
            )
        except services.MatchError as error:
            await self._error(error.code, str(error))
            return
        await self.send_json({"type": "chatted"})

    # -- channel layer events ------------------------------------------------------

    async def match_updated(self, event: dict[str, Any]) -> None:
        # A ring from a process of an older release has no name: this socket reads alone.
        ring = event.get("ring")
        committed_at = event.get("committed_at")
        await self._send_board(
            ring=ring if isinstance(ring, str) else None,
            committed_at=committed_at if isinstance(committed_at, float) else None,
        )

    async def match_pushed(self, event: dict[str, Any]) -> None:
        """A move's board, drawn for one kind of viewer where it was stored (``push.py``).
        Shown only if it is this socket's kind (a socket between groups, as its viewer's
        kind changes, may still get the old kind's) and newer than the board shown: a
        board read afresh since (a doorbell's, at the same ply) is never replaced by an
        older drawing of that ply."""
        if event.get("kind") != self.kind or not isinstance(event.get("ply"), int):
            return
        if event["ply"] <= self.shown_ply:
            return
        self.shown_ply = event["ply"]
        self.told_online = set(event["online"])
        await self.send_json({"type": "board", "ply": event["ply"], "html": event["html"]})
        committed_at = event.get("committed_at")
        if isinstance(committed_at, float):
            metrics.observe_push(committed_at)

    async def match_chat(self, event: dict[str, Any]) -> None:
        html = await socket_db(self._chat_html)(event["message_id"])
        if html is not None:
            await self.send_json({"type": "chat", "id": event["message_id"], "html": html})

    async def match_presence(self, event: dict[str, Any]) -> None:
        if event["sender"] == self.channel_name:
            return  # its own arrival: its board, sent next, shows it
        await self.send_json({"type": "presence", "online": event["online"], "who": event["who"]})
        # The online dots, from the seats the sender read after its change, when they
        # differ from what this page shows (a spectator coming or going changes none).
        # An announcement without seats (from a process of an older release) changes none.
        if "seats" not in event or self.told_online is None:
            return
        online = set(event["seats"]) | self.own_seat
        if online != self.told_online:
            self.told_online = online
            await self.send_json({"type": "online", "seats": sorted(online)})

    # -- helpers -----------------------------------------------------------------------

    def _invite(self) -> str | None:
        """The invitation token of a private match's link, passed on by the page (``?invite=``)."""
        values = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("invite")
        return values[0] if values else None

    def _viewer_zone(self) -> str:
        return getattr(self.user, "time_zone", None) or "UTC"

    def _board(self, ring: str | None, sockets: int) -> tuple[int, str | None, str, str] | None:
        """(ply, the live part, the viewer's kind, their name to the match's others) for
        this socket's viewer; the live part None when the socket shows a newer board
        already, or when the viewer's kind is no longer the socket's (it moves to the new
        kind's group, then reads again). None: the viewer may not see the match.

        ``ring``: the doorbell being answered, whose read the process's ``sockets`` on
        the match share; None for a read of this socket's own (on opening, on request)."""
        if ring is None:
            picture = read_live_picture(self.match_id)
        else:
            picture = DOORBELL_PICTURES.picture(self.match_id, ring, sockets=sockets)
        if picture is None:
            return None
        try:
            access = picture.access_for(self.user, invite=self._invite())
        except selectors.NotVisible:
            return None
        kind, who = viewer_kind(access), self._name_of(access)
        if kind != self.kind:
            return picture.ply, None, kind, who
        if picture.ply < self.shown_ply:
            return picture.ply, None, kind, who  # the page would not show it (static/js/match.js)
        online = picture.online_for(access)
        # What the page shows from now on: presence events send only a change to it.
        self.own_seat = {access.my_seat.index} if access.my_seat is not None else set()
        self.told_online = online
        self.shown_ply = picture.ply
        return picture.ply, picture.live_html(access), kind, who

    def _chat_html(self, message_id: int) -> str | None:
        message = (
            ChatMessage.objects.select_related("user").filter(pk=message_id, match_id=self.match_id).first()
        )
        if message is None:
            return None
        # A line is not shown to someone its author blocked or was blocked by
        # (games/blocks.py): asked per line, so a block made mid-match holds at once.
        if (
            self._is_signed_in()
            and message.user_id != self.user.pk
            and message.user_id in blocks.blocked_with(self.user.pk)
        ):
            return None
        with timezone.override(self._viewer_zone()):
            return chat_html(message)

    async def _send_board(self, *, ring: str | None = None, committed_at: float | None = None) -> None:
        """``committed_at``: the commit a doorbell rang for, from which the push is timed."""
        board = await socket_db(self._board)(ring, REGISTRY.sockets_on(self.match_id))
        for _ in range(3):  # the viewer's kind changed: into its group, and read again
            if board is None or board[2] == self.kind:
                break
            await self._become(board[2], board[3])
            board = await socket_db(self._board)(None, REGISTRY.sockets_on(self.match_id))
        if board is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        ply, html, _, _ = board
        if html is not None:
            await self.send_json({"type": "board", "ply": ply, "html": html})
            if committed_at is not None:
                metrics.observe_push(committed_at)

    def _who_and_kind(self) -> tuple[str, str]:
        """Who this socket is to the match's others, and the kind of viewer it shows the
        match to. Raises ``NotVisible`` for a match the viewer may not see."""
        access = selectors.access(self.match_id, self.user, invite=self._invite(), with_state=False)
        return self._name_of(access), viewer_kind(access)

    def _name_of(self, access: selectors.Access) -> str:
        """A player by their seat's name, which a rename mid-game does not change."""
        if access.my_seat is not None:
            return access.my_seat.public_name
        return self.user.public_name if self._is_signed_in() else "A spectator"

    async def _become(self, kind: str, who: str) -> None:
        """The viewer is now of ``kind`` (a seat taken, left, declined or given): the
        socket leaves its old kind's group for the new one's, and says so in Redis, before
        it reads the board it shows next (as on connect)."""
        old = self.kind
        await self.channel_layer.group_add(viewer_group(self.match_id, kind), self.channel_name)
        self.kind, self.who = kind, who
        await self.channel_layer.group_discard(viewer_group(self.match_id, old), self.channel_name)
        await presence.forget(self.match_id, self.channel_name, old, None)
        await presence.record(self.match_id, self.channel_name, kind, self._user_id())

    async def _announce(self, *, online: bool) -> None:
        # Who is online now, read once here for every socket of the match (seat numbers
        # only: the dots are public to whoever sees the players list).
        seats = await socket_db(online_seats)(self.match_id)
        await self.channel_layer.group_send(
            self.group,
            {
                "type": "match.presence",
                "online": online,
                "who": self.who,
                "sender": self.channel_name,
                "seats": seats,
            },
        )


class MeConsumer(SiteSocket):
    """The per-person socket (``/ws/me/``), one per open page of a signed-in person: how
    many matches wait for them (their turn, or an invitation to answer), pushed as
    ``{"type": "badge", "count": n}`` when it opens and whenever the count changes.

    The services' after-commit effects ring ``person_group`` when a match a person plays
    changes (games/effects.py); the ring carries nothing, and this socket counts again
    from the database, so it never shows what its person may not know. It follows its
    session as the match socket does, and has a cap of its own per client
    (games/live/socket_limits.py)."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self._start_limits()
        self.told: int | None = None  # the count this socket's page shows
        await self.accept()
        if not self._is_signed_in():
            # A signed-out page opens none; one that comes anyway is told why, and the
            # close code keeps its page from trying again.
            await self._error(ErrorCode.LOGIN_REQUIRED, "Log in to see the matches waiting for you.")
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.client = self._client_key()
        refusal = REGISTRY.open_personal(client=self.client)
        if refusal is not None:
            await self._error(ErrorCode.TOO_MANY_SOCKETS, f"Too many open connections: {refusal}.")
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.counted = True
        metrics.socket_opened(metrics.SocketKind.PERSONAL)
        self.session_key = self.scope["session"].session_key
        # Joined before the first count is read, so no change falls between the two.
        self.joined = [person_group(self.user.pk), user_group(self.user.pk)]
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self._send_count(always=True)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            REGISTRY.close_personal(client=self.client)
            metrics.socket_closed(metrics.SocketKind.PERSONAL)
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "refresh":
            # Asked by the page: the session is read again first, as before a move.
            if not await self._session_still_signs_in():
                await self._signed_out()
                return
            await self._send_count(always=True)
        else:
            await self._error(
                ErrorCode.UNKNOWN_MESSAGE, "Unknown message type: this socket takes ping and refresh."
            )

    async def matches_changed(self, event: dict[str, Any]) -> None:
        await self._send_count()

    async def _send_count(self, *, always: bool = False) -> None:
        count = await socket_db(selectors.waiting_for_me_count)(self.user)
        if always or count != self.told:
            self.told = count
            await self.send_json({"type": "badge", "count": count})
