"""games/clocks.py: the arithmetic of turn clocks, with no database and no clock of its own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games import clocks

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
GRACE = timedelta(minutes=10)


def test_a_day_clock_has_its_deadline_alarm_at_80_percent_and_a_nudge_after_the_grace() -> None:
    moments = clocks.start(NOW, clocks.DAY, GRACE)
    assert moments.deadline == NOW + timedelta(days=1)
    assert moments.alarm == NOW + timedelta(hours=24 * 0.8)
    assert moments.nudge == NOW + GRACE


def test_without_a_limit_only_the_nudge_falls_due() -> None:
    assert clocks.start(NOW, None, GRACE) == clocks.Moments(deadline=None, alarm=None, nudge=NOW + GRACE)


def test_a_short_clock_sends_the_alarm_instead_of_a_nudge_that_would_come_later() -> None:
    moments = clocks.start(NOW, 5 * clocks.MINUTE, GRACE)
    assert moments.deadline == NOW + timedelta(minutes=5)
    assert moments.alarm == NOW + timedelta(minutes=4)
    assert moments.nudge is None


def test_a_resumed_clock_keeps_what_was_left_and_its_alarm_measured_from_the_deadline() -> None:
    left = timedelta(hours=10)
    moments = clocks.resume(NOW, left, clocks.DAY, GRACE)
    assert moments.deadline == NOW + left
    assert moments.alarm == NOW + left - timedelta(hours=24 * 0.2)
    # Resumed with less than a fifth of the turn left: the alarm has had its moment.
    late = clocks.resume(NOW, timedelta(hours=2), clocks.DAY, GRACE)
    assert late.alarm is None and late.nudge == NOW + GRACE
    # With no time left at all, the deadline is now: the next sweep plays for the player.
    assert clocks.resume(NOW, timedelta(0), clocks.DAY, GRACE).deadline == NOW


def test_time_left_is_never_negative_and_reads_in_words() -> None:
    assert clocks.left(NOW - timedelta(minutes=1), NOW) == timedelta(0)
    assert clocks.left(None, NOW) is None
    words = {
        timedelta(days=2, hours=3, minutes=5): "2 days 3 hours",
        timedelta(days=1): "1 day",
        timedelta(hours=4, minutes=12): "4 hours 12 minutes",
        timedelta(hours=1): "1 hour",
        timedelta(minutes=3, seconds=59): "3 minutes",
        timedelta(seconds=59): "under a minute",
    }
    for remaining, text in words.items():
        assert clocks.left_in_words(remaining) == text


@pytest.mark.parametrize(
    ("seconds", "allowed", "words"),
    [
        (None, True, "No time limit"),
        (5 * 60, True, "5 minutes per turn"),
        (clocks.HOUR, True, "1 hour per turn"),
        (3 * clocks.DAY, True, "3 days per turn"),
        (7 * clocks.DAY, True, "7 days per turn"),
        (14 * clocks.DAY, True, "14 days per turn"),
        (15 * clocks.DAY, False, None),
        (7 * clocks.HOUR, False, None),
        (0, False, None),
        ("3600", False, None),
        (True, False, None),
    ],
)
def test_time_controls_are_the_presets_or_whole_days_up_to_fourteen(
    seconds: object, allowed: bool, words: str | None
) -> None:
    assert clocks.is_time_control(seconds) is allowed
    if words is not None:
        assert clocks.describe(seconds) == words  # type: ignore[arg-type]
