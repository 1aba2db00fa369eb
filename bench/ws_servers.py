"""The servers of ``bench/ws_load.py``: its database and Redis, the Daphne processes.

Where the data lives follows the site's own switches: without DATABASE_URL, SQLite in
the run's var folder; with it, a throwaway PostgreSQL database on that server. Without
REDIS_URL, an embedded Redis there; with it, that Redis database, which must be empty.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads, from ``/proc/<pid>/stat``."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime: fields 14 and 15


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def daphne(
    application: str, env: dict[str, str], log_dir: Path, *, site_url: str | None = None
) -> Iterator[Server]:
    """A Daphne serving ``application`` on a free port, as ``make run`` starts the site's.
    Its SITE_URL is its own address, or ``site_url`` (one public address for several
    processes, as behind a proxy)."""
    port = free_port()
    log_path = log_dir / f"daphne-{port}.log"
    command = [
        sys.executable,
        "-m",
        "daphne",
        "--no-server-name",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        application,
    ]
    with open(log_path, "wb") as output:
        # The socket accepts exactly the site's own origin: this process's address, or site_url.
        process = subprocess.Popen(
            command, cwd=ROOT, env={**env, "SITE_URL": site_url or f"http://127.0.0.1:{port}"},
            stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not _accepts(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"Daphne ({application}) did not start: see {log_path}")
            time.sleep(0.1)
        yield Server(port, process)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- where the data lives ---------------------------------------------------------------


@dataclass
class Storage:
    description: str
    env: dict[str, str]


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@contextmanager
def throwaway_postgres(url: str, prefix: str = "bench_ws") -> Iterator[str]:
    """A new database ``<prefix>_<random>`` on the server of ``url``; its URL. Dropped at the end."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_database(url, name)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def own_redis_database(url: str) -> Iterator[int]:
    """The Redis database of ``url``, which must be empty; flushed at the end (the channel
    layer's, the cache's and Celery's keys of the run all live there)."""
    import redis

    client = redis.Redis.from_url(url)
    db = int(client.connection_pool.connection_kwargs.get("db", 0))
    keys = client.dbsize()
    if keys:
        raise SystemExit(
            f"Redis database {db} of {url} holds {keys} keys: the bench needs an empty one of its own "
            "(it flushes it at the end). Name another in REDIS_URL, e.g. redis://127.0.0.1:6379/7."
        )
    try:
        yield db
    finally:
        client.flushdb()
        client.close()


@contextmanager
def storage(var_dir: Path) -> Iterator[Storage]:
    """The database and Redis of the run, by the environment (see the module's docstring)."""
    from boomsite import embedded_redis

    env = {
        "BOOMSITE_VAR_DIR": str(var_dir),
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DEBUG": os.environ.get("DEBUG", "false"),
        "HTTPS_ONLY": "false",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        # Keys of their own, should the Redis be shared after all.
        "CHANNEL_LAYER_PREFIX": f"bench-ws-{secrets.token_hex(3)}",
        "CACHE_KEY_PREFIX": f"bench-ws-{secrets.token_hex(3)}",
    }
    with ExitStack() as stack:
        database_url = os.environ.get("DATABASE_URL")
        if database_url:
            env["DATABASE_URL"] = stack.enter_context(throwaway_postgres(database_url))
            database = f"PostgreSQL ({urlsplit(env['DATABASE_URL']).path.lstrip('/')}, dropped after)"
        else:
            database = "SQLite (embedded)"
        redis_url = os.environ.get("REDIS_URL")
        if redis_url:
            env["REDIS_URL"] = redis_url
            env["CACHE_REDIS_DB"] = str(stack.enter_context(own_redis_database(redis_url)))
            redis_name = f"Redis {redis_url}"
        else:
            socket_path = var_dir / "redis" / "redis.sock"
            process = embedded_redis.start(
                socket_path, persistent=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
            )
            stack.callback(_stop, process)
            redis_name = "embedded Redis"
        yield Storage(f"{database} + {redis_name}", env)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(timeout=20)


def prepare_site() -> None:
    """What ``make run`` does before it serves: migrate, collect the static files."""
    import django
    from django.core.management import call_command

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
