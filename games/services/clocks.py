"""Turn clocks' writes: a clock starts with a person's decision, runs out (the
autopilot plays, then a forfeit), and pauses while its player is on vacation.

A clock starts in ``decisions.update_clocks``, with the decision it times. The
arithmetic is ``games/clocks.py``; the moments live on ``Seat`` (``deadline_at``,
``alarm_at``, ``nudge_at``, or ``clock_left`` while paused). ``tasks.sweep_clocks``
finds the due deadlines and ended vacations by their indexed columns; each is acted on
under the match's row lock, and only if the same decision is still pending at the
same deadline, so a sweep that runs twice (or after a killed worker) does it once.
"""

from __future__ import annotations

import math
import random
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from games import clocks, effects
from games.bots import choose_action
from games.errors import ErrorCode, MatchError
from games.locks import lock_match
from games.models import Match, ResignReason, Seat
from games.services.common import autopilot_level
from games.services.decisions import CLOCK_FIELDS, clear_clock, grace, set_clock
from games.services.endings import forfeit
from games.services.moves import play_for_timed_out_seat


def seat_time_out(*, match_id: int, seat_index: int, deadline: datetime) -> bool:
    """The clock of ``seat_index`` ran out at ``deadline``: the autopilot plays the turn
    for the player, or, at the match's limit of timeouts in a row, the player forfeits
    (ranked last, reason ``timed_out``) and the autopilot finishes for them. False when
    there is nothing (left) to do: the player moved, or another sweep did it."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.select_related("user").filter(index=seat_index).first()
        now = timezone.now()
        if (
            match.status != Match.Status.RUNNING
            or seat is None
            or seat.deadline_at != deadline
            or deadline > now
        ):
            return False
        seat.timeouts += 1
        clear_clock(seat)
        seat.save(update_fields=["timeouts", *CLOCK_FIELDS])
        if seat.timeouts >= match.timeouts_to_forfeit:
            forfeit(match, seat, ResignReason.TIMED_OUT)
            match.save()
            effects.match_changed(match)
            return True
        game = match.engine
        view = game.view(match.decoded_state(), seat_index)
        action = choose_action(
            game, view, seat_index, autopilot_level(game), random.Random(secrets.randbits(64))
        )
        play_for_timed_out_seat(match, seat_index, action)
    return True


def deadlines_due(now: datetime, limit: int = 500) -> list[tuple[int, int, datetime]]:
    """(match id, seat index, deadline) of running clocks that have run out, oldest first."""
    due = (
        Seat.objects.filter(deadline_at__lte=now, match__status=Match.Status.RUNNING)
        .order_by("deadline_at")
        .values_list("match_id", "index", "deadline_at")[:limit]
    )
    return [(match_id, index, deadline) for match_id, index, deadline in due if deadline is not None]


# -- vacation --------------------------------------------------------------------


def vacation_begin(*, user: User, days: int) -> User:
    """Go on vacation for ``days`` whole days, taken from this year's bank: the clocks
    of the player's pending turns pause (in matches that allow it) and nudges stop.

    The bank is charged by one conditional UPDATE, so two requests at once cannot
    spend it twice (on SQLite too, where row locks do nothing)."""
    now = timezone.now()
    # A new year refills the bank, once.
    User.objects.filter(pk=user.pk).exclude(vacation_year=now.year).update(
        vacation_year=now.year, vacation_days_left=settings.VACATION_DAYS_PER_YEAR
    )
    user.refresh_from_db(fields=["vacation_until", "vacation_days_left", "vacation_year"])
    if user.on_vacation(now):
        raise MatchError(ErrorCode.NOT_ALLOWED, "You are on vacation already.")
    if type(days) is not int or not 1 <= days <= user.vacation_days_left:
        raise MatchError(
            ErrorCode.BAD_VACATION,
            f"Choose between 1 and {user.vacation_days_left} days of vacation."
            if user.vacation_days_left
            else "Your vacation days for this year are used up.",
        )
    taken = (
        User.objects.filter(pk=user.pk, vacation_days_left__gte=days)
        .filter(Q(vacation_until__isnull=True) | Q(vacation_until__lte=now))
        .update(vacation_until=now + timedelta(days=days), vacation_days_left=F("vacation_days_left") - days)
    )
    if not taken:
        raise MatchError(ErrorCode.NOT_ALLOWED, "Your vacation changed meanwhile: look again.")
    for seat in _pending_seats(user):
        with transaction.atomic():
            lock_match(seat.match_id)
            seat.refresh_from_db(fields=["decision_ply", *CLOCK_FIELDS])
            if seat.decision_ply is not None and seat.clock_left is None:
                set_clock(seat, None, clocks.left(seat.deadline_at, now))
                seat.save(update_fields=CLOCK_FIELDS)
                effects.match_changed(seat.match)
    user.refresh_from_db(fields=["vacation_until", "vacation_days_left"])
    return user


def vacation_end(*, user: User) -> User:
    """Back from vacation (early, or when it ran out): paused clocks run again with the
    time they had left. Whole days not begun go back to the bank."""
    now = timezone.now()
    user.refresh_from_db(fields=["vacation_until", "vacation_days_left"])
    until = user.vacation_until
    if until is None:
        return user
    unused_days = math.floor(max(until - now, timedelta(0)) / timedelta(days=1))
    # Ended once: only the request (or sweep) that still sees this vacation ends it.
    if not User.objects.filter(pk=user.pk, vacation_until=until).update(
        vacation_until=None, vacation_days_left=F("vacation_days_left") + unused_days
    ):
        return user
    for seat in _pending_seats(user):
        with transaction.atomic():
            match = lock_match(seat.match_id)
            seat.refresh_from_db(fields=["decision_ply", *CLOCK_FIELDS])
            if seat.decision_ply is not None and seat.deadline_at is None and seat.nudge_at is None:
                set_clock(seat, clocks.resume(now, seat.clock_left, match.turn_limit, grace()), None)
                seat.save(update_fields=CLOCK_FIELDS)
                effects.match_changed(match, seats=[seat])  # a turn back with no time left: at once
    user.refresh_from_db(fields=["vacation_until", "vacation_days_left"])
    return user


def vacations_ended(now: datetime, limit: int = 500) -> list[int]:
    """Users whose vacation has run out and whose clocks still wait for them."""
    return list(User.objects.filter(vacation_until__lte=now).values_list("pk", flat=True)[:limit])


def _pending_seats(user: User) -> list[Seat]:
    """The user's seats that owe a decision in running matches whose clocks vacation pauses."""
    return list(
        Seat.objects.select_related("match", "user").filter(
            user=user,
            resigned_at__isnull=True,
            decision_ply__isnull=False,
            match__status=Match.Status.RUNNING,
            match__vacation_allowed=True,
        )
    )
