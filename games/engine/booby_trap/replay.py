"""The full-information side of a finished match: the force network of a state.

For the post-game replay only (it reads the hidden make-up): the tray of a state
is rebuilt from its stored positions, re-seated (a few steps, in which a settled
state does not move) and every contact is read with its force, so the replay can
draw the stress arches with line width by force.
"""

from __future__ import annotations

from typing import Any

from . import physics
from .state import BoobyTrapState


def force_network(state: BoobyTrapState) -> list[dict[str, Any]]:
    """Every contact in the tray: what touches what (piece ids, "bar" or "wall"),
    where, and its force as a fraction of the bar's push."""
    discs = tuple(piece.disc() for piece in state.pieces)
    present = tuple(piece.in_tray for piece in state.pieces)
    contacts = physics.force_network(discs, present, state.bar_y)

    def name(end: int | str) -> str:
        return state.pieces[end].id if isinstance(end, int) else end

    return [
        {
            "a": name(contact.a),
            "b": name(contact.b),
            "x": round(contact.x, 3),
            "y": round(contact.y, 3),
            "force": round(contact.force, 3),
        }
        for contact in sorted(contacts, key=lambda contact: -contact.force)
    ]
