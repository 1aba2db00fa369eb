"""Real site processes for tests: a Daphne and a Celery worker on the test database.

Each is a context manager that starts the process, waits until it answers, yields it,
and stops it however the test ended (SIGTERM, then SIGKILL after 20 s). Their logs go
to the run's var folder (``site_env["BOOMSITE_VAR_DIR"]``), for a failing test to read.
The one worker fixture, ``celery_worker_process`` in ``tests/conftest.py``, is built on
``celery_worker``; a test that must kill or watch its own worker uses it directly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from amqp.exceptions import ChannelError
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.conftest import ROOT, wait_for

DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]


def site_socket(site: str, path: str, cookie: str) -> ClientConnection:
    """A WebSocket to ``path`` on the Daphne at ``site`` (its own origin), sent ``cookie``."""
    return connect(
        f"{site.replace('http', 'ws', 1)}{path}",
        origin=Origin(site),
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    )


def receive_kind(socket: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on ``socket`` (others, such as presence notes, skipped)."""
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=20))
        if message["type"] == kind:
            return message


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _log_path(env: dict[str, str], name: str) -> Path:
    return Path(env["BOOMSITE_VAR_DIR"]) / f"{name}.log"


def stop(process: subprocess.Popen[bytes], timeout: float = 20) -> int:
    """SIGTERM, and SIGKILL if it has not exited within ``timeout`` seconds; its exit code."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return int(process.returncode)


def worker_idle(name: str) -> bool:
    """True when the worker ``name`` runs, holds and awaits no task and its queue is
    empty. A solo worker busy with a task does not answer, which reads as not idle."""
    from boomsite.celery import app

    inspect = app.control.inspect(destination=[name], timeout=1)
    for report in (inspect.active(), inspect.reserved(), inspect.scheduled()):
        if not report or report.get(name):
            return False
    with app.connection_for_read() as connection:
        channel: Any = connection.default_channel  # kombu's stubs lack queue_declare
        try:
            queue = channel.queue_declare(queue=app.conf.task_default_queue, passive=True)
        except ChannelError:  # Redis drops an empty queue's list: no queue, no message
            return True
    return int(queue.message_count) == 0


def frozen_once(process: subprocess.Popen[bytes], check: Callable[[], bool]) -> bool:
    """Let ``process`` run a few milliseconds, freeze it (SIGSTOP) and look: True, leaving
    it frozen (to be killed where it stands), once ``check`` holds. Watching a running
    process instead, a busy machine could let it finish between two looks. Call it in
    ``wait_for(..., interval=0)``."""
    os.kill(process.pid, signal.SIGCONT)
    time.sleep(0.005)
    os.kill(process.pid, signal.SIGSTOP)
    return check()


@contextmanager
def daphne(
    env: dict[str, str],
    port: int | None = None,
    argv: Sequence[str] | None = None,
    *,
    site_url: str | None = None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Daphne serving the site on ``port`` (a free one by default); yields its base URL
    and process. ``argv`` runs another command line that serves that port (``make run``'s);
    ``site_url`` is the site's public address when a proxy stands in front (its own else)."""
    port = port or free_port()
    site = f"http://127.0.0.1:{port}"
    command = list(argv) if argv else [*DAPHNE, "-p", str(port), "boomsite.asgi:application"]
    log_path = _log_path(env, f"daphne-{port}")
    with open(log_path, "wb") as log:
        # The site's address (this process's own by default): the socket accepts exactly its origin.
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**env, "SITE_URL": site_url or site, "BOOMSITE_PROCESS_KIND": "web"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(
                lambda: process.poll() is not None or accepts(port), timeout=60, what=f"Daphne on {port}"
            )
            assert process.poll() is None, f"Daphne exited at start: see {log_path}"
            yield site, process
        finally:
            stop(process)


@contextmanager
def celery_worker(
    env: dict[str, str], *, pool: str = "solo", concurrency: int | None = None, prefix: str = "test"
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Celery worker on the tests' broker and database; yields its name and process.
    ``pool="prefork"`` with ``concurrency=1`` is one worker as ``make run`` starts it."""
    from boomsite.celery import app

    name = f"{prefix}-{uuid.uuid4().hex[:8]}@localhost"
    command = [sys.executable, "-m", "celery", "-A", "boomsite", "worker", "--pool", pool,
               "--without-gossip", "--without-mingle", "--loglevel", "WARNING", "-n", name]  # fmt: skip
    if concurrency is not None:
        command += ["--concurrency", str(concurrency)]
    log_path = _log_path(env, f"worker-{name.split('@')[0]}")
    with open(log_path, "wb") as log:
        # A worker's database pool, whatever the tests' own process imported (boomsite/database.py).
        worker_env = {**env, "BOOMSITE_PROCESS_KIND": "worker"}
        process = subprocess.Popen(command, cwd=ROOT, env=worker_env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for(
                lambda: process.poll() is not None or app.control.ping(destination=[name], timeout=0.5),
                timeout=60,
                what="the Celery worker to answer",
            )
            assert process.poll() is None, f"the Celery worker exited at start: see {log_path}"
            yield name, process
        finally:
            stop(process)
