"""Keeping a match's new state: every move, and every start, ends here."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import Match, Seat
from games.services import rows
from games.services.decisions import SEAT_STATE_FIELDS, update_clocks, update_decisions
from games.services.endings import finish


def store_state(match: Match, seats: list[Seat], state: Any, mover: int | None = None) -> None:
    """Keep the new state (at ``match.ply``, after ``mover``'s move) and what is derived
    from it: who owes a decision and since when (``decisions.py``), the result.

    Call with the match row locked (``games/locks.py``)."""
    game = match.engine
    match.state = game.encode(state)
    waiting = set(game.to_act(state))
    changed = {seat.pk: seat for seat in update_decisions(game, state, seats, match.ply, mover)}
    for seat in seats:
        owes = seat.index in waiting
        if seat.owes_decision != owes:
            seat.owes_decision = owes
            changed[seat.pk] = seat
    result = game.result(state)
    if result is not None:
        finish(match, seats, dict(result))
    changed.update((seat.pk, seat) for seat in update_clocks(match, seats, timezone.now()))
    for seat in changed.values():
        rows.update(seat, SEAT_STATE_FIELDS)
