"""How matches end: a result from the engine (``state.store_state`` sees it), or resignations."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import effects
from games.engine.ranking import competition_ranks
from games.errors import ErrorCode, MatchError
from games.locks import lock_match
from games.models import Match, ResignReason, Seat
from games.services.decisions import CLOCK_FIELDS, SEAT_STATE_FIELDS, clear_clock


def finish(match: Match, seats: list[Seat], result: dict[str, Any]) -> None:
    """Close the match. Players who resigned rank below everyone who played on.

    Call with the match row locked (``games/locks.py``): the lock is what makes the
    match-finished announcement once per match."""
    resigned = [seat for seat in seats if seat.resigned_at is not None]
    if resigned:
        result["ranks"] = _ranks_with_resignations(seats, result.get("ranks"))
        result["resigned"] = [seat.index for seat in resigned]
    scores = result.get("scores")
    for seat in seats:
        seat.rank = result["ranks"][seat.index]
        seat.score = scores[seat.index] if scores is not None else None
        # Nobody owes anything now: no decision, no clock (a match ended by resignations
        # still had them; the sweeps must not find a finished match's clocks).
        seat.owes_decision = False
        seat.decision_ply, seat.decision_digest = None, ""
        clear_clock(seat)
        seat.save(update_fields=["rank", "score", *SEAT_STATE_FIELDS])
    match.result = result
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    # Once per match: only the transaction that finishes it gets here (the row is locked
    # and a finished match takes no more moves).
    effects.match_finished(match)


def _ranks_with_resignations(seats: list[Seat], engine_ranks: list[int] | None) -> list[int]:
    """Those who played on keep their order (or share first); then who resigned last, and so on."""

    def key(seat: Seat) -> tuple[int, float]:
        if seat.resigned_at is None:
            return (0, engine_ranks[seat.index] if engine_ranks is not None else 1)
        return (1, -seat.resigned_at.timestamp())

    return competition_ranks([key(seat) for seat in seats], higher_is_better=False)


def match_resign(*, match_id: int, user: User) -> Match:
    """Give up: the seat ranks last and the autopilot plays it, unless too few players are left."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=False).first()
        if match.status != Match.Status.RUNNING or seat is None:
            raise MatchError(ErrorCode.NOT_PLAYING, "You can only resign from a match you are playing.")
        if seat.resigned_at is not None:
            raise MatchError(ErrorCode.RESIGNED, "You resigned from this match already.")
        forfeit(match, seat, ResignReason.RESIGNED)
        match.save()
        effects.match_changed(match)
    return match


def forfeit(match: Match, seat: Seat, reason: ResignReason) -> None:
    """Take ``seat`` out of the game for ``reason``: it ranks below everyone who plays
    on and the autopilot plays it, unless too few players are left, which ends the
    match. Call with the match row locked (``games/locks.py``); the caller saves the
    match and rings its doorbell."""
    seat.resigned_at = timezone.now()
    seat.resigned_reason = reason
    clear_clock(seat)  # the autopilot has no clock
    seat.save(update_fields=["resigned_at", "resigned_reason", *CLOCK_FIELDS])
    seats = list(match.seats.select_related("user"))
    playing_on = [seat for seat in seats if seat.resigned_at is None]
    people_left = [seat for seat in playing_on if not seat.user.is_bot]  # type: ignore[union-attr]
    game = match.engine
    # Nobody left to play for, or (in a game against each other) no one left to play against.
    if not people_left or (not game.is_cooperative and len(playing_on) < 2):
        result: dict[str, Any] = {"scores": None, "ranks": None}
        if game.is_cooperative:
            result["won"] = False
        finish(match, seats, result)
