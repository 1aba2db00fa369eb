"""The site's code reaches Celery through ``celery.current_app``, and that is the app
boomsite/celery.py configures, in every thread: boomsite/ stays the composition root."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from celery import current_app
from django.conf import settings

from boomsite.celery import app

ROOT = Path(__file__).resolve().parents[2]


def test_neither_the_core_nor_accounts_imports_the_celery_app_of_the_composition_root() -> None:
    importing = re.compile(
        r"^\s*(from boomsite\.celery import|import boomsite\.celery|from boomsite import celery)"
    )
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("games", "accounts")
        for path in (ROOT / folder).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if importing.match(line)
    ]
    assert offenders == []


def test_the_current_app_is_the_configured_one_in_another_thread_too() -> None:
    """After-commit work runs in a socket's worker thread, where Celery's per-thread
    current app is its default app: that must be the site's, on the site's broker."""
    seen: list[tuple[str | None, str]] = []
    thread = threading.Thread(target=lambda: seen.append((current_app.main, current_app.conf.broker_url)))
    thread.start()
    thread.join()
    assert seen == [(app.main, settings.CELERY_BROKER_URL)] == [("boomsite", app.conf.broker_url)]
