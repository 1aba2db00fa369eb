"""Who has a match open right now, recorded in Redis so that every process sees it.

Two sorted sets per match, each member scored by the moment it stops counting:

- ``<prefix>:presence:<match id>``, ``"<user id>|<socket>"``: each open match socket of
  a signed-in person. Readers: the nudge decision (no email to someone looking at the
  match) and the board's online dots.
- ``<prefix>:viewers:<match id>``, ``"<kind>|<socket>"``: every open match socket, by the
  kind of viewer it shows the match to (``fragments.viewer_kind``). Reader: a move's
  push, which draws the boards of the kinds someone is looking as, and no other
  (``push.py``).

and one hash per match, ``<prefix>:left:<match id>``: each signed-in person's last
socket close on it (user id -> time). Reader: the nudge, whose grace counts from when
the person was last seen at the match, not from when a sweep last looked
(``last_seen``).

And one for the whole site, ``<prefix>:seen``: who is on the site now, by their pages
and match sockets (``mark_seen``, ``online_among``; below, "seen on the site").

A socket refreshes its members every ``REFRESH_SECONDS`` while it is open
(``consumers.py``) and removes them when it closes; a server that is killed leaves
members that simply expire, so nobody stays "online" forever.

Redis is the cache's database (``CACHE_REDIS_DB``): presence is soft state, and a
Redis that is down reads as "nobody is connected" (a nudge too many, a board pushed to
nobody, never a crash; a socket reads its board again when it reconnects).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Iterable
from functools import cache

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.http import HttpRequest, HttpResponse

from boomsite.config import redis_url_with_db

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 30
# A member lasts two refreshes: one missed refresh (a busy server) does not drop it.
TTL_SECONDS = 2 * REFRESH_SECONDS + 5


def _key(match_id: int) -> str:
    return f"{settings.CACHE_KEY_PREFIX}:presence:{match_id}"


def _left_key(match_id: int) -> str:
    return f"{settings.CACHE_KEY_PREFIX}:left:{match_id}"


# How long a close is remembered: longer than any grace a nudge waits after it.
LEFT_TTL_SECONDS = 24 * 3600


def _viewers_key(match_id: int) -> str:
    return f"{settings.CACHE_KEY_PREFIX}:viewers:{match_id}"


def _url() -> str:
    return redis_url_with_db(settings.REDIS_URL, settings.CACHE_REDIS_DB)


@cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(_url(), socket_timeout=1, socket_connect_timeout=1)


# One asyncio client per event loop (a client belongs to the loop that made it), kept
# for the loop's life: a new client per call cost a Daphne 17% of its busy time in the
# soak (bench/README.md, "The soak").
_ASYNC_CLIENTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
    weakref.WeakKeyDictionary()
)


def _async_client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    client = _ASYNC_CLIENTS.get(loop)
    if client is None:
        client = _ASYNC_CLIENTS[loop] = aioredis.Redis.from_url(
            _url(), socket_timeout=1, socket_connect_timeout=1
        )
    return client


async def record(match_id: int, socket: str, kind: str, user_id: int | None) -> None:
    """This socket shows ``match_id`` to a viewer of ``kind``, signed in as ``user_id``
    (None: signed out). Called on connect, on refresh, and when the viewer's kind changes
    (its old member then expires with its TTL, or ``forget`` removes it)."""
    now = time.time()
    try:
        async with _async_client().pipeline(transaction=False) as pipe:
            for key, member in _members(match_id, socket, kind, user_id):
                pipe.zadd(key, {member: now + TTL_SECONDS})
                pipe.zremrangebyscore(key, "-inf", now)  # forget the expired, while here
                pipe.expire(key, TTL_SECONDS)
            await pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not record match %s", match_id)


async def forget(match_id: int, socket: str, kind: str, user_id: int | None) -> None:
    try:
        async with _async_client().pipeline(transaction=False) as pipe:
            for key, member in _members(match_id, socket, kind, user_id):
                pipe.zrem(key, member)
            if user_id is not None:
                pipe.hset(_left_key(match_id), str(user_id), repr(time.time()))
                pipe.expire(_left_key(match_id), LEFT_TTL_SECONDS)
            await pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not forget match %s", match_id)


def _members(match_id: int, socket: str, kind: str, user_id: int | None) -> list[tuple[str, str]]:
    members = [(_viewers_key(match_id), f"{kind}|{socket}")]
    if user_id is not None:
        members.append((_key(match_id), f"{user_id}|{socket}"))
    return members


def connected(match_id: int) -> set[int]:
    """The users with ``match_id`` open now."""
    try:
        members = _client().zrangebyscore(_key(match_id), time.time(), "+inf")
    except redis.RedisError:
        logger.warning("presence: could not read match %s", match_id)
        return set()
    return _users(members)


def watching(match_id: int) -> tuple[set[str], set[int]]:
    """The kinds of viewer with ``match_id`` open now, and the users among them: one
    round trip to Redis."""
    now = time.time()
    try:
        with _client().pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(_viewers_key(match_id), now, "+inf")
            pipe.zrangebyscore(_key(match_id), now, "+inf")
            viewers, people = pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not read match %s", match_id)
        return set(), set()
    kinds = {str(member, "ascii").split("|", 1)[0] for member in viewers if isinstance(member, bytes)}
    return kinds, _users(people)


def _users(members: Iterable[object]) -> set[int]:
    return {int(str(member, "ascii").split("|", 1)[0]) for member in members if isinstance(member, bytes)}


def is_connected(user_id: int, match_id: int) -> bool:
    return user_id in connected(match_id)


def last_seen(user_id: int, match_id: int) -> float | None:
    """When ``user_id`` last had ``match_id`` open (a time as ``time.time()``): now while
    they have it open, else when their last socket on it closed; None when not known
    (never opened, long ago, or a server that died: its members just expired)."""
    now = time.time()
    try:
        with _client().pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(_key(match_id), now, "+inf")
            pipe.hget(_left_key(match_id), str(user_id))
            people, left = pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not read match %s", match_id)
        return None
    if user_id in _users(people):
        return now
    return float(left) if left is not None else None


# -- seen on the site ------------------------------------------------------------------
#
# One sorted set for the whole site, ``<prefix>:seen``: user id -> the last time the
# person was seen, by a page they asked for (``SeenMiddleware``) or a match socket they
# hold open (``consumers.py``, on opening and every refresh). Someone is online when
# seen in the last ``ONLINE_SECONDS``. Readers: the profiles and the friends lists
# (games/social), one round trip for any number of people (``online_among``).
#
# A page writes at most once per ``SEEN_WRITE_SECONDS`` per person and process: the
# middleware remembers, in the process, when it last wrote for whom, so a busy reader
# costs Redis one write a minute, not one per page. A write also drops the members seen
# before the online window, so the set holds about the people online, never everyone.

ONLINE_SECONDS = 5 * 60
SEEN_WRITE_SECONDS = 60
# The people a process remembers writing for; past this it starts again (a write too
# many for each, once).
SEEN_MEMORY = 10_000


def _seen_key() -> str:
    return f"{settings.CACHE_KEY_PREFIX}:seen"


def _seen_commands(pipe: redis.client.Pipeline | aioredis.client.Pipeline, user_id: int, now: float) -> None:
    pipe.zadd(_seen_key(), {str(user_id): now})
    pipe.zremrangebyscore(_seen_key(), "-inf", now - ONLINE_SECONDS)


def mark_seen(user_id: int) -> None:
    """``user_id`` is on the site now (a page)."""
    try:
        with _client().pipeline(transaction=False) as pipe:
            _seen_commands(pipe, user_id, time.time())
            pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not mark user %s seen", user_id)


async def mark_seen_async(user_id: int) -> None:
    """``user_id`` is on the site now (a match socket)."""
    try:
        async with _async_client().pipeline(transaction=False) as pipe:
            _seen_commands(pipe, user_id, time.time())
            await pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not mark user %s seen", user_id)


def online_among(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` are online: seen in the last ``ONLINE_SECONDS``. One round
    trip however many are asked about; nobody when Redis does not answer."""
    asked = list(dict.fromkeys(user_ids))
    if not asked:
        return set()
    try:
        scores = _client().zmscore(_seen_key(), [str(user_id) for user_id in asked])
    except redis.RedisError:
        logger.warning("presence: could not read who is online")
        return set()
    since = time.time() - ONLINE_SECONDS
    return {
        user_id for user_id, score in zip(asked, scores, strict=True) if score is not None and score >= since
    }


_written_at: dict[int, float] = {}


def forget_seen_writes() -> None:
    """Forget when this process last wrote for whom (tests start each from nothing)."""
    _written_at.clear()


class SeenMiddleware:
    """Marks the signed-in person seen (``mark_seen``), at most once per
    ``SEEN_WRITE_SECONDS`` per person in this process. After the view: a page that
    failed still saw its person."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = time.time()
            if now - _written_at.get(user.pk, 0.0) >= SEEN_WRITE_SECONDS:
                if len(_written_at) >= SEEN_MEMORY:
                    _written_at.clear()
                # Remembered before the write: a Redis that is down is asked once a minute.
                _written_at[user.pk] = now
                mark_seen(user.pk)
        return response
