"""Reads of Web Push: which turns, alarms and invitations are due a push now.

Each is found by an indexed column, among the people who have a device (a subscription)
and want that kind, are not on vacation, and have no push of it yet for that turn (the
``PushNotice`` key). The player's presence at the match is not known to the database:
the sweep asks ``games.live.presence`` of each seat found (``push.py``).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Match, Seat
from games.notify.models import PushChoices, PushNotice, PushSubscription
from games.notify.selectors import BATCH, INVITATION_WINDOW, grace


def _wanting(
    seats: QuerySet[Seat], *, choice: str, kind: str, ply: str | None, now: datetime
) -> QuerySet[Seat]:
    """``seats`` whose person has a device, wants pushes of ``choice`` (a ``PushChoices``
    field), is a person (no bot), active, not on vacation, and has no ``kind`` push yet
    for the seat's ``ply`` (a field of the seat; None: ply 0)."""
    pushed = PushNotice.objects.filter(user=OuterRef("user"), match=OuterRef("match"), kind=kind)
    pushed = pushed.filter(ply=OuterRef(ply)) if ply else pushed.filter(ply=0)
    return (
        seats.filter(user__isnull=False, user__is_active=True, user__is_bot=False)
        .exclude(user__vacation_until__gt=now)
        .filter(Exists(PushSubscription.objects.filter(user=OuterRef("user"))))
        .exclude(Exists(PushChoices.objects.filter(user=OuterRef("user"), **{choice: False})))
        .exclude(Exists(pushed))
    )


def _owing(seats: QuerySet[Seat], now: datetime) -> QuerySet[Seat]:
    """Seats that owe a decision in a running match, with time left (or no limit)."""
    return seats.filter(
        Q(deadline_at__isnull=True) | Q(deadline_at__gt=now),
        owes_decision=True,
        decision_ply__isnull=False,
        resigned_at__isnull=True,
        match__status=Match.Status.RUNNING,
    )


def turns_due(now: datetime) -> list[int]:
    """Seat ids whose turn is due a "your turn" push: every turn waiting for its email
    (``Seat.nudge_at`` is set when a person's decision opens, at most a grace ahead, and
    cleared once the email was decided), so a push can go as soon as the turn arrives."""
    seats = _owing(Seat.objects.filter(nudge_at__lte=now + grace()), now)
    due = _wanting(seats, choice="turn", kind=PushNotice.Kind.TURN, ply="decision_ply", now=now)
    return list(due.order_by("nudge_at").values_list("pk", flat=True)[:BATCH])


def alarms_due(now: datetime) -> list[int]:
    """Seat ids due an "about to lose on time" push (``Seat.alarm_at`` passed)."""
    seats = _owing(Seat.objects.filter(alarm_at__lte=now), now)
    due = _wanting(seats, choice="turn", kind=PushNotice.Kind.ALARM, ply="decision_ply", now=now)
    return list(due.order_by("alarm_at").values_list("pk", flat=True)[:BATCH])


def invitations_due(now: datetime) -> list[int]:
    """Seat ids of invitations (challenges among them) made in the last
    ``INVITATION_WINDOW`` and still unanswered, by the open matches' (status, visibility)
    index: a push goes at once, not after the email's grace."""
    seats = Seat.objects.filter(
        match__status=Match.Status.OPEN,
        match__created_at__gt=now - INVITATION_WINDOW,
        joined_at__isnull=True,
    )
    due = _wanting(seats, choice="invitation", kind=PushNotice.Kind.INVITATION, ply=None, now=now)
    return list(due.order_by("pk").values_list("pk", flat=True)[:BATCH])


def pushes_to_retry(claimed_before: datetime) -> list[tuple[int, datetime]]:
    """(push id, claimed_at) of pushes claimed before ``claimed_before`` and never sent:
    their sender died, or every device's push service failed (``push_claimed_unsent``)."""
    return list(
        PushNotice.objects.filter(status=PushNotice.Status.CLAIMED, claimed_at__lt=claimed_before)
        .order_by("claimed_at")
        .values_list("pk", "claimed_at")[:BATCH]
    )
