"""Rebuilding a match from what it keeps: game, options, seed, generator, seats, moves.

Every move of every match is stored, and the engine is deterministic, so any position
of a match can be worked out again on the server: the admin's public log of a move,
an email's "what happened since your turn", replays, and the fair-deal check below.
The seed never leaves the server while a match runs; once it is over, its seed and
salt are public, and anyone can check the deal (``verify``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import IllegalAction
from games.models import Match, Move


def commitment(seed: int, salt: str) -> str:
    """What a match publishes when it starts: SHA-256 of its seed and salt, so that the
    seed shown when it ends can be checked to be the one it was dealt from."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def states(match: Match, *, until: int | None = None) -> Iterator[tuple[int, Any]]:
    """(ply, state) from the first state on, one per stored move applied, up to the
    state before move ``until`` (all of them by default). Raises ``IllegalAction`` when
    a stored move no longer applies (the game's rules changed since it was played)."""
    game = match.engine
    players = match.seats.count()
    state = game.new(players, match.seed, match.options, generator=match.generator)
    yield 0, state
    moves = match.moves.order_by("ply")
    if until is not None:
        moves = moves.filter(ply__lt=until)
    for move in moves.only("ply", "seat", "action"):
        state = game.apply(state, move.seat, move.action)
        yield move.ply + 1, state


def state_at(match: Match, ply: int) -> Any:
    """The state after ``ply`` moves."""
    *_, (_, state) = states(match, until=ply)
    return state


@dataclass(frozen=True)
class Verification:
    ok: bool
    moves: int
    why: str  # what was checked, or what differs, in words

    @property
    def headline(self) -> str:
        return "The deal checks out." if self.ok else "The deal does not check out."


def verify(match: Match) -> Verification:
    """Replay a finished match from its revealed seed and compare with what it recorded:
    the published commitment, the state, and the result."""
    if match.status != Match.Status.FINISHED or match.seed is None:
        return Verification(False, 0, "Only a finished match can be checked: its seed is secret until then.")
    if match.seed_commitment and commitment(match.seed, match.seed_salt) != match.seed_commitment:
        return Verification(
            False, 0, "The seed and salt do not match the commitment shown when the match began."
        )
    game = match.engine
    count = Move.objects.filter(match=match).count()
    try:
        *_, (ply, final) = states(match)
    except IllegalAction as error:
        return Verification(False, 0, f"A recorded move no longer applies: {error}")
    if ply != match.ply or ply != count:
        return Verification(False, ply, f"{ply} moves replayed, but the match recorded {match.ply}.")
    if _canonical(game.encode(final)) != _canonical(match.state):
        return Verification(
            False, ply, "Replayed from the seed, the moves end in another position than recorded."
        )
    replayed = game.result(final)
    if replayed is not None and replayed.get("ranks") is not None and match.result is not None:
        recorded = match.result.get("ranks")
        # A resignation changes the ranks the engine gives; those are checked by the seats.
        if not match.result.get("resigned") and recorded != replayed["ranks"]:
            return Verification(False, ply, "The replayed result differs from the recorded one.")
    return Verification(True, ply, f"{ply} moves replayed from the seed: the position and the result match.")


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
