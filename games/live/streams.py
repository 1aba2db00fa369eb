"""Streams for programs (docs/api.md, "Streams"): newline-delimited JSON over one
long-lived HTTP response, authenticated by the API's token.

- ``/api/stream/events`` (``EventStream``): what waits for the token's person as it
  opens (invitations, running matches, turns), then each change as it happens
  (``stream_events.py``). It wakes on the person's doorbell, the one that keeps their
  badge live (``broadcast.person_group``, rung after every change to a match they sit
  or are invited at).
- ``/api/matches/<id>/stream`` (``MatchStream``): the match as ``GET /api/matches/<id>``
  shows it to the token's person, as it opens and after every change, each chat line,
  and its end. It wakes on the match's streams' doorbell (``broadcast.stream_group``:
  a ply or a message id, never a view) and reads that person's view itself, one seat's
  view from the match as stored: nothing drawn for another viewer crosses it.

A ring carries nothing a stream shows, so a stream that misses one (its read failed
for want of a database connection) reads again at its next keep-alive, and a client
that reconnects gets the current state first. Every stream sends an empty line every
``API_STREAM_KEEPALIVE_SECONDS`` (so proxies keep the connection, and a client knows
it is alive), checks its token again at least every ``TOKEN_RECHECK_SECONDS`` and at
once when the account changes (``accounts.sessions``: a revoked token, a deactivation),
and is counted per token (``socket_limits``).

Consumers of Channels' HTTP kind, async, with their database work on the sockets'
threads (``socket_db.py``) as the match socket's; Channels' ``AsyncHttpConsumer``
ends its consumer when ``handle`` returns, so ``http_request`` here is its own and
the consumer lives on, taking channel-layer messages, until the stream ends or the
client goes.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from typing import Any, ClassVar

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import OperationalError
from django.http import HttpRequest, JsonResponse

from accounts.models import User
from accounts.services import api_token_user
from accounts.sessions import user_group
from boomsite import metrics, rate_limit
from games import blocks, selectors
from games.api import READ, bearer_secret, error_response, token_caller
from games.errors import BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, ErrorCode, is_pool_exhausted
from games.live.broadcast import person_group, stream_group
from games.live.socket_db import socket_db
from games.live.socket_limits import REGISTRY
from games.live.stream_events import Told, read_mine
from games.live.stream_lines import EventStreamLine, MatchStreamLine
from games.models import ChatMessage, Match
from games.openapi import endpoint

logger = logging.getLogger(__name__)

# A revoked token or a deactivated account ends its streams at once (``session.check``);
# this catches what changed without a word (a token deleted by hand).
TOKEN_RECHECK_SECONDS = 60.0

NDJSON_HEADERS = [
    (b"content-type", b"application/x-ndjson; charset=utf-8"),
    # One person's view of their matches: never stored by anything on the way.
    (b"cache-control", b"private, no-store"),
    # nginx passes each line on as it comes (deploy/nginx/boomsite.conf turns its
    # buffering off for every request; this says so for the stream itself).
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


class ProgramStream(AsyncHttpConsumer):
    """What both streams share: the token, the limit, the keep-alive, the end."""

    kind: ClassVar[str]  # "events" or "match": the limit's (socket_limits.STREAMS_PER_TOKEN)
    metric: ClassVar[metrics.SocketKind]  # its count in /metrics (boomsite_sockets_open)
    user: User
    groups: list[str]

    # -- opening -----------------------------------------------------------------------

    async def http_request(self, message: dict[str, Any]) -> None:
        if message.get("more_body"):
            return  # a GET has no body worth reading: the stream opens when it has come
        try:
            opened = await socket_db(self._open)(ASGIRequest(self.scope, io.BytesIO(b"")))
        except OperationalError as error:
            if not is_pool_exhausted(error):
                raise
            busy = error_response(ErrorCode.BUSY, BUSY_MESSAGE)
            busy["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
            opened = busy
        if isinstance(opened, JsonResponse):
            await self._refuse(opened)
            raise StopConsumer
        self.user, self.secret, self.token = opened
        refusal = REGISTRY.open_stream(token=self.token, kind=self.kind)
        if refusal is not None:
            await self._refuse(
                error_response(ErrorCode.TOO_MANY_STREAMS, f"Too many open streams: {refusal}.")
            )
            raise StopConsumer
        self.counted = True
        metrics.socket_opened(self.metric)
        self.ended = False
        self.missed = False  # a wake whose read failed: read again at the next keep-alive
        self.token_checked_at = time.monotonic()
        # Joined before the first read, so no change falls between the two.
        self.groups = [*self.wake_groups(), user_group(self.user.pk)]
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_headers(status=200, headers=NDJSON_HEADERS)
        self.ticking = asyncio.create_task(self._tick())
        await self.wake()

    def _open(self, request: HttpRequest) -> tuple[User, str, str] | JsonResponse:
        """The token's person, the token and its hash (the limit's key), or the error to
        answer: the API's own checks (``token_caller``: the method, the token, its rate
        limit), then the stream's."""
        caller = token_caller(request, "GET", scope=READ)  # a stream reads; its moves are POSTs (play)
        if isinstance(caller, JsonResponse):
            return caller
        refusal = self.refusal(caller)
        if refusal is not None:
            return refusal
        secret = bearer_secret(request.headers.get("Authorization", "")) or ""
        return caller, secret, rate_limit.key_of(secret)

    def refusal(self, user: User) -> JsonResponse | None:
        """The error to answer instead of this stream, if any (read on a database thread)."""
        return None

    async def _refuse(self, response: JsonResponse) -> None:
        headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response.items()
        ]
        headers.append((b"cache-control", b"private, no-store"))
        await self.send_response(response.status_code, response.content, headers=headers)

    # -- what each stream does -----------------------------------------------------------

    def wake_groups(self) -> list[str]:
        """The channel-layer groups whose doorbells wake this stream."""
        raise NotImplementedError

    async def wake(self) -> None:
        """Read afresh and send what this stream has not sent."""
        raise NotImplementedError

    # -- sending and ending ------------------------------------------------------------

    async def send_lines(self, lines: list[dict[str, Any]]) -> None:
        if lines and not self.ended:
            await self.send_body(b"".join(_line(line) for line in lines), more_body=True)

    async def end(self, last: list[dict[str, Any]]) -> None:
        """Send ``last`` and end the response; the consumer stops."""
        if not self.ended:
            self.ended = True
            await self.send_body(b"".join(_line(line) for line in last), more_body=False)
        raise StopConsumer

    async def _tick(self) -> None:
        """A keep-alive every so often, handled as a message of the stream's own so that it
        never comes between a wake's read and its lines."""
        while True:
            await asyncio.sleep(settings.API_STREAM_KEEPALIVE_SECONDS)
            try:
                await self.channel_layer.send(self.channel_name, {"type": "stream.tick"})
            except Exception:  # Redis away for a moment: the next tick tries again
                logger.warning("stream %s: could not send its keep-alive tick", self.channel_name)

    async def stream_tick(self, message: dict[str, Any]) -> None:
        if time.monotonic() - self.token_checked_at >= TOKEN_RECHECK_SECONDS:
            await self._check_token()
        if self.missed:
            self.missed = False
            await self.wake()
        if not self.ended:
            await self.send_body(b"\n", more_body=True)

    async def session_check(self, message: dict[str, Any]) -> None:
        """The account changed (a token revoked, a deactivation): is the token still good?"""
        await self._check_token()

    async def session_ended(self, message: dict[str, Any]) -> None:
        """A browser's logout: a token is no session, and goes on."""

    async def _check_token(self) -> None:
        user = await socket_db(api_token_user)(self.secret)
        self.token_checked_at = time.monotonic()
        if user is None or user.pk != self.user.pk:
            await self.end(
                [
                    {
                        "type": "error",
                        "code": ErrorCode.UNAUTHORISED,
                        "message": "The token is no longer valid (revoked, or its account closed).",
                    }
                ]
            )

    # -- the consumer's life -------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels dispatches, less its hop to asgiref's thread to close old
        connections (the database work runs on the sockets' threads, which look after
        theirs), and with a read that found every database connection in use put off
        to the next keep-alive instead of ending the stream."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except OperationalError as error:
            if not is_pool_exhausted(error):
                raise
            self.missed = True

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The consumer's life, and after it, however it ended (the stream's end, the
        client gone, Daphne cancelling it as it shuts down), its keep-alives stopped, its
        count and its groups let go."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._let_go()

    async def http_disconnect(self, message: dict[str, Any]) -> None:
        raise StopConsumer  # the client went: ``__call__`` lets go of the rest

    async def _let_go(self) -> None:
        if hasattr(self, "ticking"):
            self.ticking.cancel()
        if getattr(self, "counted", False):
            self.counted = False
            REGISTRY.close_stream(token=self.token, kind=self.kind)
            metrics.socket_closed(self.metric)
        for group in getattr(self, "groups", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups = []


_STREAM_ERRORS = [ErrorCode.TOO_MANY_STREAMS]
_LINES = "Newline-delimited JSON, each line one of these (an empty line every 15 seconds keeps it alive). "


@endpoint(
    "GET",
    scope=READ,
    summary="A stream: invitations, matches started and finished, your turns",
    answer=EventStreamLine,
    media_type="application/x-ndjson",
    errors=_STREAM_ERRORS,
    description=_LINES + "As it opens: what waits now; then one line per change (docs/api.md, Streams).",
    operation_id="stream_events",
)
class EventStream(ProgramStream):
    """``/api/stream/events``: the token's person's invitations, matches and turns."""

    kind = "events"
    metric = metrics.SocketKind.EVENT_STREAM

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.told = Told()

    def wake_groups(self) -> list[str]:
        return [person_group(self.user.pk)]

    async def matches_changed(self, message: dict[str, Any]) -> None:
        await self.wake()

    async def wake(self) -> None:
        await self.send_lines(await socket_db(self._news)())

    def _news(self) -> list[dict[str, Any]]:
        return self.told.news(read_mine(self.user, self.told.following()))


@endpoint(
    "GET",
    scope=READ,
    summary="A stream: the match as your seat sees it after each change, its chat, its end",
    answer=MatchStreamLine,
    media_type="application/x-ndjson",
    errors=[*_STREAM_ERRORS, ErrorCode.NO_SUCH_MATCH],
    description=_LINES + "First the match's state, then a line per change (docs/api.md, Streams).",
    operation_id="stream_match",
)
class MatchStream(ProgramStream):
    """``/api/matches/<id>/stream``: one match as the token's person may see it."""

    kind = "match"
    metric = metrics.SocketKind.MATCH_STREAM

    def refusal(self, user: User) -> JsonResponse | None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        try:
            selectors.access(self.match_id, user, with_state=False)
        except selectors.NotVisible:
            return error_response(ErrorCode.NO_SUCH_MATCH, "There is no such match.")
        return None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: dict[str, Any] | None = None  # the last state sent

    def wake_groups(self) -> list[str]:
        return [stream_group(self.match_id)]

    async def stream_match(self, message: dict[str, Any]) -> None:
        await self.wake()

    async def wake(self) -> None:
        state = await socket_db(self._state)()
        if state is None:
            # No longer the person's to see (an invitation to a private match declined).
            await self.end(
                [{"type": "error", "code": ErrorCode.NO_SUCH_MATCH, "message": "There is no such match."}]
            )
            return
        if state != self.sent:
            self.sent = state
            await self.send_lines([{"type": "state", **state}])
        if state["status"] in (Match.Status.FINISHED, Match.Status.CANCELLED):
            await self.end([{"type": "end", "status": state["status"], "result": state["result"]}])

    def _state(self) -> dict[str, Any] | None:
        """``GET /api/matches/<id>``'s answer for the person, or None if they may not see it."""
        try:
            access = selectors.access(self.match_id, self.user)
        except selectors.NotVisible:
            return None
        return selectors.api_view(access)

    async def stream_chat(self, message: dict[str, Any]) -> None:
        line = await socket_db(self._chat_line)(message["message_id"])
        if line is not None:
            await self.send_lines([line])

    def _chat_line(self, message_id: int) -> dict[str, Any] | None:
        """A chat line as the match page shows it to the person: not one of someone who
        blocked them or whom they blocked (games/blocks.py), asked per line as the
        match socket does."""
        message = (
            ChatMessage.objects.select_related("user").filter(pk=message_id, match_id=self.match_id).first()
        )
        if message is None:
            return None
        if message.user_id != self.user.pk and message.user_id in blocks.blocked_with(self.user.pk):
            return None
        try:
            access = selectors.access(self.match_id, self.user, with_state=False)
        except selectors.NotVisible:
            return None
        seat = next((seat.index for seat in access.seats if seat.user_id == message.user_id), None)
        return {
            "type": "chat",
            "id": message.pk,
            "seat": seat,
            "name": message.author_name or message.user.public_name,
            "text": message.text,
            "at": message.created_at.isoformat(),
        }
