"""The servers of ``bench/soak.py`` and what watches them.

The stack is the production one (README, "Scale-out"), on this machine: two Daphnes
(``bench/ws_servers.py``), a Celery worker of two prefork processes and beat, each
started as its own process group so that one signal stops a worker and its children;
PostgreSQL (a throwaway database) and Redis (two databases of the bench's own, flushed
at the start and the end); and a real SMTP server (aiosmtpd) in the bench's process,
which keeps every message it accepts.

The sampler reads, every ``SAMPLE_SECONDS``: each process's resident memory and CPU
time (psutil), the bench database's connections in ``pg_stat_activity`` (by the
application name each process gives libpq, ``PGAPPNAME``, and matched to the process
that holds each by its client port), Redis's ``used_memory``, and the CPU time of each
process, of the database's backends, of Redis and of the whole machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from bench.ws_servers import ROOT, free_port

SAMPLE_SECONDS = 10.0
POSTGRES_PORT = 5432
REDIS_PORT = 6379
# Each process names itself to PostgreSQL (libpq's PGAPPNAME): "soak-daphne-1", "soak-worker"...
APPLICATION_PREFIX = "soak-"


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


# -- the SMTP server --------------------------------------------------------------------


@dataclass
class ReceivedMail:
    at: float  # time.monotonic() when the server accepted it
    recipients: list[str]
    raw: bytes


class Mailbox:
    """An aiosmtpd handler that keeps every message it accepts, and tells ``listener``
    (called on the SMTP server's thread) of each one as it arrives."""

    def __init__(self) -> None:
        self.received: list[ReceivedMail] = []
        self.listener: Callable[[ReceivedMail], None] | None = None
        self.lock = threading.Lock()

    # aiosmtpd's hook name.
    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = ReceivedMail(
            time.monotonic(), list(envelope.rcpt_tos), envelope.original_content or envelope.content
        )
        with self.lock:
            self.received.append(mail)
        if self.listener is not None:
            self.listener(mail)
        return "250 Message accepted for delivery"

    def all(self) -> list[ReceivedMail]:
        with self.lock:
            return list(self.received)


@contextmanager
def smtp_server() -> Iterator[tuple[Mailbox, int]]:
    from aiosmtpd.controller import Controller

    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield mailbox, controller.port
    finally:
        controller.stop()


# -- Redis ------------------------------------------------------------------------------


@contextmanager
def own_redis_databases(url: str, databases: list[int]) -> Iterator[None]:
    """Redis ``databases`` of the server at ``url``, flushed at the start and at the end."""
    import redis

    clients = [redis.Redis.from_url(url, db=db) for db in databases]
    for client in clients:
        client.flushdb()
    try:
        yield
    finally:
        for client in clients:
            client.flushdb()
            client.close()


# -- Celery ---------------------------------------------------------------------------


def stop_group(process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """SIGTERM to the process group ``process`` leads (a worker and its children), and
    SIGKILL to it after ``timeout`` seconds."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass
    finally:
        # Children left behind by a leader that exited first (a prefork child mid-task).
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


@contextmanager
def celery_worker(env: dict[str, str], log_dir: Path, concurrency: int) -> Iterator[subprocess.Popen[bytes]]:
    """``celery -A boomsite worker --pool prefork --concurrency N``, as README's stack runs it."""
    from boomsite.celery import app

    name = f"soak-{uuid.uuid4().hex[:6]}@localhost"
    command = [sys.executable, "-m", "celery", "-A", "boomsite", "worker", "--pool", "prefork",
               "--concurrency", str(concurrency), "--without-gossip", "--without-mingle",
               "--loglevel", "INFO", "-n", name]  # fmt: skip
    with open(log_dir / "worker.log", "wb") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not app.control.ping(destination=[name], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the Celery worker did not start: see {log_dir / 'worker.log'}")
        yield process
    finally:
        stop_group(process)


@contextmanager
def celery_beat(env: dict[str, str], log_dir: Path) -> Iterator[subprocess.Popen[bytes]]:
    command = [sys.executable, "-m", "celery", "-A", "boomsite", "beat", "--loglevel", "INFO"]
    with open(log_dir / "beat.log", "wb") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    try:
        time.sleep(2)
        if process.poll() is not None:
            raise SystemExit(f"Celery beat did not start: see {log_dir / 'beat.log'}")
        yield process
    finally:
        stop_group(process)


def worker_idle() -> bool:
    """No task running, reserved or scheduled on any worker, and the queue empty."""
    from boomsite.celery import app

    inspect = app.control.inspect(timeout=1)
    for report in (inspect.active(), inspect.reserved(), inspect.scheduled()):
        if report is None or any(report.values()):
            return False
    with app.connection_for_read() as connection:
        client = connection.default_channel.client  # type: ignore[attr-defined]  # kombu's Redis channel
        return int(client.llen(app.conf.task_default_queue)) == 0


# -- the pools, as each kind of process reads its settings -----------------------------

_READ_POOL = """
import json, sys
if sys.argv[1] == "web":
    import boomsite.asgi  # what Daphne imports
else:
    import boomsite.celery, django; django.setup()  # what a worker and beat import
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({"pool": (db.get("OPTIONS") or {}).get("pool"), "conn_max_age": db.get("CONN_MAX_AGE")}))
"""


def pool_settings(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The database pool each kind of process gets from the settings, read by importing
    what that process's command imports (so whatever the settings call the sizes)."""
    found = {}
    for kind in ("web", "worker"):
        output = subprocess.run(
            [sys.executable, "-c", _READ_POOL, kind], cwd=ROOT, env=env, capture_output=True, check=True
        ).stdout
        found[kind] = json.loads(output.decode().strip().splitlines()[-1])
    return found


def pool_max(settings: dict[str, Any]) -> int | None:
    pool = settings.get("pool")
    if pool is True:
        return 4  # psycopg_pool's default max_size (= min_size, 4)
    if isinstance(pool, dict):
        return int(pool.get("max_size") or pool.get("min_size") or 4)
    return None


# -- the sampler --------------------------------------------------------------------------


@dataclass
class Sample:
    t: float  # seconds since the soak began
    rss: dict[str, int]  # role -> bytes
    anon: dict[str, int]  # role -> bytes of it that are the process's own (heap), not mapped files
    cpu: dict[str, float]  # role -> user + system seconds so far
    connections: dict[str, int]  # application (the process's PGAPPNAME, less "soak-") -> connections
    by_process: dict[str, int]  # role -> connections, matched by client port (a short one may be missed)
    states: dict[str, int]  # pg_stat_activity state -> connections
    redis_used: int
    redis_keys: dict[int, int]
    load: tuple[float, float, float]
    machine_busy: float  # CPU seconds of the whole machine, busy (not idle nor waiting for I/O)
    postgres_cpu: float  # CPU seconds of the bench database's backends so far
    redis_cpu: float  # CPU seconds of the Redis server (shared with other users of it)


@dataclass
class Roles:
    """The processes watched, by role name."""

    daphnes: list[int]
    worker: int
    beat: int
    bench: int = field(default_factory=os.getpid)

    def resolve(self) -> dict[str, psutil.Process]:
        found: dict[str, psutil.Process] = {}
        for index, pid in enumerate(self.daphnes, 1):
            found[f"daphne-{index}"] = psutil.Process(pid)
        worker = psutil.Process(self.worker)
        found["worker"] = worker
        for child in sorted(worker.children(), key=lambda process: process.pid):
            found[f"worker-child-{child.pid}"] = child
        found["beat"] = psutil.Process(self.beat)
        found["bench"] = psutil.Process(self.bench)
        return found


class Sampler:
    """Samples every ``SAMPLE_SECONDS`` on a thread of its own, from ``start`` to ``stop``."""

    def __init__(
        self, roles: Roles, database_url: str, database_name: str, redis_url: str, redis_dbs: list[int]
    ):
        self.roles = roles
        self.database_url = database_url
        self.database_name = database_name
        self.redis_url = redis_url
        self.redis_dbs = redis_dbs
        self.samples: list[Sample] = []
        self.errors: list[str] = []
        self.backend_cpu: dict[int, float] = {}  # backend pid -> its CPU seconds when last seen
        self.redis_pid = next(
            (
                connection.pid
                for connection in psutil.net_connections(kind="tcp")
                if connection.status == psutil.CONN_LISTEN and connection.laddr.port == REDIS_PORT
            ),
            None,
        )
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="soak-sampler", daemon=True)

    def start(self) -> None:
        self.started = time.monotonic()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        import psycopg
        import redis

        with psycopg.connect(self.database_url, autocommit=True) as database:
            own = database.execute("SELECT pg_backend_pid()").fetchone()
            own_pid = own[0] if own else None
            clients = {db: redis.Redis.from_url(self.redis_url, db=db) for db in self.redis_dbs}
            next_at = time.monotonic()
            while True:
                try:
                    self.samples.append(self._sample(database, own_pid, clients))
                except Exception as error:  # a process gone between two looks: say so, go on
                    self.errors.append(f"{time.monotonic() - self.started:.0f} s: {error!r}")
                next_at += SAMPLE_SECONDS
                if self._stop.wait(max(0.0, next_at - time.monotonic())):
                    break
            for client in clients.values():
                client.close()

    @staticmethod
    def _postgres_ports(processes: dict[str, psutil.Process]) -> dict[int, str]:
        """Client port -> role of every connection to PostgreSQL on this machine (another
        process's as ``other <name> <pid>``)."""
        roles = {process.pid: role for role, process in processes.items()}
        ports = {}
        for connection in psutil.net_connections(kind="tcp"):
            if connection.raddr and connection.raddr.port == POSTGRES_PORT and connection.pid:
                role = roles.get(connection.pid)
                if role is None:
                    try:
                        role = f"other {psutil.Process(connection.pid).name()} {connection.pid}"
                    except psutil.NoSuchProcess:
                        role = "other"
                ports[connection.laddr.port] = role
        return ports

    def _sample(self, database: Any, own_pid: int | None, clients: dict[int, Any]) -> Sample:
        t = time.monotonic() - self.started
        processes = self.roles.resolve()
        rss, anon, cpu = {}, {}, {}
        for role, process in processes.items():
            with process.oneshot():
                rss[role] = process.memory_info().rss
                times = process.cpu_times()
                cpu[role] = times.user + times.system
            anon[role] = _rss_anon(process.pid)
        # The processes' connections looked at before and after the server's list, so
        # that one opened or closed meanwhile is still known by its port.
        ports = self._postgres_ports(processes)
        rows = database.execute(
            "SELECT pid, client_port, coalesce(state, ''), application_name FROM pg_stat_activity "
            "WHERE datname = %s",
            [self.database_name],
        ).fetchall()
        ports.update(self._postgres_ports(processes))
        connections: Counter[str] = Counter()
        by_process: Counter[str] = Counter()
        states: Counter[str] = Counter()
        for pid, port, state, application in rows:
            if pid == own_pid:
                continue  # the sampler's own
            connections[application.removeprefix(APPLICATION_PREFIX) or "unnamed"] += 1
            by_process[ports.get(port, "unmatched")] += 1
            states[state or "unknown"] += 1
            with suppress(psutil.NoSuchProcess):
                self.backend_cpu[pid] = _cpu_seconds(psutil.Process(pid))
        used = int(clients[self.redis_dbs[0]].info("memory")["used_memory"])
        keys = {db: int(client.dbsize()) for db, client in clients.items()}
        machine = psutil.cpu_times()
        busy = sum(machine) - machine.idle - getattr(machine, "iowait", 0.0)
        redis_cpu = 0.0
        if self.redis_pid is not None:
            with suppress(psutil.NoSuchProcess):
                redis_cpu = _cpu_seconds(psutil.Process(self.redis_pid))
        return Sample(
            t, rss, anon, cpu, dict(connections), dict(by_process), dict(states), used, keys, os.getloadavg(),
            busy, sum(self.backend_cpu.values()), redis_cpu,
        )  # fmt: skip


def _rss_anon(pid: int) -> int:
    """RssAnon of ``/proc/<pid>/status``: resident memory less mapped files (the code, and
    the metrics files of PROMETHEUS_MULTIPROC_DIR) and shared memory."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    return 0


def _cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)
