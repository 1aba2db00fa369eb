"""Turn clocks: the arithmetic alone, pure (no database, no "now" of its own).

A match's time control is a number of seconds per turn, or none. A seat's clock
starts when its decision opens (``games/services/decisions.py``) and is kept as
moments in indexed columns of ``Seat``, which sweeps find by range:

- ``deadline_at``: the turn's end; when it passes, the autopilot plays for the seat;
- ``alarm_at``: at ``ALARM_SHARE`` of the turn, the "about to lose on time" email;
- ``nudge_at``: after the grace period, the "your turn" email (also without a clock).

A paused clock (its player is on vacation) keeps the time it had left instead of
moments: ``Paused``. Everything here takes the current time as an argument, so the
tests move time by passing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# The presets the lobby offers; any whole number of days up to MAX_DAYS is allowed too.
MINUTE, HOUR, DAY = 60, 60 * 60, 24 * 60 * 60
PRESETS: tuple[tuple[int | None, str], ...] = (
    (None, "No time limit"),
    (5 * MINUTE, "5 minutes per turn"),
    (HOUR, "1 hour per turn"),
    (DAY, "1 day per turn"),
    (3 * DAY, "3 days per turn"),
)
MAX_DAYS = 14
# The "about to lose on time" email goes at this share of the turn.
ALARM_SHARE = 0.8


def is_time_control(seconds: object) -> bool:
    """Whether ``seconds`` is a time control a match may have: a preset, or 1..14 days."""
    if seconds is None:
        return True
    if type(seconds) is not int:
        return False
    return seconds in {limit for limit, _ in PRESETS} or (
        seconds % DAY == 0 and 1 <= seconds // DAY <= MAX_DAYS
    )


def describe(seconds: int | None) -> str:
    """A time control in words: "No time limit", "1 hour per turn", "7 days per turn"."""
    for limit, words in PRESETS:
        if limit == seconds:
            return words
    assert seconds is not None
    if seconds % DAY == 0:
        days = seconds // DAY
        return f"{days} day{'s' if days != 1 else ''} per turn"
    return f"{left_in_words(timedelta(seconds=seconds))} per turn"


@dataclass(frozen=True)
class Moments:
    """When a running clock's events fall due; None where there is no such event."""

    deadline: datetime | None
    alarm: datetime | None
    nudge: datetime | None


def start(now: datetime, limit: int | None, grace: timedelta) -> Moments:
    """A clock started ``now`` for a turn of ``limit`` seconds (None: no limit)."""
    return resume(now, None if limit is None else timedelta(seconds=limit), limit, grace)


def resume(now: datetime, left: timedelta | None, limit: int | None, grace: timedelta) -> Moments:
    """A clock running again ``now`` with ``left`` of its turn of ``limit`` seconds.

    The alarm falls at ``ALARM_SHARE`` of the whole turn, measured back from the
    deadline; a nudge is never due after the deadline (the autopilot has played)."""
    if left is None or limit is None:
        return Moments(deadline=None, alarm=None, nudge=now + grace)
    deadline = now + max(left, timedelta(0))
    alarm: datetime | None = deadline - timedelta(seconds=limit) * (1 - ALARM_SHARE)
    if alarm is not None and alarm <= now:
        alarm = None  # a turn resumed past its alarm has had it
    nudge: datetime | None = now + grace
    if nudge is not None and nudge >= (alarm or deadline):
        nudge = None  # the alarm (or the autopilot) comes first and says it all
    return Moments(deadline=deadline, alarm=alarm, nudge=nudge)


def left(deadline: datetime | None, now: datetime) -> timedelta | None:
    """What is left of a turn (never negative); None without a clock."""
    if deadline is None:
        return None
    return max(deadline - now, timedelta(0))


def left_in_words(remaining: timedelta) -> str:
    """ "2 days 3 hours", "4 hours 12 minutes", "3 minutes", "under a minute"."""
    seconds = int(remaining.total_seconds())
    days, seconds = divmod(seconds, DAY)
    hours, seconds = divmod(seconds, HOUR)
    minutes = seconds // MINUTE

    def unit(count: int, name: str) -> str:
        return f"{count} {name}{'s' if count != 1 else ''}"

    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour") + (f" {unit(minutes, 'minute')}" if minutes else "")
    if minutes:
        return unit(minutes, "minute")
    return "under a minute"
