"""Where the sockets' database work runs: a few threads of their own, each keeping its
connection.

Channels' ``database_sync_to_async`` is thread-sensitive, and a consumer has no
per-connection context, so all the database work of every socket of a process ran
on asgiref's one thread: a move waited behind every board being rendered for every
other socket (issue 25). Here it runs on ``THREADS`` threads, so one socket's call
does not wait for another's while that one waits on the database or Redis.

Nothing about exactly-once rests on the thread: two moves on a match are ordered by
the match's row lock (SQLite: the IMMEDIATE transaction) and the unique constraints
(``games/locks.py``), as between two processes. One socket's calls still run one at
a time and in order: a consumer handles its messages one after the other.

Connections: Django keeps one per thread. These threads live as long as the process,
so each keeps its connection from one call to the next (opening one per call, as
``CONN_MAX_AGE = 0`` does in the embedded mode, cost more than the work itself: the
connection, its PRAGMAs, a WAL checkpoint at each close). At most ``THREADS``
connections per process, then (one more on SQLite: its writer's, below); one is
closed, as ``close_old_connections`` would, when it broke, when a call left it in a
transaction, or once it is ``KEEP_SECONDS`` old (or ``CONN_MAX_AGE``, when longer).
On PostgreSQL the connections come from the process's pool, and go back to it after
every call instead: the pool keeps them open.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from django.db import connections

# Four: enough that a call waiting on PostgreSQL or Redis lets the others go on; each
# thread holds one connection (PostgreSQL's max_connections counts them per process).
# Python runs one thread at a time, so more would add connections, not speed.
THREADS = 4
KEEP_SECONDS = 60.0

_pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="socket-db")
# SQLite takes one writer at a time, and one that waits sleeps in growing steps (1, 2,
# 5, 10... ms) between tries: the sockets' writes there queue on one thread instead.
_sqlite_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="socket-db-writer")
# Per thread: alias -> (the open connection object, when this thread first used it).
_opened = threading.local()

P = ParamSpec("P")
R = TypeVar("R")


class _SocketDatabaseCall(SyncToAsync[P, R]):
    """``sync_to_async`` on the sockets' threads, with the connection kept between calls."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        _tidy_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            _tidy_connections()


def socket_db(func: Callable[P, R], *, writes: bool = False) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` as a coroutine function that runs it on one of the sockets' threads;
    ``writes``: it may write (a move, a chat message), which on SQLite queue on one thread."""
    executor = _sqlite_writer if writes and _on_sqlite() else _pool
    return _SocketDatabaseCall(func, thread_sensitive=False, executor=executor)


@functools.cache
def _on_sqlite() -> bool:
    return connections["default"].vendor == "sqlite"


def _tidy_connections() -> None:
    """Close this thread's connections that must not be used again (see the module's docstring)."""
    seen: dict[str, tuple[object, float]] = getattr(_opened, "connections", {})
    _opened.connections = seen
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            seen.pop(conn.alias, None)
            continue
        known, since = seen.get(conn.alias, (None, now))
        if known is not conn.connection:
            since = now
        max_age = conn.settings_dict["CONN_MAX_AGE"]
        keep = None if max_age is None else max(float(max_age), KEEP_SECONDS)
        # As close_if_unusable_or_obsolete decides, but for the age.
        left_in_transaction = conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]
        broken = conn.errors_occurred and not conn.is_usable()
        # A pooled connection goes back to the process's pool after every call: taking
        # it again costs microseconds, and a thread holding one idle would starve the
        # requests of the pool's few (boomsite/database.py).
        pooled = getattr(conn, "pool", None) is not None
        if pooled or left_in_transaction or broken or (keep is not None and now - since >= keep):
            conn.close()
            seen.pop(conn.alias, None)
            continue
        conn.errors_occurred = False
        # With CONN_HEALTH_CHECKS, checked again at its next use (django-stubs lacks the flag).
        conn.health_check_done = False  # type: ignore[attr-defined]
        seen[conn.alias] = (conn.connection, since)


def _close_own_connections(ready: threading.Barrier) -> None:
    # Every thread waits for the others first, so each of them takes exactly one of these calls.
    ready.wait(timeout=10)
    connections.close_all()
    _opened.connections = {}


async def close_connections() -> None:
    """Close the connections of all the sockets' threads (tests do, before the test
    database is dropped; a process that ends closes them anyway)."""
    ready = threading.Barrier(THREADS)
    call = _SocketDatabaseCall(_close_own_connections, thread_sensitive=False, executor=_pool)
    await asyncio.gather(*(call(ready) for _ in range(THREADS)))
    alone = threading.Barrier(1)
    await _SocketDatabaseCall(_close_own_connections, thread_sensitive=False, executor=_sqlite_writer)(alone)
