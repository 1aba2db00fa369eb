"""Web Push: "your turn", "about to lose on time", invitations (challenges among them)
and tournament tables on a person's devices, with the browser closed (docs/site.md,
"Notifications on a device").

When each goes:

- **turn**: as soon as the turn arrives, if the player is not looking at the match:
  no socket of theirs on it (``games.live.presence``) for ``AWAY`` at least. Someone at
  the match gets none while they are there; if they leave without playing, it goes
  ``AWAY`` after they left (found by the sweep while the turn waits for its email);
- **alarm**: when ``Seat.alarm_at`` passes, as the email, with the same presence rule;
- **invitation**: as soon as the invitation is made (the sweep), not after the email's grace;
- **table**: when a tournament seats the person (told by notify's table and start
  emails, which the tournament asks for: ``table_ready``, ``tournament_started``).

Exactly once, as the emails: a ``PushNotice`` row with the key (person, match, turn,
kind) is written **before** the push is sent. One push goes to each of the person's
devices; a device whose push service answers 404 or 410 is forgotten. A push that no
device's service took stays ``claimed`` and is tried again after ``RETRY_AFTER``, up to
``MAX_ATTEMPTS``; one that some device took is ``sent`` (a device that failed then
misses it: the email is the channel that does not give up). Everything here runs in
Celery tasks (the notify sweep, and the tournament's email tasks): never in a request.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import cache
from typing import Any

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import Resolver404, resolve
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from accounts.models import User
from boomsite import metrics
from games.live import presence
from games.models import Match, Seat
from games.notify import push_messages, push_selectors
from games.notify.emails import EventNews
from games.notify.models import PushChoices, PushNotice, PushSubscription

logger = logging.getLogger(__name__)

Kind = PushNotice.Kind
# A player counts as looking at a match while a socket of theirs is open on it, and for
# this long after the last one closed: one who just played and closed the page is not
# buzzed by the bot's instant reply, but is a minute later.
AWAY = timedelta(seconds=60)
RETRY_AFTER = timedelta(minutes=5)
MAX_ATTEMPTS = 3
# How long a push service keeps a push for a device that is off (the ``TTL`` header):
# a day at most (a turn push older than that is stale: the email and the digest have
# told it), and never past the turn's deadline, after which the autopilot has played.
MAX_TTL = timedelta(days=1)
# One push service that does not answer does not hold the sweep for long.
TIMEOUT_SECONDS = 10
# The choice each kind follows (``PushChoices``): the alarm goes with the turn.
CHOICE: dict[str, str] = {
    Kind.TURN: "turn",
    Kind.ALARM: "turn",
    Kind.INVITATION: "invitation",
    Kind.TABLE: "table",
}


class PushOutcome(StrEnum):
    SENT = "sent"  # some device's push service took it
    DROPPED = "dropped"  # claimed, then no longer about anything (the note says why)
    FAILED = "failed"  # no device's push service took it: tried again later
    GAVE_UP = "gave up"  # failed ``MAX_ATTEMPTS`` times
    WAITING = "waiting"  # the player is looking at the match: asked again by the next sweep
    SKIPPED = "skipped"  # the person gets no such push (no device, said no, on vacation)
    TAKEN = "taken"  # another sweep (or an earlier one) claimed it
    GONE = "gone"  # nothing is due any more: the player moved, the invitation was answered


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


# -- the sweep: turns, alarms, invitations, retries -------------------------------------


def sweep(now: datetime) -> dict[str, int]:
    """Push everything due at ``now``; counts of what happened (``{"turn push sent": 1}``).
    Run by the notify sweep **before** the emails, which clear the columns it reads."""
    counts: Counter[str] = Counter()
    if not enabled():
        return {}
    for seat_id in push_selectors.turns_due(now):
        counts[f"turn push {_guarded(seat_push, seat_id=seat_id, kind=Kind.TURN)}"] += 1
    for seat_id in push_selectors.alarms_due(now):
        counts[f"alarm push {_guarded(seat_push, seat_id=seat_id, kind=Kind.ALARM)}"] += 1
    for seat_id in push_selectors.invitations_due(now):
        counts[f"invitation push {_guarded(invitation_push, seat_id=seat_id)}"] += 1
    for push_id, claimed_at in push_selectors.pushes_to_retry(now - RETRY_AFTER):
        counts[f"push retry {_guarded(retry_push, push_id=push_id, claimed_at=claimed_at)}"] += 1
    # A turn found waiting for its player every sweep is not news for the log.
    return {what: count for what, count in counts.items() if not what.endswith(PushOutcome.WAITING)}


def _guarded(action: Callable[..., PushOutcome], **arguments: object) -> PushOutcome:
    try:
        return action(**arguments)
    except Exception:
        logger.exception("push: %s%r failed; tried again by a later sweep", action.__name__, arguments)
        return PushOutcome.FAILED


def why_no_push(user: User | None, kind: str, now: datetime) -> str | None:
    """Why ``user`` gets no push of ``kind`` now, or None if they do (devices aside)."""
    if user is None or user.is_bot:
        return "bots get no push"
    if not user.is_active:
        return "the account is inactive"
    if user.on_vacation(now):
        return "on vacation"
    if not getattr(_choices(user), CHOICE[kind]):
        return f"{CHOICE[kind]} pushes are off"
    return None


def _choices(user: User) -> PushChoices:
    return PushChoices.objects.filter(user=user).first() or PushChoices(user=user)


def _looking(user_id: int, match_id: int) -> bool:
    """Whether the person has the match open, or closed it less than ``AWAY`` ago."""
    seen = presence.last_seen(user_id, match_id)
    return seen is not None and timezone.now() < datetime.fromtimestamp(seen, tz=UTC) + AWAY


def _why_turn_is_over(seat: Seat, kind: str, ply: int, now: datetime) -> str | None:
    if seat.match.status != Match.Status.RUNNING or seat.resigned_at is not None:
        return "the match is over for the seat"
    if not seat.owes_decision or seat.decision_ply != ply:
        return "the turn is over"
    if seat.deadline_at is not None and seat.deadline_at <= now:
        return "the time ran out"
    if kind == Kind.ALARM and seat.alarm_at is None:
        return "no alarm any more"
    return None


def seat_push(*, seat_id: int, kind: str) -> PushOutcome:
    """The "your turn" or "about to lose on time" push of one seat."""
    now = timezone.now()
    seat = Seat.objects.select_related("user", "match").filter(pk=seat_id).first()
    if seat is None or seat.decision_ply is None or _why_turn_is_over(seat, kind, seat.decision_ply, now):
        return PushOutcome.GONE
    if why_no_push(seat.user, kind, now) is not None:
        return PushOutcome.SKIPPED
    assert seat.user is not None
    if _looking(seat.user.pk, seat.match_id):
        return PushOutcome.WAITING
    message = push_messages.turn_message(seat, now, is_alarm=kind == Kind.ALARM)
    return _claim_and_send(
        PushNotice(user=seat.user, match=seat.match, ply=seat.decision_ply, kind=kind, message=message)
    )


def invitation_push(*, seat_id: int) -> PushOutcome:
    """The push of an invitation (or a challenge) waiting for its person's answer."""
    now = timezone.now()
    seat = Seat.objects.select_related("user", "match", "match__created_by").filter(pk=seat_id).first()
    if seat is None or not seat.is_invitation or seat.match.status != Match.Status.OPEN:
        return PushOutcome.GONE
    if why_no_push(seat.user, Kind.INVITATION, now) is not None:
        return PushOutcome.SKIPPED
    assert seat.user is not None
    if _looking(seat.user.pk, seat.match_id):
        return PushOutcome.WAITING  # looking at the invitation already
    message = push_messages.invitation_message(seat)
    return _claim_and_send(
        PushNotice(user=seat.user, match=seat.match, kind=Kind.INVITATION, message=message)
    )


# -- tournament tables: told by notify's table and start emails -------------------------


def table_ready(*, seat_id: int, about: str) -> PushOutcome:
    """ "Your table is ready": the push beside the table email of ``seat_id`` (notify's
    ``table_ready_notice``, asked for by the tournament). ``about`` is the feature's words
    for it ("round 2 of Autumn Cup"). Never raises: a push that fails must not stop the
    email. Once per person and table (the key), however often it is asked."""
    return _guarded(_table_push, seat_id=seat_id, title=f"Your table is ready: {about}" if about else "")


def tournament_started(*, user_id: int, news: EventNews) -> PushOutcome:
    """The push beside a tournament's "has started" email (notify's ``event_notice``): it
    carries the person's first table, its first link (``news.links``). A start without a
    table for them (a bye) has nothing to play now: no push. Never raises."""
    return _guarded(_started_push, user_id=user_id, news=news)


def _started_push(*, user_id: int, news: EventNews) -> PushOutcome:
    match_id = _match_linked(news)
    if match_id is None:
        return PushOutcome.GONE
    seat_id = Seat.objects.filter(match_id=match_id, user_id=user_id).values_list("pk", flat=True).first()
    if seat_id is None:
        return PushOutcome.GONE
    return _table_push(seat_id=seat_id, title=news.subject)


def _match_linked(news: EventNews) -> int | None:
    """The match of the event's first link, if it is a match page (``/matches/<id>/``)."""
    if not news.links:
        return None
    try:
        found = resolve(news.links[0][1])
    except Resolver404:
        return None
    match_id = found.kwargs.get("match_id")
    return match_id if found.url_name == "match" and isinstance(match_id, int) else None


def _table_push(*, seat_id: int, title: str) -> PushOutcome:
    if not enabled():
        return PushOutcome.SKIPPED
    now = timezone.now()
    seat = Seat.objects.select_related("user", "match").filter(pk=seat_id).first()
    if seat is None or seat.user is None or seat.match.status != Match.Status.RUNNING or seat.resigned_at:
        return PushOutcome.GONE
    if why_no_push(seat.user, Kind.TABLE, now) is not None or not _has_device(seat.user):
        return PushOutcome.SKIPPED
    message = push_messages.table_message(seat, title=title or f"Your table is ready: {seat.match.game_name}")
    return _claim_and_send(PushNotice(user=seat.user, match=seat.match, kind=Kind.TABLE, message=message))


def _has_device(user: User) -> bool:
    return PushSubscription.objects.filter(user=user).exists()


# -- claiming, sending, retrying ---------------------------------------------------------


def _claim_and_send(notice: PushNotice) -> PushOutcome:
    notice.claimed_at = timezone.now()
    try:
        with transaction.atomic():
            notice.save(force_insert=True)
    except IntegrityError:
        return PushOutcome.TAKEN  # this push was claimed already (another sweep, an earlier call)
    return deliver(notice)


def deliver(notice: PushNotice) -> PushOutcome:
    """Send a claimed push to each of its person's devices and mark it; counted for /metrics."""
    outcome = _send_or_drop(notice)
    metrics.count_push(kind=notice.kind, outcome=outcome)
    return outcome


def _send_or_drop(notice: PushNotice) -> PushOutcome:
    now = timezone.now()
    claimed = PushNotice.objects.filter(pk=notice.pk, status=PushNotice.Status.CLAIMED)
    seat = (
        Seat.objects.select_related("user", "match")
        .filter(match=notice.match_id, user=notice.user_id)
        .first()
    )
    why_not = _why_not_now(notice, seat, now)
    devices = list(PushSubscription.objects.filter(user=notice.user_id))
    if why_not is None and not devices:
        why_not = "no device"
    if why_not is not None:
        claimed.update(status=PushNotice.Status.DROPPED, note=why_not)
        return PushOutcome.DROPPED
    assert seat is not None
    ttl = _ttl(seat, now)
    delivered = gone = 0
    for device in devices:
        result = _send_to(device, notice, ttl)
        delivered += result == "delivered"
        gone += result == "gone"
    if delivered:
        claimed.update(status=PushNotice.Status.SENT, sent_at=timezone.now(), devices=delivered)
        return PushOutcome.SENT
    if gone == len(devices):
        claimed.update(status=PushNotice.Status.DROPPED, note="every device is gone")
        return PushOutcome.DROPPED
    return PushOutcome.FAILED  # still claimed: tried again after RETRY_AFTER


def _why_not_now(notice: PushNotice, seat: Seat | None, now: datetime) -> str | None:
    """Why the claimed ``notice`` is no longer worth sending, or None."""
    if seat is None:
        return "no seat"
    why_not = why_no_push(seat.user, notice.kind, now)
    if why_not is not None:
        return why_not
    if notice.kind in (Kind.TURN, Kind.ALARM):
        return _why_turn_is_over(seat, notice.kind, notice.ply, now)
    if notice.kind == Kind.INVITATION:
        return None if seat.is_invitation and seat.match.status == Match.Status.OPEN else "answered"
    return None if seat.match.status == Match.Status.RUNNING else "the table is over"


def _ttl(seat: Seat, now: datetime) -> int:
    """Seconds a push service may keep the push for a device that is off."""
    keep = MAX_TTL
    if seat.owes_decision and seat.deadline_at is not None:
        keep = min(keep, seat.deadline_at - now)
    return max(int(keep.total_seconds()), 0)


@cache
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def _send_to(device: PushSubscription, notice: PushNotice, ttl: int) -> str:
    """One push to one device: "delivered", "gone" (forgotten now) or "failed"."""
    headers = {
        # Collapsed per match while it waits at the push service (RFC 8030 section 5.4).
        "Topic": str(notice.message.get("tag", push_messages.tag_of(notice.match_id))),
        "Urgency": "high" if notice.kind == Kind.ALARM else "normal",
    }
    try:
        webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=json.dumps(notice.message),
            vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
            vapid_claims=_claims(),
            ttl=ttl,
            headers=headers,
            timeout=TIMEOUT_SECONDS,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in (404, 410):
            PushSubscription.objects.filter(pk=device.pk).delete()
            logger.info("push: device %s is gone (%s): forgotten", device.pk, status)
            return "gone"
        logger.warning("push: device %s refused push %s: %s", device.pk, notice.pk, status)
        return "failed"
    except (requests.RequestException, ValueError, TypeError):
        logger.exception("push: device %s: push %s not sent", device.pk, notice.pk)
        return "failed"
    PushSubscription.objects.filter(pk=device.pk).update(last_success_at=timezone.now())
    return "delivered"


def _claims() -> dict[str, Any]:
    """The VAPID JWT's claims: a new dict each time (pywebpush fills in ``aud`` and
    ``exp`` for the endpoint it sends to, in the dict it is given)."""
    return {"sub": settings.VAPID_SUBJECT}


def retry_push(*, push_id: int, claimed_at: datetime) -> PushOutcome:
    """Take over a push claimed at ``claimed_at`` and never sent, and send it (or drop it).
    One conditional UPDATE decides which of two sweeps does."""
    taken = PushNotice.objects.filter(pk=push_id, status=PushNotice.Status.CLAIMED, claimed_at=claimed_at)
    if taken.filter(attempts__gte=MAX_ATTEMPTS).update(
        status=PushNotice.Status.FAILED, note=f"not sent after {MAX_ATTEMPTS} attempts"
    ):
        return PushOutcome.GAVE_UP
    if not taken.update(claimed_at=timezone.now(), attempts=F("attempts") + 1):
        return PushOutcome.TAKEN
    return deliver(PushNotice.objects.get(pk=push_id))
