"""Rating runs at the same moment (two workers, a resent announcement racing the first):
each match counts once and no update of a rating is lost, on SQLite and on PostgreSQL.

Each run is a thread with its own database connection. They are started while the test
holds the game's ledger (games/ratings/services.py), so they all wait at the same lock
and go at once when it is let go: on PostgreSQL at the row lock, on SQLite at BEGIN
IMMEDIATE, which waits for the database's one write lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.db import connection, transaction

from accounts.models import User
from games.ratings.models import RatingChange
from games.ratings.services import RateOutcome, lock_ledger, match_rate, ratings_rebuild
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.ratings.helpers import START, bot, changes_now, finished_match, ratings_now

pytestmark = pytest.mark.django_db(transaction=True)


def waiting_at_a_lock() -> int:
    """Other connections of this database waiting for a lock (PostgreSQL only)."""
    with connection.cursor() as cursor:
        # Inside a transaction PostgreSQL keeps one snapshot of its statistics: take a fresh one.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return int(cursor.fetchone()[0])


def all_at_once(game: str, calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Run each call in its own thread while ``game``'s ledger is held, then let them all go."""
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []
    started = threading.Barrier(len(calls) + 1)

    def run(number: int) -> None:
        try:
            started.wait()
            results[number] = calls[number]()
        except BaseException as error:  # reported after the join
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(len(calls))]
    with transaction.atomic():
        lock_ledger(game)
        for thread in threads:
            thread.start()
        started.wait()
        if connection.vendor == "postgresql":
            # (Or until they all ended: without the ledger's lock they would not wait.)
            wait_for(
                lambda: not any(thread.is_alive() for thread in threads) or waiting_at_a_lock() >= len(calls),
                timeout=10,
                interval=0.05,
                what="every run to wait at the lock",
            )
        else:
            time.sleep(0.5)  # every run is at BEGIN IMMEDIATE by now: SQLite shows no waits
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def test_two_runs_of_one_match_at_once_apply_it_once(ann: User, bob: User) -> None:
    match = finished_match("go-fox", [(ann, 1), (bob, 2)], START)
    outcomes = all_at_once("go-fox", [lambda: match_rate(match_id=match.pk)] * 2)
    assert sorted(outcomes) == [RateOutcome.ALREADY_RATED, RateOutcome.RATED]
    assert RatingChange.objects.filter(match=match).count() == 2
    arrived = ratings_now()
    assert {values[3] for values in arrived.values()} == {1}  # one rated match each
    ratings_rebuild(game_slugs=["go-fox"])
    assert ratings_now() == arrived


def test_matches_sharing_players_rated_at_once_lose_no_update_and_keep_their_order(
    ann: User, bob: User
) -> None:
    ensure_bot_accounts()
    basic = bot("basic")
    # Ann in all four, the bot in three: every pair of runs races for a rating row.
    matches = [
        finished_match("go-fox", [(ann, 1), (bob, 2), (basic, 3)], START),
        finished_match("go-fox", [(basic, 1), (ann, 2)], START + timedelta(seconds=1)),
        finished_match("go-fox", [(ann, 1), (bob, 1)], START + timedelta(seconds=2)),
        finished_match("go-fox", [(bob, 1), (basic, 2), (ann, 3)], START + timedelta(seconds=3)),
    ]
    # Their ratings exist already: a lost update would be silent, not a refused insert.
    match_rate(
        match_id=finished_match("go-fox", [(bob, 1), (ann, 2), (basic, 3)], START - timedelta(days=1)).pk
    )
    runs = [partial(match_rate, match_id=match.pk) for match in reversed(matches)]
    assert all_at_once("go-fox", runs) == [RateOutcome.RATED] * 4
    arrived = ratings_now(), changes_now()
    assert arrived[0][(ann.pk, "go-fox")][3] == 5

    ratings_rebuild(game_slugs=["go-fox"])
    assert (ratings_now(), changes_now()) == arrived
