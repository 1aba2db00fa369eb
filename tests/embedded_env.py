"""A pytest plugin loaded first (``-p tests.embedded_env`` in pyproject.toml).

It runs before pytest-django reads the settings, so it can point them at a var/
folder of this test run's own (never the one ``make run`` uses, nor another test
run's) and, unless REDIS_URL names an external Redis, start an embedded Redis
there for the whole run. Subprocesses the tests start inherit the same folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_owned_var_dir: Path | None = None
if not os.environ.get("BOOMSITE_VAR_DIR"):
    _owned_var_dir = ROOT / "var" / "test" / f"run-{os.getpid()}"
    os.environ["BOOMSITE_VAR_DIR"] = str(_owned_var_dir)
# The tests' own process serves requests and sockets in-process, as a Daphne does: its
# database pool is a web process's (boomsite/database.py). The Daphnes and workers the
# tests start say their own kind (tests/processes.py).
os.environ.setdefault("BOOMSITE_PROCESS_KIND", "web")
# WhiteNoise warns about a missing STATIC_ROOT; the tests serve static files from finders.
(Path(os.environ["BOOMSITE_VAR_DIR"]) / "static").mkdir(parents=True, exist_ok=True)

_owned_redis: subprocess.Popen[bytes] | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _owned_redis
    if os.environ.get("REDIS_URL") or hasattr(config, "workerinput"):
        return  # an external Redis, or an xdist worker whose controller started it
    from boomsite import config as site_config
    from boomsite import embedded_redis

    socket_path = site_config.embedded_redis_socket()
    if not embedded_redis.answers(socket_path):
        _owned_redis = embedded_redis.start(
            socket_path, persistent=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    if _owned_redis is not None:
        _owned_redis.terminate()
        _owned_redis.wait(timeout=10)
    if _owned_var_dir is not None and not hasattr(config, "workerinput"):
        shutil.rmtree(_owned_var_dir, ignore_errors=True)
