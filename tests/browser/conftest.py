"""A real site (Daphne and a Celery worker on the test database) and Debian's chromium,
driven by Playwright. ``make test`` installs chromium when it is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.processes import daphne

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
    with daphne(site_env) as (site, _process):
        yield site


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
