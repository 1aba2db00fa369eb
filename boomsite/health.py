"""``/healthz``: does the database answer, does Redis, does at least one Celery worker?"""

from __future__ import annotations

from typing import Any

import redis
from django.conf import settings
from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from boomsite.celery import app as celery_app

_TIMEOUT_SECONDS = 2.0


def check_database(connection: BaseDatabaseWrapper = default_connection) -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "not healthy", reported as text
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
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
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    return {"ok": True}


def check_celery(*, redis_ok: bool) -> dict[str, Any]:
    if not redis_ok:
        # Without the broker a ping would only retry until it times out.
        return {"ok": False, "workers": 0, "error": "the broker (Redis) does not answer"}
    try:
        replies = celery_app.control.ping(timeout=_TIMEOUT_SECONDS / 2)
    except Exception as error:
        return {"ok": False, "workers": 0, "error": f"{type(error).__name__}: {error}"}
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
