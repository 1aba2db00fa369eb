"""The match-finished outbox does not grow nor send forever: ``resend_announcements``
gives an announcement up after ``ANNOUNCEMENT_MAX_ATTEMPTS`` sends (logged, shown in the
admin, which may send it again), and ``prune_announcements`` deletes what was delivered
``ANNOUNCEMENT_RETENTION_DAYS`` ago. Time moves with time-machine; what was sent is read
from the real broker's queue (no worker runs here)."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

import pytest
import redis
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from games.models import Announcement, Match
from games.services import SeatRequest, match_create
from games.tasks import prune_announcements, resend_announcements

pytestmark = pytest.mark.django_db(transaction=True)

SUBSCRIBER = "features.probe.never_done"


def sent_to_subscriber(broker: redis.Redis) -> int:
    return sum(
        json.loads(raw).get("headers", {}).get("task") == SUBSCRIBER for raw in broker.lrange("celery", 0, -1)
    )


def a_match(person: User) -> Match:
    return match_create(
        creator=person, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )


def after(seconds: float, since: datetime) -> time_machine.travel:
    return time_machine.travel(since + timedelta(seconds=seconds), tick=False)


def sweep_when_due(announcement: Announcement) -> int:
    """Run the sweep just after ``announcement``'s next send is due."""
    row = Announcement.objects.get(pk=announcement.pk)
    if row.sent_at is None:
        return resend_announcements()
    with after(settings.ANNOUNCEMENT_RETRY_MAX_SECONDS + 1, row.sent_at):
        return resend_announcements()


def test_an_announcement_never_delivered_is_given_up_after_the_last_attempt_and_logged(
    broker: redis.Redis, settings: Settings, ann: User, caplog: pytest.LogCaptureFixture
) -> None:
    settings.MATCH_FINISHED_TASKS = [SUBSCRIBER]
    settings.ANNOUNCEMENT_MAX_ATTEMPTS = 3
    match = a_match(ann)
    row = Announcement.objects.create(match=match, task_name=SUBSCRIBER)
    assert [sweep_when_due(row) for _ in range(3)] == [1, 1, 1]
    row.refresh_from_db()
    assert row.attempts == 3 and row.gave_up_at is None and row.sent_at is not None
    # Before its last copy had its time to be delivered, nothing is decided.
    with after(settings.ANNOUNCEMENT_RETRY_SECONDS * 4 - 1, row.sent_at):
        assert resend_announcements() == 0
    assert Announcement.objects.get(pk=row.pk).gave_up_at is None
    with caplog.at_level(logging.WARNING, logger="games.tasks"):
        assert sweep_when_due(row) == 0
    row.refresh_from_db()
    assert row.gave_up_at is not None and row.delivered_at is None and row.attempts == 3
    assert [record.getMessage() for record in caplog.records if "gave up" in record.getMessage()] == [
        f"gave up the match-finished announcement of match {match.pk} to {SUBSCRIBER} after 3 attempts"
    ]
    with after(3600, timezone.now()):  # and no copy after that, however long it waits
        assert resend_announcements() == 0
    assert sent_to_subscriber(broker) == 3


def test_a_delivery_that_comes_before_the_give_up_is_kept_as_a_delivery(
    broker: redis.Redis, settings: Settings, ann: User
) -> None:
    settings.ANNOUNCEMENT_MAX_ATTEMPTS = 1
    row = Announcement.objects.create(match=a_match(ann), task_name=SUBSCRIBER)
    assert sweep_when_due(row) == 1
    Announcement.objects.filter(pk=row.pk).update(delivered_at=timezone.now())
    assert sweep_when_due(row) == 0
    row.refresh_from_db()
    assert row.delivered_at is not None and row.gave_up_at is None


def test_given_up_announcements_are_shown_in_the_admin_and_sending_one_again_owes_it_again(
    broker: redis.Redis, settings: Settings, ann: User, superuser: Client
) -> None:
    match = a_match(ann)
    gave_up = Announcement.objects.create(
        match=match, task_name=SUBSCRIBER, attempts=30, sent_at=timezone.now(), gave_up_at=timezone.now()
    )
    owed = Announcement.objects.create(match=match, task_name="features.probe.still_trying", attempts=2)
    page = superuser.get("/admin/games/announcement/?delivered=gave_up")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Gave up" in html and "gave up at" in html.lower()  # the filter and the column
    assert f'<td class="field-task_name">{SUBSCRIBER}</td>' in html
    assert '<td class="field-task_name">features.probe.still_trying</td>' not in html
    assert '<td class="field-attempts">30</td>' in html
    response = superuser.post(
        "/admin/games/announcement/",
        {"action": "send_again", "_selected_action": [gave_up.pk, owed.pk]},
        follow=True,
    )
    assert "Sent again: 2." in response.content.decode()
    gave_up.refresh_from_db()
    # Owed again, with its attempts from zero (and this send counted): the sweep goes on.
    assert gave_up.gave_up_at is None and gave_up.attempts == 1
    assert sent_to_subscriber(broker) == 1


def test_the_prune_deletes_only_announcements_delivered_longer_ago_than_the_retention(
    settings: Settings, ann: User
) -> None:
    settings.ANNOUNCEMENT_RETENTION_DAYS = 30
    now = timezone.now()
    days = timedelta(days=1)
    match = a_match(ann)

    def row(name: str, **fields: object) -> Announcement:
        return Announcement.objects.create(match=match, task_name=name, **fields)

    old_delivered = row("old.delivered", delivered_at=now - 31 * days)
    row("recent.delivered", delivered_at=now - 29 * days)
    row("old.owed", sent_at=now - 40 * days, attempts=5)
    row("old.gave_up", sent_at=now - 40 * days, attempts=30, gave_up_at=now - 39 * days)
    Announcement.objects.filter(pk=old_delivered.pk).update(created_at=now - 32 * days)
    with time_machine.travel(now, tick=False):
        assert prune_announcements() == 1
        assert prune_announcements() == 0
    left = set(Announcement.objects.filter(match=match).values_list("task_name", flat=True))
    assert left == {"recent.delivered", "old.owed", "old.gave_up"}
