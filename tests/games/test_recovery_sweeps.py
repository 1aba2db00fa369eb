"""The recovery sweeps (games/tasks.py) without a worker: what they send to the broker.

``sweep_bot_turns`` queues a waiting bot turn again once it has waited
``BOT_TURN_STALE_SECONDS`` since it was last queued, and then not again before it has
waited as long once more, however often the beat runs it; ``resend_announcements``
sends an undelivered announcement again after ``ANNOUNCEMENT_RETRY_SECONDS``, then
after twice as long each time, up to ``ANNOUNCEMENT_RETRY_MAX_SECONDS``. Time is moved
with time-machine; what was sent is read from the real broker's queue. The worker-kill
tests (test_bot_reliability.py) show the same sweeps recovering a dead worker's work.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
import redis
import time_machine
from django.conf import settings
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from games import effects
from games.models import Announcement, Match, Seat
from games.services import SeatRequest, match_create, match_join, match_resign
from games.tasks import resend_announcements, sweep_bot_turns
from tests.conftest import ensure_bot_accounts

pytestmark = pytest.mark.django_db(transaction=True)

SUBSCRIBER = "features.probe.rate_match"


def sent(broker: redis.Redis, task_name: str) -> list[str]:
    """The arguments of every ``task_name`` message waiting in the queue, and take them off."""
    found = []
    for raw in broker.lrange("celery", 0, -1):
        headers = json.loads(raw).get("headers", {})
        if headers.get("task") == task_name:
            found.append(headers.get("argsrepr", ""))
            broker.lrem("celery", 0, raw)  # type: ignore[arg-type]  # redis-py returns what it stores
    return found


def bot_turns(broker: redis.Redis) -> list[str]:
    return sent(broker, effects.BOT_PLAY_TASK)


def bot_to_move(person: User, game: str = "dont-go-boom") -> Match:
    """A match whose expert bot owes a decision at ply 0 (its task is in the queue)."""
    return match_create(
        creator=person, game_slug=game, options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("bot", level="expert")],
    )  # fmt: skip


def after(seconds: float, since: datetime) -> time_machine.travel:
    return time_machine.travel(since + timedelta(seconds=seconds), tick=False)


def test_a_waiting_bot_turn_is_queued_again_once_per_stale_interval_however_often_the_sweep_runs(
    broker: redis.Redis, ann: User
) -> None:
    ensure_bot_accounts()
    match = bot_to_move(ann)
    began = Match.objects.get(pk=match.pk).updated_at
    assert bot_turns(broker) == [f"[{match.pk}, 0]"]  # queued by the move's commit
    stale = settings.BOT_TURN_STALE_SECONDS
    with after(stale - 1, began):
        assert sweep_bot_turns() == 0  # not yet: its task may be at work
    with after(stale + 0.5, began):
        assert sweep_bot_turns() == 1
        assert sweep_bot_turns() == 0  # the next sweep, seconds later: queued already
    assert bot_turns(broker) == [f"[{match.pk}, 0]"]
    requeued = Match.objects.get(pk=match.pk).bot_requeued_at
    assert requeued is not None
    with after(stale - 1, requeued):
        assert sweep_bot_turns() == 0
    with after(stale + 0.5, requeued):
        assert sweep_bot_turns() == 1
    assert bot_turns(broker) == [f"[{match.pk}, 0]"]


def test_a_bot_turn_played_or_given_up_is_not_queued_again(broker: redis.Redis, ann: User) -> None:
    ensure_bot_accounts()
    match = bot_to_move(ann)
    bot_turns(broker)
    Seat.objects.filter(match=match, index=1).update(owes_decision=False)  # the bot moved
    with after(settings.BOT_TURN_STALE_SECONDS + 1, timezone.now()):
        assert sweep_bot_turns() == 0
    Seat.objects.filter(match=match, index=1).update(owes_decision=True)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CANCELLED)
    with after(settings.BOT_TURN_STALE_SECONDS + 1, timezone.now()):
        assert sweep_bot_turns() == 0
    assert bot_turns(broker) == []


def test_the_autopilot_of_a_resigned_player_is_found_waiting_too(
    broker: redis.Redis, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    ensure_bot_accounts()
    carol = make_person("carol")
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("invite", username="carol")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    match_resign(match_id=match.pk, user=carol)  # two people play on: the autopilot takes her seat
    assert Seat.objects.get(match=match, index=2).owes_decision
    bot_turns(broker)
    with after(settings.BOT_TURN_STALE_SECONDS + 1, timezone.now()):
        assert sweep_bot_turns() == 1
    assert bot_turns(broker) == [f"[{match.pk}, {Match.objects.get(pk=match.pk).ply}]"]


def test_a_sweep_queues_the_longest_waiting_turns_first_and_at_most_its_limit(
    broker: redis.Redis, ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import tasks

    ensure_bot_accounts()
    start = timezone.now()
    matches = []
    for minutes in (3, 1, 2):
        with time_machine.travel(start - timedelta(minutes=minutes), tick=False):
            matches.append(bot_to_move(ann))
    bot_turns(broker)
    monkeypatch.setattr(tasks, "RECOVERY_LIMIT", 2)
    assert sweep_bot_turns() == 2
    assert sorted(bot_turns(broker)) == sorted([f"[{matches[0].pk}, 0]", f"[{matches[2].pk}, 0]"])
    assert sweep_bot_turns() == 1  # the next sweep: the one left (the others were just queued)
    assert bot_turns(broker) == [f"[{matches[1].pk}, 0]"]


def test_an_undelivered_announcement_waits_twice_as_long_after_each_send_up_to_the_longest(
    broker: redis.Redis, settings: Settings, ann: User
) -> None:
    settings.MATCH_FINISHED_TASKS = [SUBSCRIBER]
    ensure_bot_accounts()
    match = bot_to_move(ann)
    Announcement.objects.create(match=match, task_name=SUBSCRIBER)
    assert resend_announcements() == 1  # never sent (its process died after the commit): now
    first, longest = settings.ANNOUNCEMENT_RETRY_SECONDS, settings.ANNOUNCEMENT_RETRY_MAX_SECONDS
    waits: list[float] = []
    while not waits or waits[-1] < longest:
        row = Announcement.objects.get(match=match)
        assert row.sent_at is not None
        wait = min(first * 2 ** (row.attempts - 1), longest)
        with after(wait - 0.5, row.sent_at):
            assert resend_announcements() == 0
        with after(wait + 0.5, row.sent_at):
            assert resend_announcements() == 1
        waits.append(wait)
    assert waits == [10, 20, 40, 80, 120]
    row = Announcement.objects.get(match=match)
    assert row.sent_at is not None
    with after(longest + 0.5, row.sent_at):  # and every ANNOUNCEMENT_RETRY_MAX_SECONDS from then on
        assert resend_announcements() == 1
    assert sent(broker, SUBSCRIBER) == [f"[{match.pk}]"] * 7
    Announcement.objects.filter(match=match).update(delivered_at=timezone.now())
    with after(longest * 10, timezone.now()):
        assert resend_announcements() == 0
