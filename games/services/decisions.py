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
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games import clocks
from games.engine import Game
from games.models import Match, Seat


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


# -- the clock of a decision (games/clocks.py) ------------------------------------

CLOCK_FIELDS = ["deadline_at", "alarm_at", "nudge_at", "clock_left"]
# A seat's decision and its clock: what ``state.store_state`` may change on a seat (saved
# with one UPDATE per changed seat: bulk_update's CASE expressions cost ten times the
# CPU for the two seats of a move), and what a finished match clears.
SEAT_STATE_FIELDS = ["owes_decision", "decision_ply", "decision_digest", *CLOCK_FIELDS]


def grace() -> timedelta:
    return timedelta(seconds=settings.NUDGE_GRACE_SECONDS)


def _clock_runs_for(seat: Seat) -> bool:
    """Clocks are for people: not bots, and not a seat the autopilot plays."""
    return seat.user is not None and not seat.user.is_bot and seat.resigned_at is None


def set_clock(seat: Seat, moments: clocks.Moments | None, left: timedelta | None) -> None:
    """A running clock (``moments``), a paused one (``left``), or none (both None);
    the caller saves ``CLOCK_FIELDS``."""
    seat.deadline_at = moments.deadline if moments else None
    seat.alarm_at = moments.alarm if moments else None
    seat.nudge_at = moments.nudge if moments else None
    seat.clock_left = left


def clear_clock(seat: Seat) -> None:
    """No clock: the seat owes nothing, timed out, or is the autopilot's now."""
    set_clock(seat, None, None)


def update_clocks(match: Match, seats: list[Seat], now: datetime) -> list[Seat]:
    """Start the clock of every person's decision that opened at ``match.ply`` (see
    ``decisions.py``) and stop those of seats that owe nothing now. Sets the fields
    and returns the seats that changed; the caller saves them. Call with the match row
    locked (``games/locks.py``)."""
    changed = []
    for seat in seats:
        before = [getattr(seat, field) for field in CLOCK_FIELDS]
        if seat.decision_ply is None or not _clock_runs_for(seat):
            clear_clock(seat)
        elif seat.decision_ply == match.ply and match.status == Match.Status.RUNNING:
            limit = match.turn_limit
            assert seat.user is not None
            if match.vacation_allowed and seat.user.on_vacation(now):
                # Paused from its first moment: the whole turn waits for the player's return.
                set_clock(seat, None, None if limit is None else timedelta(seconds=limit))
            else:
                set_clock(seat, clocks.start(now, limit, grace()), None)
        if [getattr(seat, field) for field in CLOCK_FIELDS] != before:
            changed.append(seat)
    return changed
