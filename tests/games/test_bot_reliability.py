"""A dead worker's work is done exactly once by the next: a bot's turn, a match-finished
announcement.

Two ways a worker dies, two ways back (settings: late acknowledgement, rejection on
worker loss; games.tasks: the recovery sweeps):

- the pool process running the task is killed: the worker rejects the task, the
  broker hands it out again, and the worker's next pool process plays the turn;
- the whole worker is killed (its machine failed): its unacknowledged tasks wait in
  the broker for the visibility timeout, an hour; Celery beat's recovery sweeps queue
  the bot's turn and send the announcement again from the database, and the worker
  still running takes them, within 20 s of the kill (measured and printed).

The expert bot thinks for up to a second, so the kill lands mid-decision; in the whole
worker's case both tasks are held at their writes by the test's locks until the kill.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import effects
from games.models import Announcement, Match, Move
from games.ratings.models import RatingChange
from games.ratings.services import MATCH_FINISHED_TASK as RATINGS_TASK
from games.ratings.services import lock_ledger
from games.services import SeatRequest, match_create
from tests.conftest import ROOT, ensure_bot_accounts, wait_for
from tests.games.ratings.helpers import START, bot, finished_match, ratings_now
from tests.processes import celery_worker, stop

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@contextmanager
def worker(
    site_env: dict[str, str], *, concurrency: int = 1, prefix: str = "reliability"
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A prefork worker (one pool process by default, as ``make run`` starts one per core)."""
    with celery_worker(site_env, pool="prefork", concurrency=concurrency, prefix=prefix) as started:
        yield started


def delivered(match: Match) -> bool:
    return Announcement.objects.filter(
        match=match, task_name=RATINGS_TASK, delivered_at__isnull=False
    ).exists()


def active_task_pid(name: str) -> int | None:
    """The pid of the pool process running a bot turn on worker ``name``, if one is running."""
    from boomsite.celery import app

    active = app.control.inspect(destination=[name], timeout=1).active() or {}
    for task in active.get(name, []):
        if task["name"] == "games.tasks.bot_play":
            return int(task["worker_pid"])
    return None


def expert_table() -> Match:
    ensure_bot_accounts()
    person = User.objects.create_user(username=f"p{uuid.uuid4().hex[:6]}", password="x")
    # Don't Go Boom starts with everyone choosing a card at once: the expert owes a decision at ply 0.
    return match_create(
        creator=person, game_slug="dont-go-boom", options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("bot", level="expert")],
    )  # fmt: skip


def bot_moves(match: Match) -> list[Any]:
    return list(Move.objects.filter(match=match, seat=1).values_list("ply", "user__username"))


def test_a_killed_pool_process_mid_decision_is_replaced_and_the_turn_played_once(
    site_env: dict[str, str],
) -> None:
    from boomsite.celery import app

    app.control.purge()
    with worker(site_env) as (name, _process):
        match = expert_table()
        pid = wait_for(
            lambda: active_task_pid(name), timeout=30, interval=0.05, what="the bot to start thinking"
        )
        os.kill(pid, signal.SIGKILL)  # mid-decision: the expert thinks for up to a second
        wait_for(lambda: bot_moves(match), timeout=60, what="the redelivered turn to be played")
        assert active_task_pid(name) != pid
    assert bot_moves(match) == [(0, "bot-expert")]


def in_flight(name: str) -> set[str]:
    """The names of the tasks that worker ``name`` is running."""
    from boomsite.celery import app

    active = app.control.inspect(destination=[name], timeout=1).active() or {}
    return {task["name"] for task in active.get(name, [])}


def kill_whole(process: subprocess.Popen[bytes]) -> datetime:
    """SIGKILL a prefork worker and its pool processes at once, as a machine failure
    would (nothing acknowledged, nothing rejected); when it was done."""
    children = subprocess.run(
        ["pgrep", "-P", str(process.pid)], capture_output=True, text=True
    ).stdout.split()
    for pid in [process.pid, *map(int, children)]:
        os.kill(pid, signal.SIGKILL)
    killed = timezone.now()
    process.wait()
    return killed


@contextmanager
def beat(site_env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """Celery beat with the site's schedule (the recovery sweeps every few seconds)."""
    var = Path(site_env["BOOMSITE_VAR_DIR"])
    tag = uuid.uuid4().hex[:8]
    log_path = var / f"beat-{tag}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "boomsite", "beat", "--loglevel", "INFO",
             "--schedule", str(var / f"beat-{tag}"), "--pidfile="],
            cwd=ROOT, env=site_env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_for(
                lambda: process.poll() is not None or b"beat: Starting" in log_path.read_bytes(),
                timeout=60,
                what="Celery beat to start",
            )
            assert process.poll() is None, f"Celery beat exited at start: see {log_path}"
            yield process
        finally:
            stop(process)


def rated_finished_match() -> Match:
    """A finished Go Fox! match of a person and the expert bot, not rated yet."""
    ann = User.objects.create_user(username=f"ann{uuid.uuid4().hex[:6]}", password="x")
    return finished_match("go-fox", [(ann, 2), (bot("expert"), 1)], START)


def test_a_worker_killed_whole_leaves_its_bot_turn_and_announcement_to_the_next_worker_within_20_s(
    site_env: dict[str, str],
) -> None:
    from boomsite.celery import app

    ensure_bot_accounts()
    rated = rated_finished_match()
    app.control.purge()
    # Beat and a second worker run all along, as on a site with two machines; the second
    # takes nothing until the first has taken both tasks (it stops consuming meanwhile).
    with beat(site_env), worker(site_env, concurrency=2, prefix="standby") as (standby, _standby):
        assert app.control.cancel_consumer("celery", destination=[standby], reply=True)
        with worker(site_env, concurrency=2) as (first, process):
            match = expert_table()  # the bot's turn, queued by the commit
            # Both tasks are held where they write: the test locks the match's row and the
            # game's ratings (PostgreSQL: row locks; SQLite: its write lock, BEGIN IMMEDIATE).
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                lock_ledger("go-fox")
                # The ratings' announcement, as the finishing transaction and the send after
                # it leave it (games/effects.py), written here so no sweep sends it before.
                Announcement.objects.create(
                    match=rated, task_name=RATINGS_TASK, sent_at=timezone.now(), attempts=1
                )
                app.send_task(RATINGS_TASK, args=[rated.pk])
                wait_for(
                    lambda: in_flight(first) >= {effects.BOT_PLAY_TASK, RATINGS_TASK},
                    timeout=30,
                    interval=0.05,
                    what="the bot's turn and the ratings to be in the first worker's hands",
                )
                killed = kill_whole(process)
            turn_began = Match.objects.get(pk=match.pk).updated_at
        assert app.control.add_consumer("celery", destination=[standby], reply=True)
        assert bot_moves(match) == [] and not RatingChange.objects.exists()
        wait_for(lambda: bot_moves(match), timeout=60, what="the second worker to play the bot's turn")
        wait_for(lambda: delivered(rated), timeout=60, what="the second worker to rate the match")
    played = Move.objects.get(match=match, seat=1).created_at - killed
    rating = Announcement.objects.get(match=rated)
    assert rating.delivered_at is not None
    delivered_after = rating.delivered_at - killed
    print(
        f"\nworker killed {(killed - turn_began).total_seconds():.1f} s into the bot's turn; "
        f"turn played {played.total_seconds():.1f} s after the kill, "
        f"announcement delivered {delivered_after.total_seconds():.1f} s after it (send {rating.attempts})"
    )
    assert played < timedelta(seconds=20) and delivered_after < timedelta(seconds=20)
    # Exactly once: one move at that ply, the match rated once.
    assert bot_moves(match) == [(0, "bot-expert")]
    assert RatingChange.objects.filter(match=rated).count() == 2
    assert {values[3] for values in ratings_now().values()} == {1}
