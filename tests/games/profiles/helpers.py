"""Helpers of the profile tests: moments in finishing order, and rated matches."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from accounts.models import User
from games.ratings.services import RateOutcome, match_rate
from tests.games.history.helpers import finished

NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def minutes(number: int) -> datetime:
    """``number`` minutes after ``NOON``: matches finish in the order of their numbers."""
    return NOON + timedelta(minutes=number)


def play_rated(game: str, winner: User, loser: User, count: int, start: int = 0) -> None:
    """``count`` two-seat matches of ``game`` won by ``winner``, each applied to the ratings
    by the ratings service, finishing at ``minutes(start)``, ``minutes(start + 1)``..."""
    for number in range(count):
        match = finished([winner, loser], game=game, ranks=[1, 2], finished_at=minutes(start + number))
        assert match_rate(match_id=match.pk) == RateOutcome.RATED
