"""``python -m boomsite.run`` (what ``make run`` calls): prepare, then start and supervise everything.

Prepare: migrate (the bot accounts come from a data migration), collect static
files, and in the embedded mode create the demo admin and print its password once.
Start: the embedded Redis (embedded mode only), Daphne, a Celery worker and Celery
beat, all writing their metrics to one emptied folder (``prepare_metrics_dir``). Every
line they print reaches this terminal prefixed by its process name.
Ctrl-C or SIGTERM stops the children in order (web, beat, worker, then Redis) and
waits for them; a child that dies on its own stops the rest, and the exit code says so.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from prometheus_client import multiprocess

from boomsite import config, embedded_redis

STOP_TIMEOUT_SECONDS = 15.0
_PR_SET_PDEATHSIG = 1
_print_lock = threading.Lock()


def say(name: str, line: str) -> None:
    with _print_lock:
        sys.stdout.write(f"{name:<7}| {line.rstrip()}\n")
        sys.stdout.flush()


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM if the supervisor itself is killed (Linux)."""
    # Not on Linux: no prctl, and the normal shutdown path still stops every child.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Child:
    name: str
    argv: Sequence[str]
    process: subprocess.Popen[bytes] | None = None
    relay: threading.Thread | None = field(default=None, repr=False)

    def start(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            list(self.argv),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            # Own session: a Ctrl-C in the terminal reaches only the supervisor,
            # which then stops the children in order.
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        assert self.process.stdout is not None
        self.relay = threading.Thread(target=self._relay, args=(self.process.stdout,), daemon=True)
        self.relay.start()

    def _relay(self, stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            say(self.name, raw.decode("utf-8", "replace"))

    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.is_running():
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)

    def wait(self, deadline: float) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say("run", f"{self.name} did not stop in time; killing it")
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        # What prometheus-client asks when a process ends: its open sockets stop counting
        # (its counts stay in the totals).
        multiprocess.mark_process_dead(self.process.pid)
        if self.relay is not None:
            self.relay.join(timeout=2)


def prepare_metrics_dir() -> Path:
    """The folder where every process started here writes its metrics, for one scrape of
    Daphne to add up (prometheus-client's multiprocess mode: boomsite/metrics.py):
    PROMETHEUS_MULTIPROC_DIR if set, else var/metrics, passed on to the children. It is
    emptied first: an earlier run's files would add that run's counts and open sockets
    to this one's."""
    path = Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or config.var_dir() / "metrics")
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(path)
    return path


def prepare() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    import django
    from django.core.management import call_command

    django.setup()
    say("run", "applying migrations")
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    if config.is_embedded():
        from accounts.services import (
            DEMO_ADMIN_USERNAME,
            DEMO_ORGANISER_USERNAME,
            demo_admin_create_once,
            demo_organiser_create_once,
        )
        from games.tournaments.setup import ORGANISERS_GROUP

        password = demo_admin_create_once()
        if password is not None:
            say("run", f"demo admin created: username {DEMO_ADMIN_USERNAME!r}, password {password!r}")
            say("run", "this password is shown only once (reset it with: manage.py changepassword admin)")
        password = demo_organiser_create_once(group_name=ORGANISERS_GROUP)
        if password is not None:
            say(
                "run",
                f"demo organiser (runs tournaments in /admin/, not superuser) created: "
                f"username {DEMO_ORGANISER_USERNAME!r}, password {password!r}",
            )


def children(host: str, port: str) -> list[Child]:
    python = sys.executable
    bin_dir = os.path.dirname(python)
    return [
        # --no-server-name: no "Server: daphne" banner on answers and socket handshakes.
        Child(
            "web",
            [os.path.join(bin_dir, "daphne"), "--no-server-name", "-b", host, "-p", port,
             "boomsite.asgi:application"],
        ),
        Child(
            "worker",
            [python, "-m", "celery", "-A", "boomsite", "worker", "--loglevel", "INFO",
             "--concurrency", os.environ.get("CELERY_CONCURRENCY", "2"),
             "--without-gossip", "--without-mingle", "-n", f"worker-{os.getpid()}@%h"],
        ),
        Child("beat", [python, "-m", "celery", "-A", "boomsite", "beat", "--loglevel", "INFO"]),
    ]  # fmt: skip


def main() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    # Links in emails and the match socket's origin check need the address people
    # open; unless it is given, it is where Daphne listens (loopback for 0.0.0.0).
    listening = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    os.environ.setdefault("SITE_URL", f"http://{listening}:{port}")
    stopping = threading.Event()
    prepare_metrics_dir()

    def request_stop(signum: int, frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    redis_child: Child | None = None
    if config.uses_embedded_redis():
        socket_path = config.embedded_redis_socket()
        redis_child = Child("redis", embedded_redis.command(socket_path))
        say("run", f"starting the embedded Redis on {socket_path}")
        if embedded_redis.answers(socket_path):
            say("run", "a Redis server already answers there: is Boomsite already running from this folder?")
            return 1
        socket_path.parent.mkdir(parents=True, exist_ok=True)
        socket_path.unlink(missing_ok=True)
        redis_child.start(dict(os.environ))
        assert redis_child.process is not None
        embedded_redis.wait_until_ready(socket_path, redis_child.process)

    services = children(host, port)
    exit_code = 0
    try:
        prepare()
        if not stopping.is_set():
            for child in services:
                child.start(dict(os.environ))
            say("run", f"Boomsite is up on http://{host}:{port}/ (Ctrl-C stops everything)")
        while not stopping.is_set():
            dead = [
                child
                for child in [*services, redis_child]
                if child and child.process and not child.is_running()
            ]
            if dead:
                for child in dead:
                    assert child.process is not None
                    say("run", f"{child.name} exited with code {child.process.returncode}; stopping the rest")
                exit_code = 1
                break
            stopping.wait(0.5)
    except Exception as error:
        say("run", f"failed: {type(error).__name__}: {error}")
        exit_code = 1
    finally:
        say("run", "stopping")
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        for child in services:
            child.stop()
        for child in services:
            child.wait(deadline)
        if redis_child is not None:
            # Last, so the worker and beat can finish talking to it.
            redis_child.stop()
            redis_child.wait(time.monotonic() + STOP_TIMEOUT_SECONDS)
        say("run", "stopped")
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
