"""games/live/socket_db.py: the sockets' database work on threads of their own, each keeping
its connection between calls."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.backends.signals import connection_created

from accounts.models import User
from games.live import socket_db
from games.live.socket_db import close_connections
from tests.games.sockets import run

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def opened() -> Any:
    """The connections opened from now on, counted."""
    count = [0]

    def counted(**kwargs: Any) -> None:
        count[0] += 1

    connection_created.connect(counted, weak=False)
    yield count
    connection_created.disconnect(counted)


def test_the_calls_of_different_sockets_run_at_the_same_time(ann: User) -> None:
    """Two calls that each wait for the other: on one thread (asgiref's thread-sensitive
    default, which all the sockets of a process shared) the first would wait forever."""
    both = threading.Barrier(2)

    def meet() -> str:
        both.wait(timeout=5)
        return str(User.objects.get(pk=ann.pk).username)

    async def scenario() -> None:
        assert await asyncio.gather(socket_db.socket_db(meet)(), socket_db.socket_db(meet)()) == [
            "ann",
            "ann",
        ]

    run(scenario)


def test_a_thread_keeps_its_connection_from_one_call_to_the_next(opened: Any) -> None:
    """SQLite: each thread keeps its own. PostgreSQL: each call gives its connection back
    to the process's pool, and the next call takes one of the same few again."""

    def where() -> tuple[str, int | None]:
        User.objects.count()
        backend = connection.connection.info.backend_pid if connection.vendor == "postgresql" else None
        return threading.current_thread().name, backend

    async def scenario() -> None:
        await close_connections()
        opened[0] = 0
        calls = [await socket_db.socket_db(where)() for _ in range(12)]
        threads = {name for name, _backend in calls}
        assert all(name.startswith("socket-db") for name in threads)
        if connection.vendor == "postgresql":
            backends = {backend for _name, backend in calls}
            pool_size = connection.settings_dict["OPTIONS"]["pool"]["max_size"]
            assert len(backends) <= pool_size < 12
        else:
            assert opened[0] == len(threads) < 12

    run(scenario)


def test_a_connection_is_closed_once_old_or_left_in_a_transaction(
    opened: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def query() -> None:
        User.objects.count()

    def leave_a_transaction_open() -> None:
        transaction.set_autocommit(False)
        User.objects.count()

    def in_a_transaction() -> bool:
        return not connection.get_autocommit()

    async def scenario() -> None:
        await close_connections()
        opened[0] = 0
        monkeypatch.setattr(socket_db, "KEEP_SECONDS", 0.0)
        # A connection is kept for the longer of KEEP_SECONDS and CONN_MAX_AGE (60 s with
        # DATABASE_URL): at 0 both, every call's connection is too old by its end, on every
        # database, whichever of the pool's threads it ran on. (Every thread's connection
        # reads this one settings dict.)
        monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
        for _ in range(3):
            await socket_db.socket_db(query)()
        assert opened[0] == 3  # each one too old by the end of its call
        monkeypatch.setattr(socket_db, "KEEP_SECONDS", 60.0)
        for _ in range(socket_db.THREADS + 1):
            await socket_db.socket_db(leave_a_transaction_open)()
        for _ in range(socket_db.THREADS + 1):
            assert not await socket_db.socket_db(in_a_transaction)()

    run(scenario)


def test_writes_on_sqlite_queue_on_one_thread() -> None:
    def where() -> str:
        return threading.current_thread().name

    async def scenario() -> None:
        names = await asyncio.gather(*(socket_db.socket_db(where, writes=True)() for _ in range(6)))
        if connection.vendor == "sqlite":
            assert set(names) == {"socket-db-writer_0"}
        else:
            assert all(name.startswith("socket-db_") for name in names)

    run(scenario)


def test_closing_the_connections_closes_every_thread_s(opened: Any) -> None:
    def query() -> None:
        User.objects.count()

    async def scenario() -> None:
        await asyncio.gather(*(socket_db.socket_db(query)() for _ in range(8)))
        await close_connections()
        opened[0] = 0
        await socket_db.socket_db(query)()
        assert opened[0] == 1

    run(scenario)
