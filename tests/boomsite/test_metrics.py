"""``/metrics`` (boomsite/metrics.py): who may read it, its format, every metric, and the
counts that a played match moves. In this process, so one process's own registry
(no PROMETHEUS_MULTIPROC_DIR); tests/boomsite/test_metrics_processes.py scrapes a real
Daphne in multiprocess mode."""

from __future__ import annotations

import ipaddress
import json
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from celery import signals
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from pytest_django.fixtures import Settings

from accounts.models import User
from boomsite import config, metrics, run
from games.engine import get
from games.models import Announcement, Match
from games.tasks import bot_play
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db

METRIC_NAMES = [
    "boomsite_moves_total",
    "boomsite_move_seconds",
    "boomsite_push_seconds",
    "boomsite_move_boards_seconds",
    "boomsite_move_boards_total",
    "boomsite_sockets_open",
    "boomsite_http_responses_total",
    "boomsite_emails_total",
    "boomsite_announcements_undelivered",
    "boomsite_bot_turn_seconds",
    "boomsite_celery_tasks_total",
]


def scrape(client: Client | None = None, **extra: str) -> str:
    response = (client or Client()).get("/metrics", **extra)  # type: ignore[arg-type]
    assert response.status_code == 200
    return response.content.decode()


def value(text: str, sample: str, **labels: str) -> float:
    """The value of one sample of a scrape (0 when it is not there)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == sample and found.labels == labels:
                return float(found.value)
    return 0.0


# -- who may read it --------------------------------------------------------------


def test_loopback_reads_the_metrics_in_prometheus_text_format() -> None:
    for loopback in ("127.0.0.1", "::1"):
        response = Client().get("/metrics", REMOTE_ADDR=loopback)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        assert "no-cache" in response["Cache-Control"]


def test_another_address_gets_the_sites_404_and_no_figure() -> None:
    response = Client().get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 404
    assert b"boomsite_" not in response.content


def test_a_request_relayed_by_a_trusted_proxy_is_judged_by_its_client(settings: Settings) -> None:
    # nginx on this host relays from 127.0.0.1: its peer address is loopback, its client is not.
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    relayed = Client(REMOTE_ADDR="127.0.0.1")
    assert relayed.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 404
    # A monitoring network named in METRICS_ALLOWED may scrape through the proxy.
    settings.METRICS_ALLOWED = [*settings.METRICS_ALLOWED, ipaddress.ip_network("198.51.100.0/24")]
    assert relayed.get("/metrics", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 200
    assert relayed.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.7").status_code == 200


def test_a_request_relayed_by_a_proxy_not_trusted_is_refused(settings: Settings) -> None:
    # TRUSTED_PROXIES forgotten behind nginx: the client's address is taken to be nginx's
    # loopback one, but the header says someone else asked.
    settings.TRUSTED_PROXIES = []
    relayed = Client(REMOTE_ADDR="127.0.0.1")
    assert relayed.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 404
    assert relayed.get("/metrics").status_code == 200


def test_metrics_allowed_is_loopback_by_default_and_read_from_the_environment(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    loopback = [ipaddress.ip_network("127.0.0.1"), ipaddress.ip_network("::1")]
    monkeypatch.delenv("METRICS_ALLOWED", raising=False)
    assert config.env_networks("METRICS_ALLOWED", default="127.0.0.1,::1") == loopback
    monkeypatch.setenv("METRICS_ALLOWED", " 10.0.0.0/8, 192.0.2.1 ")
    assert config.env_networks("METRICS_ALLOWED", default="127.0.0.1,::1") == [
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("192.0.2.1"),
    ]
    monkeypatch.setenv("METRICS_ALLOWED", "")  # set but empty: nobody, not the default
    assert config.env_networks("METRICS_ALLOWED", default="127.0.0.1,::1") == []
    monkeypatch.setenv("METRICS_ALLOWED", "localhost")
    with pytest.raises(ValueError, match="METRICS_ALLOWED: 'localhost' is not an IP address"):
        config.env_networks("METRICS_ALLOWED", default="127.0.0.1,::1")
    settings.METRICS_ALLOWED = []
    assert Client().get("/metrics").status_code == 404


# -- what it says -----------------------------------------------------------------


def test_every_metric_is_exposed() -> None:
    text = scrape()
    for name in METRIC_NAMES:
        assert f"# HELP {name} " in text, name
    for status_class in ("2xx", "3xx", "4xx", "5xx"):
        assert f'boomsite_http_responses_total{{status_class="{status_class}"}}' in text
    for kind in ("match", "personal", "event_stream", "match_stream"):
        assert f'boomsite_sockets_open{{kind="{kind}"}}' in text


def test_the_undelivered_announcements_are_counted_from_the_outbox_at_each_scrape(
    two_player_match: Match,
) -> None:
    assert value(scrape(), "boomsite_announcements_undelivered") == 0
    Announcement.objects.create(match=two_player_match, task_name="a")
    delivered = Announcement.objects.create(match=two_player_match, task_name="b")
    assert value(scrape(), "boomsite_announcements_undelivered") == 2
    Announcement.objects.filter(pk=delivered.pk).update(delivered_at=delivered.created_at)
    assert value(scrape(), "boomsite_announcements_undelivered") == 1


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


urlpatterns = [path("fails", fails), path("metrics", metrics.serve_metrics)]


def test_a_views_500_and_the_middlewares_own_answers_are_counted(settings: Settings) -> None:
    before = scrape()
    settings.ROOT_URLCONF = __name__  # the failing view above
    browser = Client(raise_request_exception=False)
    assert browser.get("/fails").status_code == 500
    assert browser.get("/fails?text=%00").status_code == 400  # the NUL middleware answers itself
    after = scrape()
    for status_class in ("5xx", "4xx"):
        counted = value(after, "boomsite_http_responses_total", status_class=status_class)
        assert counted - value(before, "boomsite_http_responses_total", status_class=status_class) == 1


def test_a_match_played_through_the_pages_moves_the_counts(
    two_player_match: Match, ann: User, bob: User, django_capture_on_commit_callbacks: object
) -> None:
    match = two_player_match
    game = get(match.game)
    clients = {0: logged_in(ann), 1: logged_in(bob)}
    before = scrape()
    moves = 4
    for _ in range(moves):
        match.refresh_from_db()
        state = match.decoded_state()
        seat = game.to_act(state)[0]
        assert clients[seat].get(f"/matches/{match.pk}/").status_code == 200
        # The move counts once committed: here, when the capture ends.
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
            response = clients[seat].post(
                f"/matches/{match.pk}/act",
                {"action": json.dumps(game.legal_actions(state, seat)[0]), "ply": match.ply},
            )
        assert response.status_code == 302
    after = scrape()

    def moved(sample: str, **labels: str) -> float:
        return value(after, sample, **labels) - value(before, sample, **labels)

    assert moved("boomsite_moves_total", game=match.game) == moves
    assert moved("boomsite_move_seconds_count") == moves
    assert moved("boomsite_http_responses_total", status_class="2xx") >= moves  # the pages
    assert moved("boomsite_http_responses_total", status_class="3xx") >= moves  # the posts


# -- processes ------------------------------------------------------------------------


def counted_tasks(task: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("boomsite_celery_tasks_total", {"task": task, "outcome": outcome}) or 0.0


def test_each_celery_task_outcome_is_counted_by_name() -> None:
    metrics.count_celery_tasks()  # as a worker does when it starts (boomsite/celery.py)
    metrics.count_celery_tasks()  # twice connects once
    name = bot_play.name
    before = {outcome: counted_tasks(name, outcome) for outcome in metrics.TaskOutcome}
    signals.task_success.send(sender=bot_play, result=True)
    signals.task_failure.send(sender=bot_play, task_id="1", exception=RuntimeError())
    signals.task_retry.send(sender=bot_play, request=None, reason="again", einfo=None)
    message = SimpleNamespace(headers={"task": name})
    signals.task_rejected.send(sender=None, message=message, exc=None)
    for outcome in metrics.TaskOutcome:
        assert counted_tasks(name, outcome) == before[outcome] + 1, outcome


def test_the_run_command_empties_the_metrics_folder_it_gives_its_children(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOOMSITE_VAR_DIR", str(tmp_path))
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_4242.db").write_bytes(b"an earlier run's counts")
    (folder / "README").write_text("not ours: left alone")
    assert run.prepare_metrics_dir() == folder
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(folder)
    assert sorted(path.name for path in folder.iterdir()) == ["README"]
    # An operator's folder is used as given, made if missing.
    chosen = tmp_path / "chosen"
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(chosen))
    assert run.prepare_metrics_dir() == chosen and chosen.is_dir()


def test_a_scrape_forgets_the_open_sockets_of_a_process_that_died_but_keeps_its_counts(
    tmp_path: Path,
) -> None:
    ended = subprocess.Popen(["true"])
    ended.wait()
    files = [
        f"gauge_livesum_{ended.pid}.db",  # a Daphne killed with sockets open
        f"gauge_livesum_{os.getpid()}.db",  # this process, alive
        f"counter_{ended.pid}.db",  # what it counted stays in the totals
    ]
    for name in files:
        (tmp_path / name).write_bytes(b"")
    metrics.forget_dead_processes(str(tmp_path))
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(files[1:])
