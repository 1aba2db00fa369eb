"""Which picture of the game a seat's pending decision was opened on.

A move carries the ``ply`` of the board its player saw. The strict rule, "only at the
current ply", refuses a choice that is still good: in a phase where several seats
decide at once (Don't Go Boom's first flip), a click that lands just after another
seat's choice would be refused although nothing the clicking seat decides on changed.

So each seat that owes a decision remembers the ply at which that decision opened,
``Seat.decision_ply``, and a fingerprint of its legal actions then,
``Seat.decision_digest``. A move made on any board from ``decision_ply`` on is
accepted, and applied to the current state (where it is still legal, since the
decision did not change). A decision (re)opens when:

- the seat starts to owe one;
- the seat itself just moved (whatever it owes next is a new decision);
- another seat's move changed this seat's legal actions.

Exactly-once is untouched: a move is still written at the match's current ply
(``UNIQUE(match, ply)``) with its action id (``UNIQUE(match, action_id)``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.engine import Game
from games.models import Seat


def digest(actions: list[dict[str, Any]]) -> str:
    """A short fingerprint of a set of legal actions (their order does not matter)."""
    text = json.dumps(sorted(json.dumps(action, sort_keys=True) for action in actions))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def update_decisions(
    game: Game[Any], state: Any, seats: list[Seat], ply: int, mover: int | None
) -> list[Seat]:
    """Open, keep or close each seat's decision for ``state`` at ``ply`` after ``mover``
    moved (None: no move, e.g. the match starts). Sets the fields on the seats and
    returns those that changed; the caller saves them. Legal actions are only worked
    out where a decision might be kept: a seat that owed one before and after another
    seat's move, which happens in phases where several seats decide at once."""
    waiting = game.to_act(state)
    changed = []
    for seat in seats:
        before = (seat.decision_ply, seat.decision_digest)
        if seat.index not in waiting:
            seat.decision_ply, seat.decision_digest = None, ""
        else:
            owed_before = seat.decision_ply is not None and seat.index != mover
            fingerprint = (
                digest(game.legal_actions(state, seat.index)) if owed_before or len(waiting) > 1 else ""
            )
            if not (owed_before and fingerprint == seat.decision_digest):
                seat.decision_ply, seat.decision_digest = ply, fingerprint
        if (seat.decision_ply, seat.decision_digest) != before:
            changed.append(seat)
    return changed


def made_on_current_picture(seat: Seat, ply: int, current_ply: int) -> bool:
    """Whether a move made on the board of ``ply`` is still a decision on the current
    picture: the latest board, or one from since the seat's decision opened."""
    if ply == current_ply:
        return True
    return seat.decision_ply is not None and seat.decision_ply <= ply < current_ply
