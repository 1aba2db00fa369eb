from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


# Pure code (the engine, the bots) is tested without Django: its tests need no site set-up.
PURE_TESTS = (ROOT / "tests" / "engine", ROOT / "tests" / "bots")


@pytest.fixture(autouse=True)
def site_defaults(request: pytest.FixtureRequest) -> None:
    """For every site test: plain HTTP to the test client, empty rate-limit counters.

    Tests under tests/engine and tests/bots are left alone: that code must not need Django.
    """
    if any(folder in request.node.path.parents for folder in PURE_TESTS):
        return
    settings = request.getfixturevalue("settings")
    settings.SECURE_SSL_REDIRECT = False
    # The manifest storage needs collectstatic, which is a deploy step, not a test.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # The slow default hasher is a security setting, not behaviour under test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import cache

    cache.clear()  # database 1 of the Redis: the cache only, never queues or channels
    from games.socket_limits import REGISTRY

    REGISTRY.clear()  # this process's socket counts, as a fresh Daphne starts


def wait_for(
    predicate: Callable[[], Any], timeout: float, interval: float = 0.2, what: str = "condition"
) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


@pytest.fixture(scope="session")
def site_env(django_db_setup: None) -> dict[str, str]:
    """The environment for site processes (Daphne, workers) that must use the test database.

    Tests that share data with those processes commit it: mark them
    ``django_db(transaction=True)`` and call ``ensure_bot_accounts()`` (a flush
    between transactional tests removes the rows the migrations made).
    """
    from django.db import connection

    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.site_settings",
        "BOOMSITE_TEST_DB_NAME": str(connection.settings_dict["NAME"]),
        "HTTPS_ONLY": "false",
    }


def ensure_bot_accounts() -> None:
    """Put back the bot accounts the data migration made (transactional tests flush them)."""
    import importlib

    from django.apps import apps

    importlib.import_module("accounts.migrations.0002_bot_accounts").create_bots(apps, None)


@pytest.fixture(scope="module")
def celery_worker_process(site_env: dict[str, str]) -> Iterator[str]:
    """A real Celery worker process on the tests' broker and database, for one test module."""
    from boomsite.celery import app

    app.control.purge()  # tasks queued by earlier tests name rows that are gone
    name = f"test-{uuid.uuid4().hex[:8]}@localhost"
    # Its log beside Daphne's (under the run's var folder), for a failing test to read.
    log = open(Path(site_env["BOOMSITE_VAR_DIR"]) / f"worker-{name.split('@')[0]}.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "boomsite", "worker", "--pool", "solo",
         "--without-gossip", "--without-mingle", "--loglevel", "WARNING", "-n", name],
        cwd=ROOT, env=site_env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        wait_for(
            lambda: process.poll() is not None or app.control.ping(destination=[name], timeout=0.5),
            timeout=60,
            what="the Celery worker to answer",
        )
        assert process.poll() is None, "the Celery worker exited at start"
        yield name
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
