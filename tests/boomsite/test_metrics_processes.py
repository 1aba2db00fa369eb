"""``/metrics`` in multiprocess mode: one scrape of a Daphne adds up what every process
of the host counted (boomsite/metrics.py). A real Daphne and a real prefork Celery
worker (as ``make run`` starts them) share one PROMETHEUS_MULTIPROC_DIR; a person plays
a bot over the match socket, and the scrape shows the person's move (Daphne), the bot's
turn and its task (the worker's pool child), the pushed boards and the open sockets."""

from __future__ import annotations

import json
import shutil
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from accounts.models import User
from games.engine import get
from games.models import Match, Move
from games.services import SeatRequest, match_create
from tests.conftest import ensure_bot_accounts, wait_for
from tests.processes import celery_worker, daphne, receive_kind, site_socket, worker_idle

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Site:
    url: str
    worker: str


@pytest.fixture(scope="module")
def site(site_env: dict[str, str]) -> Iterator[Site]:
    """One Daphne and one prefork worker (one pool child), writing to a fresh folder."""
    from boomsite.celery import app

    folder = Path(site_env["BOOMSITE_VAR_DIR"]) / "metrics-multiprocess"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    env = {**site_env, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    app.control.purge()  # tasks queued by earlier tests name rows that are gone
    with celery_worker(env, pool="prefork", concurrency=1) as (worker, _), daphne(env) as (url, _):
        yield Site(url=url, worker=worker)
    shutil.rmtree(folder, ignore_errors=True)


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(site: Site) -> Samples:
    """Every sample of one scrape, by name and labels."""
    with urllib.request.urlopen(f"{site.url}/metrics", timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): float(sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


BOT_TASK = "games.tasks.bot_play"
BOT, ANN = 0, 1  # Go Fox! opens with the second seat: Ann moves first


def test_one_scrape_of_a_daphne_adds_up_every_process_of_the_host(site: Site) -> None:
    ensure_bot_accounts()
    ann = User.objects.create_user(username="ann", password="x")
    browser = Client()
    browser.force_login(ann)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("bot", level="random"), SeatRequest("me")],
    )  # fmt: skip
    game = get("go-fox")

    def settled_after(ply: int) -> Match | None:
        """The match once it moved past ``ply`` and waits for Ann (or is over)."""
        current = Match.objects.get(pk=match.pk)
        waits_for_ann = game.to_act(current.decoded_state()) == [ANN]
        return current if current.ply > ply and (waits_for_ann or current.result is not None) else None

    before = scrape(site)

    def rise(samples: Samples, name: str, **labels: str) -> float:
        return value(samples, name, **labels) - value(before, name, **labels)

    with (
        site_socket(site.url, f"/ws/matches/{match.pk}/", cookie) as board,
        site_socket(site.url, "/ws/me/", cookie) as me,
    ):
        receive_kind(me, "badge")
        shown = receive_kind(board, "board")["ply"]
        current = Match.objects.get(pk=match.pk)
        # Ann plays over the socket (through Daphne) until the bot has answered (a task
        # Daphne queued, played by the worker's pool child).
        while not Move.objects.filter(match=match, seat=BOT).exists():
            action = game.legal_actions(current.decoded_state(), ANN)[0]
            move = {"type": "act", "action": action, "ply": current.ply, "action_id": str(uuid.uuid4())}
            board.send(json.dumps(move))
            current = wait_for(partial(settled_after, current.ply), timeout=30, what="the bot to answer")
        # Every move's board reaches Ann's socket (the bot's pushed from the worker's doorbell).
        while shown < current.ply:
            shown = receive_kind(board, "board")["ply"]
        bot_turns = Move.objects.filter(match=match, seat=BOT).count()

        def counted() -> Samples | None:
            # A task's outcome is counted as it returns, just after its move was pushed.
            samples = scrape(site)
            succeeded = rise(samples, "boomsite_celery_tasks_total", task=BOT_TASK, outcome="succeeded")
            return samples if succeeded >= bot_turns else None

        after = wait_for(counted, timeout=10, interval=0.1, what="the bot's tasks to be counted")

    assert rise(after, "boomsite_moves_total", game="go-fox") == current.ply  # every move, in either process
    assert rise(after, "boomsite_move_seconds_count") >= current.ply
    assert rise(after, "boomsite_bot_turn_seconds_count", level="random") == bot_turns
    assert rise(after, "boomsite_push_seconds_count") >= current.ply  # each move's board, to Ann's socket
    assert rise(after, "boomsite_http_responses_total", status_class="2xx") >= 1  # the first scrape, at least
    assert value(after, "boomsite_sockets_open", kind="match") == 1
    assert value(after, "boomsite_sockets_open", kind="personal") == 1
    # Closed, they count no more.
    wait_for(
        lambda: (
            value(samples := scrape(site), "boomsite_sockets_open", kind="match") == 0
            and value(samples, "boomsite_sockets_open", kind="personal") == 0
        ),
        timeout=10,
        interval=0.1,
        what="the closed sockets to be counted out",
    )
    # The worker finishes its tasks before the test's rows are flushed.
    wait_for(lambda: worker_idle(site.worker), timeout=60, interval=0.1, what="the worker to be idle")
