"""Who has a match open right now, recorded in Redis so that every process sees it.

Each open match socket of a signed-in person is one member of the sorted set
``<prefix>:presence:<match id>``, ``"<user id>|<socket>"``, scored by the moment it
stops counting. The socket refreshes its member every ``REFRESH_SECONDS`` while it is
open (``games/consumers.py``) and removes it when it closes; a server that is killed
leaves members that simply expire, so nobody stays "online" forever. Readers: the nudge
decision (no email to someone looking at the match) and the board's online dots.

Redis is the cache's database (``CACHE_REDIS_DB``): presence is soft state, and a
Redis that is down reads as "nobody is connected" (a nudge too many, never a crash).
"""

from __future__ import annotations

import logging
import time
from functools import cache

import redis
import redis.asyncio as aioredis
from django.conf import settings

from boomsite.config import redis_url_with_db

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 30
# A member lasts two refreshes: one missed refresh (a busy server) does not drop it.
TTL_SECONDS = 2 * REFRESH_SECONDS + 5


def _key(match_id: int) -> str:
    return f"{settings.CACHE_KEY_PREFIX}:presence:{match_id}"


def _url() -> str:
    return redis_url_with_db(settings.REDIS_URL, settings.CACHE_REDIS_DB)


@cache
def _client() -> redis.Redis:
    return redis.Redis.from_url(_url(), socket_timeout=1, socket_connect_timeout=1)


def _async_client() -> aioredis.Redis:
    # One per call: an asyncio client belongs to the event loop that made it.
    return aioredis.Redis.from_url(_url(), socket_timeout=1, socket_connect_timeout=1)


async def record(match_id: int, user_id: int, socket: str) -> None:
    """This socket of ``user_id`` has ``match_id`` open (called on connect and on refresh)."""
    key, now = _key(match_id), time.time()
    client = _async_client()
    try:
        async with client.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {f"{user_id}|{socket}": now + TTL_SECONDS})
            pipe.zremrangebyscore(key, "-inf", now)  # forget the expired, while here
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()
    except redis.RedisError:
        logger.warning("presence: could not record match %s", match_id)
    finally:
        await client.aclose()


async def forget(match_id: int, user_id: int, socket: str) -> None:
    client = _async_client()
    try:
        await client.zrem(_key(match_id), f"{user_id}|{socket}")
    except redis.RedisError:
        logger.warning("presence: could not forget match %s", match_id)
    finally:
        await client.aclose()


def connected(match_id: int) -> set[int]:
    """The users with ``match_id`` open now."""
    try:
        members = _client().zrangebyscore(_key(match_id), time.time(), "+inf")
    except redis.RedisError:
        logger.warning("presence: could not read match %s", match_id)
        return set()
    return {int(str(member, "ascii").split("|", 1)[0]) for member in members if isinstance(member, bytes)}


def is_connected(user_id: int, match_id: int) -> bool:
    return user_id in connected(match_id)
