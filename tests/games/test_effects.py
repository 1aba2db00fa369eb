"""After-commit work (games/effects.py): the match-finished announcement reaches
every subscriber task once, after the commit that finished the match.

The subscribers are Celery task names in settings.MATCH_FINISHED_TASKS; the test
reads what reached the real broker (the Redis list of Celery's default queue).
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import transaction
from pytest_django.fixtures import Settings

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_submit_action

pytestmark = pytest.mark.django_db(transaction=True)

SUBSCRIBERS = ["features.probe.rate_match", "features.probe.advance_bracket"]


@pytest.fixture
def broker() -> Iterator[redis.Redis]:
    """The broker's Redis (database of REDIS_URL), with this test's messages removed after."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    yield client
    for raw in client.lrange("celery", 0, -1):
        if _task_of(raw)[0] in SUBSCRIBERS:
            client.lrem("celery", 0, raw)  # type: ignore[arg-type]  # redis-py returns what it stores
    client.close()


def _task_of(raw: bytes | str) -> tuple[str, str]:
    headers = json.loads(raw).get("headers", {})
    return headers.get("task", ""), headers.get("argsrepr", "")


def announced(broker: redis.Redis, match: Match) -> list[str]:
    """The subscriber tasks queued for ``match``, by name."""
    return sorted(
        name
        for name, args in (_task_of(raw) for raw in broker.lrange("celery", 0, -1))
        if name in SUBSCRIBERS and args == f"[{match.pk}]"
    )


def play_to_the_end(match: Match, people: dict[int, User]) -> tuple[User, int, dict[str, Any], str]:
    """Random legal moves until the match finishes; the finishing move (who, ply, action, id)."""
    rng = random.Random(3)
    while True:
        match.refresh_from_db()
        game = match.engine
        state = match.decoded_state()
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        action_id = str(uuid.uuid4())
        ply = match.ply
        match_submit_action(match_id=match.pk, user=people[seat], action=action, ply=ply, action_id=action_id)
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return people[seat], ply, action, action_id


@pytest.fixture
def match(settings: Settings, ann: User, bob: User) -> Match:
    """A running It's a Bomb! match of Ann and Bob (random play ends it in a few moves),
    with the probe subscribers listed."""
    settings.MATCH_FINISHED_TASKS = SUBSCRIBERS
    created = match_create(
        creator=ann, game_slug="its-a-bomb", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=created.pk, user=bob)
    return Match.objects.get(pk=created.pk)


def test_a_finished_match_is_announced_to_every_subscriber_once_after_commit(
    match: Match, broker: redis.Redis, ann: User, bob: User
) -> None:
    assert announced(broker, match) == []
    mover, ply, action, action_id = play_to_the_end(match, {0: ann, 1: bob})
    assert announced(broker, match) == sorted(SUBSCRIBERS)

    # The finishing move resent (a retry after a lost answer): the first answer, no announcement.
    again = match_submit_action(match_id=match.pk, user=mover, action=action, ply=ply, action_id=action_id)
    assert again.duplicate
    assert announced(broker, match) == sorted(SUBSCRIBERS)


def test_nothing_is_announced_by_a_transaction_that_rolls_back(
    match: Match, broker: redis.Redis, ann: User, bob: User
) -> None:

    class RolledBack(Exception):
        pass

    def finish_then_roll_back() -> None:
        with transaction.atomic():
            play_to_the_end(match, {0: ann, 1: bob})
            raise RolledBack

    with pytest.raises(RolledBack):
        finish_then_roll_back()
    assert announced(broker, match) == []
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.ply == 0


def test_the_bot_turn_is_queued_by_the_name_its_task_is_registered_under() -> None:
    from games import effects, tasks

    assert tasks.bot_play.name == effects.BOT_PLAY_TASK
