"""After-commit work (games/effects.py): the match-finished announcement reaches
every subscriber task after the commit that finished the match, from an outbox row
written with it, and again until the subscriber marks it delivered.

The subscribers are Celery task names in settings.MATCH_FINISHED_TASKS; the test
reads what reached the real broker (the Redis list of Celery's default queue).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import redis
import time_machine
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from games import effects, tasks
from games.models import Announcement, Match, Seat
from games.services import (
    SeatRequest,
    announcement_delivered,
    match_create,
    match_join,
    match_submit_action,
)
from games.tasks import resend_announcements
from tests.games.helpers import random_move

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
        played = random_move(match, people, rng)
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return played


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
    assert announced(broker, match) == [] and not Announcement.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.ply == 0


def test_the_bot_turn_is_queued_by_the_name_its_task_is_registered_under() -> None:
    from games import effects, tasks

    assert tasks.bot_play.name == effects.BOT_PLAY_TASK


def test_an_undelivered_announcement_is_sent_again_until_its_subscriber_is_done(
    match: Match, broker: redis.Redis, ann: User, bob: User
) -> None:
    play_to_the_end(match, {0: ann, 1: bob})
    rows = Announcement.objects.filter(match=match).order_by("task_name")
    assert [(row.task_name, row.attempts) for row in rows] == [(name, 1) for name in sorted(SUBSCRIBERS)]
    assert all(row.sent_at is not None and row.delivered_at is None for row in rows)
    clear(broker, match)

    # Within the retry interval nothing is resent: the subscribers may still be at work.
    assert resend_announcements() == 0 and announced(broker, match) == []
    # The first subscriber finishes its work; the second never does (its worker died).
    assert announcement_delivered(match_id=match.pk, task_name=SUBSCRIBERS[0])
    assert not announcement_delivered(match_id=match.pk, task_name=SUBSCRIBERS[0])  # told once
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.ANNOUNCEMENT_RETRY_SECONDS + 1)):
        assert resend_announcements() == 1
    assert announced(broker, match) == [SUBSCRIBERS[1]]
    assert Announcement.objects.get(match=match, task_name=SUBSCRIBERS[1]).attempts == 2


def test_an_announcement_never_sent_is_sent_by_the_sweep(match: Match, broker: redis.Redis) -> None:
    # As if the process died between the commit and the broker: the row alone survived.
    Announcement.objects.create(match=match, task_name=SUBSCRIBERS[0])
    assert resend_announcements() == 1
    assert announced(broker, match) == [SUBSCRIBERS[0]]
    row = Announcement.objects.get(match=match)
    assert row.attempts == 1 and row.sent_at is not None


def test_an_announcement_is_one_row_per_match_and_subscriber(match: Match) -> None:
    Announcement.objects.create(match=match, task_name=SUBSCRIBERS[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Announcement.objects.create(match=match, task_name=SUBSCRIBERS[0])


def clear(broker: redis.Redis, match: Match) -> None:
    """Take this match's announcements off the broker's queue (as workers would)."""
    for raw in broker.lrange("celery", 0, -1):
        name, args = _task_of(raw)
        if name in SUBSCRIBERS and args == f"[{match.pk}]":
            broker.lrem("celery", 0, raw)  # type: ignore[arg-type]


def test_a_clock_that_has_run_out_already_is_looked_at_at_once(
    broker: redis.Redis, ann: User, bob: User
) -> None:
    from games.services.clocks import vacation_begin, vacation_end

    match = match_create(
        creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    on_turn = match.engine.to_act(match.decoded_state())[0]
    player = {0: ann, 1: bob}[on_turn]
    vacation_begin(user=player, days=1)
    # The turn was paused with nothing left (it had run out as the vacation began).
    Seat.objects.filter(match=match, index=on_turn).update(clock_left=timedelta(0))
    broker.delete("celery")
    vacation_end(user=player)
    queued = [_task_of(raw)[0] for raw in broker.lrange("celery", 0, -1)]
    assert effects.CLOCK_SWEEP_TASK in queued
    assert tasks.sweep_clocks.name == effects.CLOCK_SWEEP_TASK


def test_staff_see_the_outbox_and_may_send_an_undelivered_announcement_again(
    match: Match, broker: redis.Redis, make_person: Any
) -> None:
    from django.contrib.auth.models import Permission
    from django.test import Client

    delivered = Announcement.objects.create(match=match, task_name=SUBSCRIBERS[0], attempts=1)
    announcement_delivered(match_id=match.pk, task_name=SUBSCRIBERS[0])
    owed = Announcement.objects.create(match=match, task_name=SUBSCRIBERS[1], attempts=1)
    staff = make_person("operator", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_announcement"))
    client = Client()
    client.force_login(staff)

    page = client.get("/admin/games/announcement/?delivered=no")
    assert page.status_code == 200
    listed = page.context_data["cl"].result_list  # type: ignore[index]  # a TemplateResponse's
    assert [row.task_name for row in listed] == [SUBSCRIBERS[1]]
    assert client.get(f"/admin/games/announcement/{owed.pk}/change/").status_code == 200

    answer = client.post(
        "/admin/games/announcement/",
        {"action": "send_again", "_selected_action": [delivered.pk, owed.pk]},
        follow=True,
    )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "Sent again: 1." in text and "Left alone, delivered already: 1." in text
    assert announced(broker, match) == [SUBSCRIBERS[1]]
    owed.refresh_from_db()
    delivered.refresh_from_db()
    assert owed.attempts == 2 and delivered.attempts == 1
    # Nothing else is done to the outbox here: no adding, changing or deleting.
    assert client.post(f"/admin/games/announcement/{owed.pk}/delete/").status_code == 403
    assert client.get("/admin/games/announcement/add/").status_code == 403
