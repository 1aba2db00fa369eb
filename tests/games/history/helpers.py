"""Finished matches for the History tests.

``finished`` writes a finished match's rows as the services leave them (match, seats
with ranks, a move of each seat's own) straight into the database: the lists need many
matches with chosen outcomes, dates and resignations, which whole games played through
the services would take minutes to reach. Tests that need a real game to replay play
one (``play_to_the_end``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import replays
from games.models import Match, Move, ResignReason, Seat
from tests.games.helpers import random_move

SEED = 2**200 + 12345  # wider than 64 bits, as every seed is
SALT = "a-salt"


def finished(
    players: Sequence[User],
    *,
    game: str = "go-fox",
    ranks: Sequence[int] | None = None,
    result: dict[str, Any] | None = None,
    finished_at: datetime | None = None,
    visibility: str = Match.Visibility.PUBLIC,
    resigned: dict[int, bool] | None = None,
) -> Match:
    """A finished match of ``players`` (seat order). ``ranks``: per seat (default 1, 2, ...);
    ``resigned``: seat -> whether that player made a move of their own before resigning
    (the others each made one; the autopilot made one for every resigned seat)."""
    ranks = list(ranks) if ranks is not None else list(range(1, len(players) + 1))
    resigned = resigned or {}
    finished_at = finished_at or timezone.now()
    result = result if result is not None else {"scores": [float(-rank) for rank in ranks], "ranks": ranks}
    if resigned:
        result = {**result, "resigned": sorted(resigned)}
    match = Match.objects.create(
        game=game,
        options={},
        status=Match.Status.FINISHED,
        visibility=visibility,
        seed=SEED,
        seed_salt=SALT,
        seed_commitment=replays.commitment(SEED, SALT),
        created_by=players[0],
        started_at=finished_at - timedelta(minutes=30),
        finished_at=finished_at,
        result=result,
        ply=0,
    )
    names = [player.public_name for player in players]
    seats = Seat.objects.bulk_create(
        Seat(
            match=match,
            index=index,
            user=player,
            joined_at=match.started_at,
            display_name=f"{names[index]} {'ABCDEF'[index]}"
            if names.count(names[index]) > 1
            else names[index],
            rank=ranks[index],
            score=(result.get("scores") or [None] * len(players))[index],
            resigned_at=finished_at - timedelta(minutes=1) if index in resigned else None,
            resigned_reason=ResignReason.RESIGNED if index in resigned else "",
        )
        for index, player in enumerate(players)
    )
    moves = []
    for seat in seats:
        if seat.index not in resigned or resigned[seat.index]:
            moves.append((seat.index, seat.user))
        if seat.index in resigned:
            moves.append((seat.index, None))  # the autopilot's
    Move.objects.bulk_create(
        Move(match=match, ply=ply, seat=index, user=user, action={"type": "pass"})
        for ply, (index, user) in enumerate(moves)
    )
    Match.objects.filter(pk=match.pk).update(ply=len(moves))
    match.ply = len(moves)
    return match


def play_to_the_end(match: Match, people: dict[int, User], seed: int = 5) -> Match:
    """Random legal moves through the services until the match is over."""
    rng = random.Random(seed)
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        random_move(match, people, rng)


def bot(level: str = "basic") -> User:
    """The bot account of ``level`` (made by a data migration)."""
    return User.objects.get(is_bot=True, bot_level=level)
