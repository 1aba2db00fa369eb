"""Web Push, sent for real (games/notify/push.py): the site's sweep and the tournament's
hooks send each push once, to every device of the person, signed with the site's VAPID
key and encrypted for the device (RFC 8291), to a push service on 127.0.0.1 that checks
the signature, decrypts the body and keeps what it read (tests/games/notify/push_service.py).

Time moves with time-machine; the notify sweep is the beat's task, called as a function
(pushes first, then emails)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.conf import settings
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from games.live import presence
from games.models import Match
from games.notify import push, push_devices, services
from games.notify.emails import EventNews
from games.notify.models import PushNotice, PushSubscription
from games.notify.tasks import sweep_notices
from games.services import SeatRequest, match_create, match_join
from games.services.clocks import vacation_begin
from tests.games.helpers import on_turn, seat, until_turn_passes
from tests.games.notify.helpers import Outbox, at_the_table, seat_of, to
from tests.games.notify.push_service import Device, PushService

pytestmark = pytest.mark.django_db

GRACE = timedelta(seconds=settings.NUDGE_GRACE_SECONDS)
SECOND = timedelta(seconds=1)


@pytest.fixture
def push_service(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[PushService]:
    settings.WEB_PUSH_SERVICES = ["127.0.0.1"]  # the only push service the site may post to here
    with PushService(tmp_path) as service:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(service.certificate))  # its certificate, trusted
        yield service


def subscribe(user: User, service: PushService, name: str) -> Device:
    """A device of ``user`` turned notifications on: its subscription kept as the page's post keeps it."""
    device = service.device(name)
    subscription = push_devices.subscription_from_json(device.subscription())
    push_devices.device_subscribe(user=user, subscription=subscription)
    return device


def invite(creator: User, guest: User) -> Match:
    return match_create(
        creator=creator, game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username=guest.username)],
    )  # fmt: skip


def test_a_turn_is_pushed_once_to_each_device_as_it_arrives(
    push_service: PushService, outbox: Outbox, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    player, other = waiting.user, seat(clocked, 1 - waiting.index).user
    assert player is not None and other is not None and waiting.nudge_at is not None
    subscribe(player, push_service, "phone")
    subscribe(player, push_service, "laptop")
    subscribe(other, push_service, "others-phone")

    assert sweep_notices() == {"turn push sent": 1}  # at once: not after the email's grace
    assert push_service.refused == []
    pushes = push_service.pushes()
    assert sorted(push.device for push in pushes) == ["laptop", "phone"]
    assert pushes[0].message == pushes[1].message
    message = pushes[0].message
    assert message["kind"] == "turn" and message["title"] == "Your turn in Go Fox!"
    assert f"With {other.public_name}." in message["body"] and "left." in message["body"]
    assert message["url"] == f"/matches/{clocked.pk}/" and message["tag"] == f"match-{clocked.pk}"
    assert pushes[0].topic == f"match-{clocked.pk}" and pushes[0].urgency == "normal"
    assert 3500 < pushes[0].ttl <= 3600  # kept no longer than the turn lasts (an hour)
    notice = PushNotice.objects.get()
    assert (notice.kind, notice.ply, notice.status, notice.devices) == (
        "turn",
        waiting.decision_ply,
        "sent",
        2,
    )
    assert all(device.last_success_at is not None for device in PushSubscription.objects.filter(user=player))

    assert sweep_notices() == {}  # once
    assert push.seat_push(seat_id=waiting.pk, kind="turn") == "taken"  # a second sweep that read it too
    with time_machine.travel(waiting.nudge_at + SECOND, tick=False):
        assert sweep_notices() == {"turn sent": 1}  # the email still comes after its grace
    assert len(push_service.pushes()) == 2
    assert [to(mail) for mail in outbox.mails()] == [player.email]


def test_a_player_looking_at_the_match_is_pushed_only_a_minute_after_leaving_it(
    push_service: PushService, clocked: Match
) -> None:
    waiting = seat_of(clocked, seat(clocked, on_turn(clocked)).user)  # type: ignore[arg-type]
    assert waiting.user is not None
    subscribe(waiting.user, push_service, "phone")
    at_the_table(clocked, waiting.user)
    assert sweep_notices() == {}
    async_to_sync(presence.forget)(clocked.pk, "a-socket", "seat-0", waiting.user.pk)  # closes the page
    left = timezone.now()
    with time_machine.travel(left + push.AWAY - SECOND, tick=False):
        assert sweep_notices() == {}
    with time_machine.travel(left + push.AWAY + SECOND, tick=False):
        assert sweep_notices() == {"turn push sent": 1}
    assert [push.message["kind"] for push in push_service.pushes()] == ["turn"]


def test_the_alarm_replaces_the_turn_on_the_device(
    push_service: PushService, outbox: Outbox, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None and waiting.alarm_at is not None and waiting.deadline_at is not None
    subscribe(waiting.user, push_service, "phone")
    assert sweep_notices() == {"turn push sent": 1}
    with time_machine.travel(waiting.alarm_at + SECOND, tick=False):
        counts = sweep_notices()
    assert counts["alarm push sent"] == 1 and counts["alarm sent"] == 1  # the push, then the email
    turn, alarm = push_service.pushes()
    assert alarm.message["title"] == "11 minutes left for your turn in Go Fox!"
    assert alarm.message["tag"] == turn.message["tag"] == alarm.topic  # the same match: it replaces the turn
    assert alarm.urgency == "high"
    assert alarm.ttl <= (waiting.deadline_at - waiting.alarm_at).total_seconds()  # useless after the deadline


def test_an_invitation_is_pushed_at_once_and_once(
    push_service: PushService, outbox: Outbox, ann: User, bob: User
) -> None:
    subscribe(bob, push_service, "phone")
    match = invite(ann, bob)
    assert sweep_notices() == {"invitation push sent": 1}
    assert sweep_notices() == {}
    (pushed,) = push_service.pushes()
    assert pushed.message["title"] == "Ann invites you to play Go Fox!"
    assert pushed.message["body"] == "1 hour per turn. Open it to accept or decline."
    assert (pushed.message["url"], pushed.message["kind"]) == (f"/matches/{match.pk}/", "invitation")
    assert pushed.ttl == 24 * 3600  # a day: after that, the email and the digest have told it
    with time_machine.travel(timezone.now() + GRACE + SECOND, tick=False):
        assert sweep_notices() == {"invitation sent": 1}  # the email after its grace; no second push
    assert len(push_service.pushes()) == 1


def test_an_answered_invitation_is_not_pushed(push_service: PushService, ann: User, bob: User) -> None:
    subscribe(bob, push_service, "phone")
    match = invite(ann, bob)
    match_join(match_id=match.pk, user=bob)  # he answered (on another device) before the sweep
    sweep_notices()
    assert "invitation" not in [push.message["kind"] for push in push_service.pushes()]


def test_a_tournament_table_is_pushed_once_beside_its_email(
    push_service: PushService, outbox: Outbox, clocked: Match, ann: User, bob: User
) -> None:
    subscribe(bob, push_service, "phone")
    subscribe(ann, push_service, "anns-phone")
    bobs = seat_of(clocked, bob)
    for _ in range(2):  # the tournament's task may run twice: once is the key's to decide
        services.table_ready_notice(seat_id=bobs.pk, about="round 2 of Autumn Cup")
    (table,) = push_service.pushes("phone")
    assert table.message["title"] == "Your table is ready: round 2 of Autumn Cup"
    assert table.message["body"].startswith("Go Fox! with Ann, 1 hour per turn.")
    assert table.message["url"] == f"/matches/{clocked.pk}/"
    assert PushNotice.objects.filter(kind="table", user=bob).count() == 1
    assert [to(mail) for mail in outbox.mails()] == [bob.email]  # and its email, once

    # Round 1's table is told by the tournament's start, whose first link is the table.
    start = EventNews(
        subject="Autumn Cup has started: your table is ready",
        paragraphs=("Autumn Cup (Go Fox!) has started, with 2 entrants.",),
        links=(("Go to your table", f"/matches/{clocked.pk}/"), ("See the tournament", "/tournaments/1/")),
    )
    services.event_notice(user_id=ann.pk, kind=services.Kind.STARTED, event="tournament 1", news=start)
    (started,) = push_service.pushes("anns-phone")
    assert started.message["title"] == "Autumn Cup has started: your table is ready"
    assert started.message["url"] == f"/matches/{clocked.pk}/"
    # A start with a bye has no table to play: no push (the email tells it).
    bye = EventNews(subject="Autumn Cup has started: you have a bye in round 1", paragraphs=("…",),
                    links=(("See the tournament", "/tournaments/2/"),))  # fmt: skip
    services.event_notice(user_id=bob.pk, kind=services.Kind.STARTED, event="tournament 2", news=bye)
    assert PushNotice.objects.filter(kind="table").count() == 2


def test_nothing_is_pushed_on_vacation_or_when_a_kind_is_turned_off(
    push_service: PushService, clocked: Match, ann: User
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    subscribe(waiting.user, push_service, "phone")
    push_devices.push_choices_update(user=waiting.user, turn=False, invitation=True, table=True)
    assert sweep_notices() == {}
    services.table_ready_notice(seat_id=waiting.pk, about="round 2 of Autumn Cup")  # tables: still on
    assert [push.message["kind"] for push in push_service.pushes()] == ["table"]

    dan = User.objects.create_user(username="dan", email="dan@example.com", password="pw-dan")
    subscribe(dan, push_service, "dans-phone")
    push_devices.push_choices_update(user=dan, turn=True, invitation=False, table=True)
    invite(ann, dan)
    cat = User.objects.create_user(username="cat", email="cat@example.com", password="pw-cat")
    subscribe(cat, push_service, "cats-phone")
    vacation_begin(user=cat, days=3)
    invite(ann, cat)
    assert sweep_notices() == {}
    assert [push.message["kind"] for push in push_service.pushes()] == ["table"]
    assert not PushNotice.objects.filter(kind="invitation").exists()

    push_devices.push_choices_update(user=dan, turn=True, invitation=True, table=True)
    assert sweep_notices() == {"invitation push sent": 1}  # turned back on: the waiting invitation comes
    assert push_service.pushes()[-1].device == "dans-phone"


def test_a_device_whose_push_service_says_gone_is_forgotten(
    push_service: PushService, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    subscribe(waiting.user, push_service, "old-phone")
    subscribe(waiting.user, push_service, "new-phone")
    push_service.answers["old-phone"] = 410
    assert sweep_notices() == {"turn push sent": 1}
    assert [push.device for push in push_service.pushes()] == ["new-phone"]
    assert [device.endpoint for device in PushSubscription.objects.all()] == [
        push_service.devices["new-phone"].endpoint
    ]

    push_service.answers["new-phone"] = 404
    services.table_ready_notice(seat_id=waiting.pk, about="round 2")
    assert not PushSubscription.objects.exists()  # its last device gone too
    notice = PushNotice.objects.get(kind="table")
    assert (notice.status, notice.note) == ("dropped", "every device is gone")
    assert sweep_notices() == {}


def test_a_push_no_service_took_is_retried_once_later_and_never_twice(
    push_service: PushService, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    subscribe(waiting.user, push_service, "phone")
    push_service.answers["phone"] = 503
    assert sweep_notices() == {"turn push failed": 1}
    notice = PushNotice.objects.get()
    assert (notice.status, notice.attempts) == ("claimed", 1)
    assert sweep_notices() == {}  # claimed: neither due again nor old enough to retry
    del push_service.answers["phone"]
    with time_machine.travel(notice.claimed_at + push.RETRY_AFTER + SECOND, tick=False):
        assert sweep_notices() == {"push retry sent": 1}
        assert sweep_notices() == {}
    assert len(push_service.pushes()) == 1
    notice.refresh_from_db()
    assert (notice.status, notice.attempts) == ("sent", 2)


def test_a_push_that_keeps_failing_is_given_up(push_service: PushService, clocked: Match) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None and waiting.deadline_at is not None
    subscribe(waiting.user, push_service, "phone")
    push_service.answers["phone"] = 500
    sweep_notices()
    moment = timezone.now()
    for _ in range(push.MAX_ATTEMPTS):
        moment += push.RETRY_AFTER + SECOND
        with time_machine.travel(moment, tick=False):
            push.sweep(moment)
    notice = PushNotice.objects.get()
    assert (notice.status, notice.attempts) == ("failed", push.MAX_ATTEMPTS)
    assert push_service.pushes() == []


def test_a_claimed_push_whose_turn_was_played_is_dropped_on_retry(
    push_service: PushService, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    subscribe(waiting.user, push_service, "phone")
    push_service.answers["phone"] = 500
    sweep_notices()
    until_turn_passes(clocked)
    del push_service.answers["phone"]
    notice = PushNotice.objects.get()
    with time_machine.travel(notice.claimed_at + push.RETRY_AFTER + SECOND, tick=False):
        assert push.sweep(timezone.now()).get("push retry dropped") == 1
    notice.refresh_from_db()
    assert (notice.status, notice.note) == ("dropped", "the turn is over")
    assert push_service.pushes() == []


def test_no_push_without_a_vapid_key(push_service: PushService, settings: Settings, clocked: Match) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None
    subscribe(waiting.user, push_service, "phone")
    settings.VAPID_PRIVATE_KEY = ""  # a scale-out site without VAPID_PRIVATE_KEY: push is off
    assert sweep_notices() == {}
    assert push_service.pushes() == [] and not PushNotice.objects.exists()
