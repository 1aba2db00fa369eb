"""``/healthz`` both ways. The no-worker case comes first: the worker fixture lives for the module."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connections
from django.db.utils import load_backend
from django.test import Client
from pytest_django.fixtures import Settings

from boomsite.celery import app
from boomsite.health import check_database


@pytest.mark.django_db
def test_healthz_is_503_when_no_worker_answers(client: Client) -> None:
    assert not app.control.ping(timeout=0.5), "a Celery worker is running beside the tests; stop it"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["database"]["ok"] is True
    assert body["redis"]["ok"] is True
    assert body["celery"] == {"ok": False, "workers": 0}


@pytest.mark.django_db
def test_healthz_is_503_when_redis_does_not_answer(
    client: Client, settings: Settings, tmp_path: Path
) -> None:
    settings.REDIS_URL = f"unix://{tmp_path}/nobody-listens.sock"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["redis"]["ok"] is False
    assert body["celery"] == {"ok": False, "workers": 0, "error": "the broker (Redis) does not answer"}


def test_the_database_check_reports_a_database_that_does_not_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings_dict = dict(connections["default"].settings_dict)
    if settings_dict["ENGINE"].endswith("sqlite3"):
        settings_dict["NAME"] = str(tmp_path / "no-such-folder" / "db.sqlite3")
    else:
        settings_dict["PORT"] = 1  # nothing listens on port 1
        settings_dict["OPTIONS"] = {**settings_dict.get("OPTIONS", {}), "connect_timeout": 2}
    broken = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, alias="broken")
    try:
        status = check_database(broken)
    finally:
        broken.close()
    assert status["ok"] is False
    # Anyone may call /healthz: it names the kind of failure, and the log what it said
    # (a database's path or host, address and account).
    kind, rest = status["error"].split(" ", 1)
    assert kind.isidentifier() and rest == "(details in the site's log)"
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert f"health: the database failed: {kind}: " in logged


@pytest.mark.django_db
def test_healthz_is_green_when_database_redis_and_a_worker_answer(
    client: Client, celery_worker_process: str
) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] is True
    assert body["redis"]["ok"] is True
    assert body["celery"]["ok"] is True
    assert body["celery"]["workers"] >= 1
