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


def _isolate_xdist_worker(worker: str) -> None:
    """Under ``pytest -n N`` each worker ``gwK`` runs its tests beside the others, so it
    gets what a test may clear, count or consume as its own: a var/ folder (logs, mail,
    the metrics of the processes it starts), a Redis database for the channel layer and
    Celery's queues (``REDIS_URL``'s number + 2K) and one for the cache
    (``CACHE_REDIS_DB`` + 2K: tests clear it whole). The Redis server is the run's one
    (the controller starts the embedded one in the shared var/ folder); the test
    database is pytest-django's own per worker (a ``_gwK`` suffix)."""
    from boomsite import config as site_config

    index = int(worker.removeprefix("gw"))
    shared_var = Path(os.environ["BOOMSITE_VAR_DIR"])
    url = os.environ.get("REDIS_URL") or f"unix://{shared_var / 'redis' / 'redis.sock'}"
    channels_db, cache_db = site_config.redis_db(url), site_config.env_int("CACHE_REDIS_DB", 1)
    if (cache_db - channels_db) % 2 == 0:
        # Stepping both by two keeps every worker's pair apart only if one is odd, one even.
        raise pytest.UsageError(
            f"pytest -n needs REDIS_URL's database ({channels_db}) and CACHE_REDIS_DB ({cache_db}) "
            "to be one odd, one even"
        )
    os.environ["REDIS_URL"] = site_config.redis_url_with_db(url, channels_db + 2 * index)
    os.environ["CACHE_REDIS_DB"] = str(cache_db + 2 * index)
    os.environ["BOOMSITE_VAR_DIR"] = str(shared_var / worker)


if os.environ.get("PYTEST_XDIST_WORKER"):
    _isolate_xdist_worker(os.environ["PYTEST_XDIST_WORKER"])
# The tests' own process serves requests and sockets in-process, as a Daphne does: its
# database pool is a web process's (boomsite/database.py). The Daphnes and workers the
# tests start say their own kind (tests/processes.py).
os.environ.setdefault("BOOMSITE_PROCESS_KIND", "web")
# Web Push signs with a VAPID key: the embedded mode makes one in var/, but a run against
# outside services (CI's PostgreSQL and Redis) is not embedded, and push would be off.
# One key for the run, in the environment, so the Daphnes it starts sign with it too.
if not os.environ.get("VAPID_PRIVATE_KEY"):
    from boomsite import config as _site_config

    os.environ["VAPID_PRIVATE_KEY"] = _site_config.new_vapid_private_key()
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
