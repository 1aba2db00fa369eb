from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Match

ROOT = Path(__file__).resolve().parent.parent


# Pure code (the engine, the bots) is tested without Django: its tests need no site set-up.
PURE_TESTS = (ROOT / "tests" / "engine", ROOT / "tests" / "bots")


# Fixtures that start a process (a Daphne, a Celery worker, chromium) once per module.
_PROCESS_FIXTURES = frozenset({"celery_worker_process", "live_site", "browser"})


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under ``pytest -n`` (``make test``, ``--dist loadgroup``), keep each module that
    starts processes on one worker: its processes start once, not once per worker. Those
    modules run first, so that the long ones are shared out while the many short tests,
    handed out one by one to whichever worker is free, fill in around them and no
    worker is left with a long module at the end."""
    grouped = set()
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("slow") or fixtures & _PROCESS_FIXTURES:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
            grouped.add(item)
    items.sort(key=lambda item: item not in grouped)  # stable: each module's order kept


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
    from games.live.socket_limits import REGISTRY

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
    """A real Celery worker process on the tests' broker and database, for one test module;
    yields its name (``tests/processes.py`` starts and stops it)."""
    from boomsite.celery import app
    from tests.processes import celery_worker

    app.control.purge()  # tasks queued by earlier tests name rows that are gone
    with celery_worker(site_env) as (name, _process):
        yield name


@pytest.fixture(autouse=True)
def worker_settles_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test with a worker ends only when the worker is idle. The flush that ends a
    transactional test truncates every table; a task still writing (a rating after
    the match's last move, a bot's turn) would deadlock with it on PostgreSQL."""
    if "celery_worker_process" not in request.fixturenames:
        yield
        return
    # Requested from here, the database fixture is torn down (flushed) after this one.
    request.getfixturevalue("_django_db_helper")
    name = request.getfixturevalue("celery_worker_process")
    yield
    from tests.processes import worker_idle

    wait_for(lambda: worker_idle(name) and worker_idle(name), timeout=60, interval=0.1,
             what="the Celery worker to finish its tasks")  # fmt: skip


@pytest.fixture
def broker() -> Iterator[Any]:
    """Celery's queue in Redis, to read what was sent; emptied before and after (for
    modules in which no worker runs)."""
    import redis
    from django.conf import settings

    from boomsite.celery import app

    app.control.purge()
    client = redis.Redis.from_url(settings.REDIS_URL)
    yield client
    app.control.purge()
    client.close()


@pytest.fixture
def superuser(db: None) -> Any:
    """A signed-in superuser's browser (the Django test client), for the admin's pages."""
    from django.test import Client

    from accounts.models import User

    person = User.objects.create_superuser(username="root", email="root@example.com", password="pw-root")
    client = Client()
    client.force_login(person)
    return client


# People and matches for the site's tests (a folder's conftest may override one, as
# tests/accounts does for people who need a verified address).


@pytest.fixture
def make_person(db: None) -> Callable[..., User]:
    counter = iter(range(1, 10_000))

    from accounts.models import User

    def make(username: str | None = None, **fields: Any) -> User:
        name = username or f"person{next(counter)}"
        return User.objects.create_user(
            username=name, email=f"{name}@example.com", password="pw-" + name, **fields
        )

    return make


@pytest.fixture
def ann(make_person: Callable[..., User]) -> User:
    return make_person("ann", display_name="Ann")


@pytest.fixture
def bob(make_person: Callable[..., User]) -> User:
    return make_person("bob", display_name="Bob")


@pytest.fixture
def two_player_match(ann: User, bob: User) -> Match:
    """A running Don't Go Boom match: Ann in seat 0, Bob in seat 1 (he was invited and accepted)."""
    from games.models import Match
    from games.services import SeatRequest, match_create, match_join

    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    return match


@pytest.fixture
def duel(ann: User, bob: User) -> Match:
    """Go Fox! between Ann (seat 0) and Bob (seat 1), public."""
    from games.models import Match
    from games.services import SeatRequest, match_create, match_join

    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)
