"""A real Celery worker killed in the middle of a clock sweep loses and duplicates nothing:
each time-out is one transaction, so the one in flight is rolled back and the next
sweep does it, once (games/services/clocks.py ``seat_time_out``)."""

from __future__ import annotations

import contextlib
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games.locks import lock_match
from games.models import Match, Move, Seat
from games.services import SeatRequest, match_create, match_join
from games.tasks import sweep_clocks
from tests.conftest import ensure_bot_accounts, wait_for
from tests.processes import celery_worker, frozen_once

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MATCHES = 60
STOP_AT = 10  # on PostgreSQL, the duel the sweep is held at (0-based)


def clocked_duels(count: int) -> list[Match]:
    """Go Fox! duels with an hour per turn, each on a person's turn whose clock has run out."""
    ann = User.objects.create_user(username=f"a{uuid.uuid4().hex[:6]}", password="x")
    bob = User.objects.create_user(username=f"b{uuid.uuid4().hex[:6]}", password="x")
    duels = []
    for _ in range(count):
        match = match_create(
            creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
            seats=[SeatRequest("me"), SeatRequest("invite", username=bob.username)],
        )  # fmt: skip
        match_join(match_id=match.pk, user=bob)
        duels.append(match)
    # An hour has gone by in the worker's world too (its clock cannot be moved from here),
    # a millisecond apart, so that the sweep (oldest first) takes the duels in order.
    ran_out = timezone.now() - timedelta(minutes=1)
    for number, match in enumerate(duels):
        Seat.objects.filter(match=match, deadline_at__isnull=False).update(
            deadline_at=ran_out + timedelta(milliseconds=number)
        )
    return duels


def test_a_worker_killed_mid_sweep_loses_and_duplicates_nothing(site_env: dict[str, str]) -> None:
    from boomsite.celery import app

    ensure_bot_accounts()
    app.control.purge()
    duels = clocked_duels(MATCHES)
    played = Move.objects.filter(match__in=duels, user=None)
    postgresql = connection.vendor == "postgresql"
    # (On SQLite a transaction here would hold the one write lock and stop the sweep at once.)
    held = transaction.atomic() if postgresql else contextlib.nullcontext()
    with celery_worker(site_env, prefix="clocks") as (_name, process), held:
        if postgresql:
            # The test holds the 11th duel's row: the sweep does ten and waits there.
            lock_match(duels[STOP_AT].pk)
            app.send_task("games.tasks.sweep_clocks")
            wait_for(lambda: played.count() == STOP_AT, timeout=60, interval=0.02, what="ten time-outs")
        else:
            # SQLite has no row lock to wait at: freeze the worker as soon as it is under way.
            app.send_task("games.tasks.sweep_clocks")
            wait_for(lambda: frozen_once(process, lambda: played.count() >= 3), timeout=60, interval=0,
                     what="the sweep to be under way")  # fmt: skip
        process.kill()  # SIGKILL, in the middle of the sweep
        process.wait()
    done_by_the_dead_worker = played.count()
    assert done_by_the_dead_worker < MATCHES, "the worker finished before it was killed: nothing was tested"
    # The next sweep does the rest; nothing is played twice.
    assert sweep_clocks()["timed_out"] == MATCHES - done_by_the_dead_worker
    per_match = {match.pk: played.filter(match=match).count() for match in duels}
    assert set(per_match.values()) == {1}
    assert all(seat.timeouts == 1 for seat in Seat.objects.filter(match__in=duels, timeouts__gt=0))
    assert Seat.objects.filter(match__in=duels, timeouts__gt=0).count() == MATCHES
