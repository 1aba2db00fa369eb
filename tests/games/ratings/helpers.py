"""Helpers of the rating tests: finished matches written as the finishing service leaves
them (seats with ranks, the result, resignations, the players' own moves), without
playing them; random tables; and the ratings as comparable numbers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from accounts.models import User
from games.models import Match, Move, ResignReason, Seat
from games.ratings.models import Rating, RatingChange
from games.services import BOT_USERNAMES

START = timezone.now().replace(microsecond=0) - timedelta(days=5)


@dataclass(frozen=True)
class Place:
    """One seat of a finished match: its player, rank, and how they left (if they did)."""

    user: User
    rank: int
    resigned: str = ""  # "", or a ResignReason value
    moved: bool = True  # made a move of their own


def finished_match(game: str, places: Sequence[Place | tuple[User, int]], finished_at: datetime) -> Match:
    """A finished match of ``game`` with these seats in this order, finished at ``finished_at``."""
    seats = [place if isinstance(place, Place) else Place(*place) for place in places]
    match = Match.objects.create(
        game=game,
        status=Match.Status.FINISHED,
        created_by=seats[0].user,
        started_at=finished_at - timedelta(minutes=10),
        finished_at=finished_at,
        ply=len(seats),
        result={"scores": None, "ranks": [seat.rank for seat in seats]},
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            index=index,
            user=seat.user,
            joined_at=match.started_at,
            display_name=seat.user.public_name,
            rank=seat.rank,
            resigned_at=finished_at - timedelta(minutes=1) if seat.resigned else None,
            resigned_reason=seat.resigned,
        )
        for index, seat in enumerate(seats)
    )
    # One move per seat: the player's own, or the autopilot's (no user) for one who never moved.
    Move.objects.bulk_create(
        Move(match=match, ply=index, seat=index, action={"type": "x"}, user=seat.user if seat.moved else None)
        for index, seat in enumerate(seats)
    )
    return match


def timed_out(user: User, rank: int, *, moved: bool) -> Place:
    return Place(user, rank, resigned=ResignReason.TIMED_OUT, moved=moved)


def resigned(user: User, rank: int, *, moved: bool) -> Place:
    return Place(user, rank, resigned=ResignReason.RESIGNED, moved=moved)


def bot(level: str) -> User:
    return User.objects.get(username=BOT_USERNAMES[level])


def random_matches(
    rng: random.Random, people: list[User], bots: list[User], count: int, games: Sequence[str]
) -> list[Match]:
    """``count`` finished matches with random tables and results: 1 to 6 seats (people
    at most once, bots possibly several times), shared places, now and then a player
    out before or after a move of their own; finished one minute apart, a few at the same second."""
    matches = []
    moment = START
    for number in range(count):
        seats = rng.choice([1, 2, 2, 2, 3, 4, 5, 6])
        table: list[User] = rng.sample(people, rng.randint(0, min(seats, len(people))))
        table += [rng.choice(bots) for _ in range(seats - len(table))]
        rng.shuffle(table)
        scores = [rng.randint(0, 3) for _ in table]  # few values: shared places are common
        ranks = [1 + sum(other > score for other in scores) for score in scores]
        places = []
        for user, rank in zip(table, ranks, strict=True):
            out = not user.is_bot and rng.random() < 0.08
            places.append(
                Place(
                    user,
                    rank,
                    resigned=ResignReason.RESIGNED if out else "",
                    moved=not out or rng.random() < 0.7,
                )
            )
        if number % 7 != 3:  # every seventh shares its finishing moment with the one before
            moment += timedelta(minutes=1)
        matches.append(finished_match(rng.choice(games), places, moment))
    return matches


def ratings_now() -> dict[tuple[int, str], tuple[float, float, float, int, datetime | None]]:
    """Every rating, exactly: (user, game) -> (mu, sigma, conservative, rated matches, last rated)."""
    return {
        (rating.user_id, rating.game): (
            rating.mu,
            rating.sigma,
            rating.conservative,
            rating.rated_matches,
            rating.last_rated_at,
        )
        for rating in Rating.objects.all()
    }


def changes_now() -> dict[tuple[int, int], tuple[object, ...]]:
    """Every rating change, exactly: (match, user) -> its columns."""
    return {
        (change.match_id, change.user_id): (
            change.game,
            change.finished_at,
            change.seat,
            change.rank,
            change.mu_before,
            change.sigma_before,
            change.mu_after,
            change.sigma_after,
        )
        for change in RatingChange.objects.all()
    }
