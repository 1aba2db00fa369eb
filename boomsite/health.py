"""``/healthz``: does the database answer, does Redis, does at least one Celery worker?

Anyone may call it, often and all at once (a load balancer, a monitor, an attacker),
so every check is bounded in time and the expensive one, asking the workers, runs at
most once per ``WORKERS_FRESH_SECONDS`` for the whole site: its answer is kept in
the cache, and one caller at a time refreshes it while the others read the last
answer. It never touches Celery's shared connection and producer pools either: a
burst of broadcasts there once held every pooled connection while each waited for a
producer that needed one more, and every thread of the site blocked for good,
including those queueing bot turns (a nested-pool deadlock).

A failure is named to the caller by its kind only ("OperationalError"); what it said
(a database's host, address and account, a broker's URL) goes to the site's log.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from celery.app.control import Control
from django.conf import settings
from django.core.cache import cache
from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from kombu import pidbox

from boomsite.celery import app as celery_app

logger = logging.getLogger(__name__)

_TIMEOUT_SECONDS = 2.0
WORKERS_FRESH_SECONDS = 10  # how long an answer from the workers is reused
_WORKERS_LAST_SECONDS = 300  # the last answer, shown while another caller refreshes it
_WORKERS_KEY = "health:workers"
_WORKERS_LAST_KEY = "health:workers:last"
_REFRESHING_KEY = "health:workers:refreshing"


def check_database(connection: BaseDatabaseWrapper = default_connection) -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "not healthy"
        return {"ok": False, "error": _failure("the database", error)}
    return {"ok": True, "vendor": connection.vendor}


def check_redis() -> dict[str, Any]:
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=_TIMEOUT_SECONDS, socket_connect_timeout=_TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        return {"ok": False, "error": _failure("Redis", error)}
    return {"ok": True}


def check_celery(*, redis_ok: bool) -> dict[str, Any]:
    """The workers' last answer, asked anew at most every ``WORKERS_FRESH_SECONDS``."""
    if not redis_ok:
        # Without the broker a ping would only retry until it times out.
        return {"ok": False, "workers": 0, "error": "the broker (Redis) does not answer"}
    try:
        fresh = cache.get(_WORKERS_KEY)
        if fresh is not None:
            return dict(fresh)
        # cache.add is atomic in Redis: exactly one caller refreshes; it expires by itself
        # if that caller dies.
        if not cache.add(_REFRESHING_KEY, 1, timeout=int(_TIMEOUT_SECONDS * 3)):
            last = cache.get(_WORKERS_LAST_KEY)
            return dict(last) if last is not None else {"ok": False, "workers": 0, "error": "being checked"}
        try:
            status = ping_workers()
            cache.set(_WORKERS_KEY, status, timeout=WORKERS_FRESH_SECONDS)
            cache.set(_WORKERS_LAST_KEY, status, timeout=_WORKERS_LAST_SECONDS)
        finally:
            cache.delete(_REFRESHING_KEY)
        return status
    except Exception as error:
        return {"ok": False, "workers": 0, "error": _failure("the workers' status", error)}


def _failure(what: str, error: Exception) -> str:
    """Log what went wrong in full; tell the caller its kind only."""
    logger.warning("health: %s failed: %s: %s", what, type(error).__name__, error)
    return f"{type(error).__name__} (details in the site's log)"


class _PoolFreeMailbox(pidbox.Mailbox):
    """Publishes with a producer of its own on the connection it is bound to."""

    @property
    def producer_pool(self) -> None:  # type: ignore[override]  # kombu's is a cached_property
        return None


class _PoolFreeControl(Control):
    Mailbox = _PoolFreeMailbox


def ping_workers() -> dict[str, Any]:
    """Ask every worker to answer, on a connection of its own (not from the app's pool)
    and with a producer of its own, so nothing here can wait on a pool."""
    control = _PoolFreeControl(app=celery_app)
    try:
        with celery_app.connection_for_write(
            connect_timeout=_TIMEOUT_SECONDS,
            transport_options={
                "socket_timeout": _TIMEOUT_SECONDS,
                "socket_connect_timeout": _TIMEOUT_SECONDS,
            },
        ) as connection:
            replies = control.ping(timeout=_TIMEOUT_SECONDS / 2, connection=connection)
    except Exception as error:
        return {"ok": False, "workers": 0, "error": _failure("asking the workers", error)}
    workers = sorted(name for reply in replies or [] for name in reply)
    return {"ok": bool(workers), "workers": len(workers)}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    redis_status = check_redis()
    celery_status = check_celery(redis_ok=redis_status["ok"])
    healthy = database["ok"] and redis_status["ok"] and celery_status["ok"]
    return JsonResponse(
        {"ok": healthy, "database": database, "redis": redis_status, "celery": celery_status},
        status=200 if healthy else 503,
    )
