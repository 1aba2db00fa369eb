"""A real site (Daphne and a Celery worker on the test database) and Debian's chromium,
driven by Playwright. ``make test`` installs chromium when it is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.boomsite.test_run import free_port
from tests.conftest import ROOT, wait_for

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags chromium keeps dialling Google's hosts,
# which this machine's closed network refuses.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="module")
def live_site(site_env: dict[str, str], celery_worker_process: str) -> Iterator[str]:
    """The whole site on a free port, as ``make run`` serves it; yields its base URL."""
    port = free_port()
    log_path = Path(site_env["BOOMSITE_VAR_DIR"]) / f"daphne-{port}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "boomsite.asgi:application"],
            cwd=ROOT, env={**site_env, "SITE_URL": f"http://127.0.0.1:{port}"}, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_for(
                lambda: process.poll() is not None or _answers(port), timeout=60, what="Daphne to answer"
            )
            assert process.poll() is None, f"Daphne exited at start: see {log_path}"
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=20)


def _answers(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium under Playwright (its own browser download is never used)."""
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM
    # calls are plain blocking calls between browser steps, which is safe here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
