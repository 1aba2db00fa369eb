"""The run command (``make run``): start, healthy, SIGTERM, nothing left behind.

It runs in the embedded mode, as on a fresh machine, in a var/ folder of its own.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.conftest import ROOT, wait_for
from tests.processes import free_port

pytestmark = pytest.mark.slow


def healthz(port: int) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            body: dict[str, object] = json.load(response)
            return body
    except OSError:
        return None


def start_site(var_dir: Path, port: int) -> tuple[subprocess.Popen[str], list[str]]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}
    }
    env.update(BOOMSITE_VAR_DIR=str(var_dir), PORT=str(port), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "boomsite.run"], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: list[str] = []
    assert process.stdout is not None
    stream = process.stdout
    threading.Thread(target=lambda: lines.extend(iter(stream.readline, "")), daemon=True).start()
    return process, lines


def stop_site(process: subprocess.Popen[str]) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=60)


def test_run_starts_everything_serves_pages_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    process, lines = start_site(tmp_path, port)
    try:
        body = wait_for(
            lambda: (h := healthz(port)) and h.get("ok") and h, timeout=180, what="a green /healthz"
        )
        assert body["database"] == {"ok": True, "vendor": "sqlite"}
        family = psutil.Process(process.pid).children(recursive=True)
        names = " ".join(" ".join(child.cmdline()) for child in family)
        assert "redis-server" in names and "daphne" in names and "worker" in names and "beat" in names
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            assert response.status == 200
            assert "Boomsite" in response.read().decode()
    finally:
        exit_code = stop_site(process)
    assert exit_code == 0
    _, still_alive = psutil.wait_procs(family, timeout=10)
    assert still_alive == [], f"left behind: {still_alive}"
    output = "".join(lines)
    for prefix in ("redis  |", "web    |", "worker |", "beat   |", "run    |"):
        assert prefix in output, f"no line prefixed {prefix!r}"
    assert "demo admin created: username 'admin'" in output
    assert (
        "demo organiser (runs tournaments in /admin/, not superuser) created: username 'organiser'" in output
    )
    assert (tmp_path / "db.sqlite3").exists() and (tmp_path / "redis").is_dir()

    # A second run reuses the database, the key and the venv: up quickly, no new password.
    process, lines = start_site(tmp_path, port)
    try:
        wait_for(lambda: (h := healthz(port)) and h.get("ok"), timeout=90, what="a green /healthz again")
    finally:
        assert stop_site(process) == 0
    assert "demo admin created" not in "".join(lines) and "demo organiser" not in "".join(lines)


def test_run_stops_everything_when_a_child_dies(tmp_path: Path) -> None:
    port = free_port()
    process, lines = start_site(tmp_path, port)
    try:
        wait_for(lambda: (h := healthz(port)) and h.get("ok"), timeout=180, what="a green /healthz")
        family = psutil.Process(process.pid).children(recursive=True)
        web = next(child for child in family if "daphne" in " ".join(child.cmdline()))
        web.kill()
        assert process.wait(timeout=60) == 1
    finally:
        if process.poll() is None:
            stop_site(process)
    _, still_alive = psutil.wait_procs(family, timeout=10)
    assert still_alive == []
    assert "web exited with code" in "".join(lines)
