"""Ratings on a real Celery worker: a match played to the end is rated through the
match-finished announcement (a killed worker: test_worker_death.py)."""

from __future__ import annotations

import random
import uuid

import pytest

from accounts.models import User
from games.models import Announcement, Match
from games.ratings.models import RatingChange
from games.ratings.services import MATCH_FINISHED_TASK, ratings_rebuild
from games.services import SeatRequest, match_create
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.helpers import random_move
from tests.games.ratings.helpers import changes_now, ratings_now

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def delivered(match: Match) -> bool:
    return Announcement.objects.filter(
        match=match, task_name=MATCH_FINISHED_TASK, delivered_at__isnull=False
    ).exists()


def test_a_match_played_to_the_end_is_rated_by_the_worker(celery_worker_process: str) -> None:
    ensure_bot_accounts()
    ann = User.objects.create_user(username=f"ann{uuid.uuid4().hex[:6]}", password="x")
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    rng = random.Random(7)
    # Ann plays her turns here; the worker plays the bot's.
    for _ in range(2_000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        if 0 in match.engine.to_act(match.decoded_state()):
            random_move(match, {0: ann}, rng)
        else:
            wait_for(lambda: Match.objects.get(pk=match.pk).ply != match.ply, timeout=30, interval=0.02,
                     what="the bot's move")  # fmt: skip
    assert match.status == Match.Status.FINISHED

    wait_for(lambda: delivered(match), timeout=60, what="the rating task to finish")
    changes = RatingChange.objects.filter(match=match).order_by("seat")
    assert [(change.user_id, change.rank) for change in changes] == [
        (seat.user_id, seat.rank) for seat in match.seats.order_by("index")
    ]
    arrived = ratings_now(), changes_now()
    ratings_rebuild(game_slugs=["go-fox"])
    assert (ratings_now(), changes_now()) == arrived
