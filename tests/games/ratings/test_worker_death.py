"""A worker killed in the middle of rating a match: the match is rated once, by the
redelivered task (settings: late acknowledgement, rejection on worker loss).

Its own module: a worker of another test module still running would take the
redelivered task (``celery_worker_process`` lives as long as its module).
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import transaction

from accounts.models import User
from boomsite.celery import app
from games.models import Announcement, Match
from games.ratings.models import RatingChange
from games.ratings.services import MATCH_FINISHED_TASK, lock_ledger, ratings_rebuild
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.ratings.helpers import START, bot, finished_match, ratings_now
from tests.processes import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def delivered(match: Match) -> bool:
    return Announcement.objects.filter(
        match=match, task_name=MATCH_FINISHED_TASK, delivered_at__isnull=False
    ).exists()


@contextmanager
def one_pool_process(site_env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A prefork worker with one pool process, as ``make run`` starts one per core."""
    with celery_worker(site_env, pool="prefork", concurrency=1, prefix="ratings") as started:
        yield started


def rating_task_pid(name: str) -> int | None:
    """The pid of the pool process running a rating task on worker ``name``, if one is running."""
    active = app.control.inspect(destination=[name], timeout=1).active() or {}
    for task in active.get(name, []):
        if task["name"] == MATCH_FINISHED_TASK:
            return int(task["worker_pid"])
    return None


def test_a_worker_killed_while_rating_rates_the_match_once_on_redelivery(site_env: dict[str, str]) -> None:
    ensure_bot_accounts()
    ann = User.objects.create_user(username="ann", password="x")
    match = finished_match("go-fox", [(ann, 2), (bot("expert"), 1)], START)
    # As the finishing transaction leaves it: an outbox row (sent below, as games/effects.py does).
    Announcement.objects.create(match=match, task_name=MATCH_FINISHED_TASK)
    app.control.purge()
    with one_pool_process(site_env) as (name, _process):
        # The test holds the game's ratings, so the task stops inside its transaction
        # (PostgreSQL: at the ledger's row lock; SQLite: at BEGIN IMMEDIATE).
        with transaction.atomic():
            lock_ledger("go-fox")
            app.send_task(MATCH_FINISHED_TASK, args=[match.pk])
            first = wait_for(
                lambda: rating_task_pid(name), timeout=30, interval=0.05, what="the task to start"
            )
            os.kill(first, signal.SIGKILL)  # mid-rating: its transaction dies uncommitted
            again = wait_for(
                lambda: (pid := rating_task_pid(name)) != first and pid,
                timeout=30,
                interval=0.05,
                what="the redelivered task to start in a new pool process",
            )
            assert again != first and not RatingChange.objects.exists()
        wait_for(lambda: delivered(match), timeout=30, what="the redelivered task to finish")
    assert RatingChange.objects.filter(match=match).count() == 2
    arrived = ratings_now()
    assert {values[3] for values in arrived.values()} == {1}
    ratings_rebuild(game_slugs=["go-fox"])
    assert ratings_now() == arrived
