"""The database settings, and what the site does when PostgreSQL's pool runs dry.

Embedded mode: SQLite, one file, no pool (a connection is a file handle).

PostgreSQL: connections come from psycopg's pool, one pool per process
(Django's ``"pool"`` option, ``CONN_MAX_AGE = 0``). Under ASGI, Django runs every
synchronous request on a thread of its own, so a persistent connection per thread
(``CONN_MAX_AGE = 60`` before issue 30) was neither reused nor closed: one Daphne held
85 connections after 300 requests, and two Daphnes with their workers ran PostgreSQL
out of its 100. With the pool, a request borrows a connection for as long as it runs
and gives it back at its end, so a process never holds more than its pool's
``max_size``, however many threads it runs.

How big, per kind of process (the arithmetic is in the README, "Scale-out"):

- a Daphne serves many requests and sockets at once: ``DATABASE_POOL_WEB`` (10);
- a Celery worker's process runs one task at a time, and Celery closes the pool after
  each task in a prefork child: ``DATABASE_POOL_WORKER`` (2) bounds it all the same.

The kind is named by the entry point: ``boomsite/asgi.py`` says ``web`` before Django
reads the settings; every other process (workers, beat, ``manage.py``) is ``worker``.

A request that finds the pool empty waits ``DATABASE_POOL_TIMEOUT`` seconds for a
connection to come back, then is answered 503 with ``Retry-After`` (JSON under
``/api/``), never a 500: ``boomsite/views.py`` ``server_error`` (and the sockets answer
an error ``busy``: ``games/errors.py`` ``is_pool_exhausted``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url

from boomsite import config

PROCESS_KIND_VARIABLE = "BOOMSITE_PROCESS_KIND"
WEB = "web"
WORKER = "worker"

# Defaults, and the README's arithmetic: with 2 Daphnes, 2 workers of 2 processes and
# beat, 2 x 10 + 4 x 2 = 28 connections, far inside PostgreSQL's default 100.
POOL_WEB_DEFAULT = 10
POOL_WORKER_DEFAULT = 2
POOL_TIMEOUT_DEFAULT = 10.0


def process_kind() -> str:
    return WEB if os.environ.get(PROCESS_KIND_VARIABLE) == WEB else WORKER


def pool_size(kind: str) -> int:
    # Both read in every process, so a bad value stops any of them at start, whichever it needs.
    web = config.env_int("DATABASE_POOL_WEB", POOL_WEB_DEFAULT, minimum=1)
    worker = config.env_int("DATABASE_POOL_WORKER", POOL_WORKER_DEFAULT, minimum=1)
    return web if kind == WEB else worker


def pool_timeout() -> float:
    raw = os.environ.get("DATABASE_POOL_TIMEOUT", "").strip()
    if not raw:
        return POOL_TIMEOUT_DEFAULT
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"DATABASE_POOL_TIMEOUT must be a number of seconds, not {raw!r}") from None
    if not 0 < value <= 300:
        raise ValueError(f"DATABASE_POOL_TIMEOUT must be more than 0 and at most 300 seconds, not {raw!r}")
    return value


def sqlite_database(path: Path, test_path: Path) -> dict[str, Any]:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": {
            # WAL lets the web, worker and beat processes read while one writes;
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead
            # of deadlocking when both upgrade a read lock.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
        # A file, not memory: the tests' Daphne and Celery worker processes open it too.
        "TEST": {"NAME": test_path},
    }


def url_database(url: str, kind: str) -> dict[str, Any]:
    """``DATABASE_URL``'s database; PostgreSQL's through the pool sized for ``kind``."""
    database: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=0))
    if database["ENGINE"] == "django.db.backends.postgresql":
        database["OPTIONS"] = dict(database.get("OPTIONS") or {})
        database["OPTIONS"]["pool"] = {
            # One connection kept open while idle; more are opened as requests need
            # them, up to max_size, and closed again after 10 idle minutes (max_idle).
            "min_size": 1,
            "max_size": pool_size(kind),
            "timeout": pool_timeout(),
        }
    return database
