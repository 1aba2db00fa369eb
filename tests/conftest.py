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
from pytest_django.fixtures import Settings

ROOT = Path(__file__).resolve().parent.parent


ENGINE_TESTS = ROOT / "tests" / "engine"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test outside tests/engine is a site test and gets ``site_defaults``.

    The engine tests stay free of Django (the engine must not need it).
    """
    for item in items:
        if ENGINE_TESTS not in item.path.parents:
            item.add_marker(pytest.mark.usefixtures("site_defaults"))


@pytest.fixture
def site_defaults(settings: Settings) -> None:
    """Plain HTTP to the test client, and empty rate-limit counters for every test."""
    from django.core.cache import cache

    settings.SECURE_SSL_REDIRECT = False
    # The slow default hasher is a security setting, not behaviour under test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # database 1 of the Redis: the cache only, never queues or channels


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


@pytest.fixture(scope="module")
def celery_worker_process() -> Iterator[str]:
    """A real Celery worker process on the tests' broker, for one test module; yields its node name."""
    from boomsite.celery import app

    name = f"test-{uuid.uuid4().hex[:8]}@localhost"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "boomsite", "worker", "--pool", "solo",
         "--without-gossip", "--without-mingle", "--loglevel", "WARNING", "-n", name],
        cwd=ROOT, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
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
