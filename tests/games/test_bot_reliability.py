"""A bot's turn is played exactly once, even when the worker dies in the middle of deciding.

Two ways a worker dies, two ways back (settings: late acknowledgement, rejection on
worker loss; games.tasks: the sweep):

- the pool process running the task is killed: the worker rejects the task, the
  broker hands it out again, and the worker's next pool process plays the turn;
- the whole worker is killed: its unacknowledged task waits in the broker, and the
  sweep queues the turn again for the next worker to take.

The expert bot thinks for up to a second, so the kill lands mid-decision.
"""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Match, Move
from games.services import SeatRequest, match_create
from games.tasks import sweep_bot_turns
from tests.conftest import ensure_bot_accounts, wait_for
from tests.processes import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@contextmanager
def worker(site_env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A prefork worker with one pool process, as ``make run`` starts one per core."""
    with celery_worker(site_env, pool="prefork", concurrency=1, prefix="reliability") as started:
        yield started


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


def test_a_killed_worker_mid_decision_leaves_the_turn_to_the_next_worker_once(
    site_env: dict[str, str],
) -> None:
    from boomsite.celery import app

    app.control.purge()
    with worker(site_env) as (first, process):
        match = expert_table()
        wait_for(lambda: active_task_pid(first), timeout=30, interval=0.05, what="the bot to start thinking")
        # The whole worker dies at once (its pool process with it): nothing is acknowledged.
        children = subprocess.run(
            ["pgrep", "-P", str(process.pid)], capture_output=True, text=True
        ).stdout.split()
        for pid in [process.pid, *map(int, children)]:
            os.kill(pid, signal.SIGKILL)
        process.wait()
    assert bot_moves(match) == []
    with worker(site_env):
        # The sweep finds the turn waiting (the task sits unacknowledged in the broker
        # until its visibility timeout) and queues it for the worker now running.
        Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
        assert sweep_bot_turns() == 1
        wait_for(lambda: bot_moves(match), timeout=60, what="the next worker to play the turn")
    assert bot_moves(match) == [(0, "bot-expert")]
