"""What a seat may know of a Booby-Trap match.

Positions (rounded to 1/20 inch) and nominal sizes are public. Loads, the hidden
make-up (true radius, friction) and the fingertip noise are never in a view, nor
anything computed from them, except the one thing the rules give a player: the
readings of the pieces they touched themselves (from their own log entries).
``build_reveal`` shows them all, for finished matches only.
"""

from __future__ import annotations

import json
from typing import Any

from games.engine.log import log_reveal, log_view

from . import rules
from .physics import LOADING_LENGTH, MARKING, PIECE_SIZES, TRAY_WIDTH
from .replay import force_network
from .state import (
    DISCARDED,
    IN_TRAY,
    NO_PASS,
    SIZE_NAMES,
    SOLITAIRE,
    SOLITAIRE_TRIPS_ALLOWED,
    BoobyTrapState,
    Piece,
)

PHASE_TOUCH = "touch"
PHASE_DECIDE = "decide"
PHASE_OVER = "over"


def phase(state: BoobyTrapState) -> str:
    if state.is_over:
        return PHASE_OVER
    return PHASE_TOUCH if state.touched is None else PHASE_DECIDE


def own_readings(state: BoobyTrapState, seat: int | None) -> dict[str, dict[str, Any]]:
    """The readings ``seat`` got in the current arrangement, by piece id (the last
    touch wins, though a piece reads the same until the tray settles again)."""
    readings: dict[str, dict[str, Any]] = {}
    if seat is None:
        return readings
    for item in state.log:
        if item.event != "touch" or item.seat != seat:
            continue
        public = json.loads(item.public)
        if public["arrangement"] != state.arrangement:
            continue
        for owner, _text, facts in item.private:
            if owner == seat:
                readings[public["piece"]] = json.loads(facts)
    return readings


def build_reveal(state: BoobyTrapState) -> dict[str, Any]:
    """Everything revealed (``Game.reveal``, finished matches only): a spectator's view
    with the reading a touch would give on every piece in the tray (and on the touched
    one), plus what only the state holds:

    - per piece, ``hidden``: its true ``radius`` and ``friction``, its ``load`` (in
      bar-pushes) and fingertip ``noise`` as of the last settle, and its exact ``x``,
      ``y`` (the view's are rounded to 1/20 inch);
    - ``forces``: the force network of this arrangement (``replay.force_network``),
      so a replay draws the stress arches at every step, each take included.
    """
    shown = build_view(state, None)
    for piece, place in zip(state.pieces, shown["pieces"], strict=True):
        if piece.in_tray:
            # A reading is a lookup of the stored load and noise: what any touch of the
            # piece in this arrangement reads, as the toucher's own view shows it.
            place["reading"] = _reading(piece)
        place["hidden"] = {
            "radius": piece.radius,
            "friction": piece.friction,
            "load": piece.load,
            "noise": piece.noise,
            "x": piece.x,
            "y": piece.y,
        }
    if state.touched is not None:
        shown["touched"]["reading"] = _reading(state.pieces[state.touched])
    shown["forces"] = force_network(state)
    shown["log"] = log_reveal(state.log)
    shown["revealed"] = True
    shown["as_seen_by"] = {str(seat): {"seat": seat} for seat in range(state.players)}
    return shown


def _reading(piece: Piece) -> dict[str, Any]:
    gauge_value, word = rules.reading(piece)
    return {"gauge": gauge_value, "feel": word}


def build_view(state: BoobyTrapState, seat: int | None) -> dict[str, Any]:
    readings = own_readings(state, seat)
    # What the player to act may touch now (in no-pass: take).
    touchable = set(rules.touchable(state)) if phase(state) == PHASE_TOUCH else set()
    pieces = []
    for index, piece in enumerate(state.pieces):
        on_board = piece.where == IN_TRAY
        pieces.append(
            {
                "id": piece.id,
                "size": SIZE_NAMES[piece.size],
                "radius": PIECE_SIZES[piece.size][0],  # nominal: the true radius is hidden
                "value": state.values[piece.size],
                "where": piece.where,
                "keeper": piece.keeper,
                "x": rules.on_view_grid(piece.x) if on_board else None,
                "y": rules.on_view_grid(piece.y) if on_board else None,
                "touchable": index in touchable,
                "reading": readings.get(piece.id) if on_board else None,
            }
        )
    touched = None
    if state.touched is not None:
        touched_piece = state.pieces[state.touched]
        touched = {
            "piece": touched_piece.id,
            "seat": state.turn,
            "reading": readings.get(touched_piece.id) if seat == state.turn else None,
        }
    current = phase(state)
    is_solitaire = state.variant == SOLITAIRE
    totals = rules.scores(state)
    players = []
    for player in range(state.players):
        players.append(
            {
                "seat": player,
                "kept": [piece.id for piece in state.pieces if piece.keeper == player],
                "kept_value": rules.kept_value(state, player),
                "penalties": state.penalties[player],
                "trips": state.trips[player],
                "score": totals[player],
            }
        )
    return {
        "game": "booby-trap",
        "seat": seat,
        "players": state.players,
        "variant": state.variant,
        "values": dict(zip(SIZE_NAMES, state.values, strict=True)),
        "penalty": 0 if is_solitaire else state.penalty,
        "phase": current,
        "turn": None if state.is_over else state.turn,
        "to_act": [] if state.is_over else [state.turn],
        "can_pass": current == PHASE_DECIDE and rules.can_pass(state),
        "must_take": not state.is_over and state.variant != NO_PASS and rules.must_take(state),
        "passes_in_a_row": state.passes,
        "pass_limit": 2 * state.players,
        "tray": {
            "width": TRAY_WIDTH,
            "loading_length": LOADING_LENGTH,
            "marking": MARKING,
            "bar_y": rules.on_view_grid(state.bar_y),
        },
        "arrangement": state.arrangement,
        "pieces": pieces,
        "touched": touched,
        "in_tray": rules.in_tray_count(state),
        "discarded": sum(1 for piece in state.pieces if piece.where == DISCARDED),
        "ends_at": rules.pieces_to_end(state),
        "scores": players,
        "trips_allowed": SOLITAIRE_TRIPS_ALLOWED if is_solitaire else None,
        "result": rules.result(state),
        "log": log_view(state.log, seat),
    }
