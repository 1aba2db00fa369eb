"""Booby-Trap's rules: setup, touch, pass, take, the passing limit and the end.

Rules: docs/games/booby-trap.md. Every take runs the physics (``physics.take``);
everything else is a lookup in the state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engine.errors import IllegalAction
from games.engine.log import LogEntry, entry
from games.engine.ranking import competition_ranks
from games.engine.rng import Rng, RngState, resume
from games.engine.seats import next_seat

from . import physics
from .physics import MARKING, Settled
from .state import (
    DISCARDED,
    IN_TRAY,
    KEPT,
    NO_PASS,
    SIZE_NAMES,
    SIZE_ORDER,
    SOLITAIRE,
    SOLITAIRE_TRIPS_ALLOWED,
    BoobyTrapState,
    Piece,
)

# -- Setup -----------------------------------------------------------------------


def new_game(players: int, rng_state: RngState, variant: str, values: tuple[int, int, int]) -> BoobyTrapState:
    rng = resume(rng_state)
    made = physics.random_make_up(rng)
    ids = rng.unique_tokens(len(made))
    settled = physics.release(tuple(disc for _, disc in made))
    pieces = tuple(
        Piece(
            id=piece_id,
            size=size,
            where=IN_TRAY,
            keeper=None,
            x=disc.x,
            y=disc.y,
            radius=disc.radius,
            friction=disc.friction,
            load=0.0,
            noise=0.0,
        )
        for piece_id, (size, disc) in zip(ids, made, strict=True)
    )
    pieces = _after_settle(pieces, settled, rng)
    return BoobyTrapState(
        players=players,
        variant=variant,
        values=values,
        rng=rng.state,
        pieces=pieces,
        bar_y=settled.bar_y,
        arrangement=0,
        turn=0,
        touched=None,
        passes=0,
        penalties=(0,) * players,
        trips=(0,) * players,
        is_over=False,
        log=(
            entry(
                "release",
                None,
                f"The spring bar is released: {len(pieces)} pieces settle in the tray.",
                {"bar_y": on_view_grid(settled.bar_y)},
            ),
        ),
    )


def _after_settle(pieces: tuple[Piece, ...], settled: Settled, rng: Rng) -> tuple[Piece, ...]:
    """New positions and loads from a settle, and a fresh fingertip draw per piece."""
    updated = []
    for index, piece in enumerate(pieces):
        if piece.in_tray:
            x, y = settled.positions[index]
            updated.append(replace(piece, x=x, y=y, load=settled.loads[index], noise=physics.noise_draw(rng)))
        elif piece.load or piece.noise:
            updated.append(replace(piece, load=0.0, noise=0.0))
        else:
            updated.append(piece)
    return tuple(updated)


def on_view_grid(value: float) -> float:
    """Positions as views show them: rounded to 1/20 inch (exact two-decimal floats)."""
    return round(round(value * 20) / 20, 2)


# -- Questions about a state ------------------------------------------------------


def in_tray_count(state: BoobyTrapState) -> int:
    return sum(1 for piece in state.pieces if piece.in_tray)


def must_take(state: BoobyTrapState) -> bool:
    """Everyone has passed twice in succession since the last take."""
    return state.passes >= 2 * state.players


def can_pass(state: BoobyTrapState) -> bool:
    return state.variant != NO_PASS and not must_take(state)


def touchable(state: BoobyTrapState) -> list[int]:
    """Indexes of the pieces the player to act may touch (size-order: smallest size only)."""
    indexes = [index for index, piece in enumerate(state.pieces) if piece.in_tray]
    if state.variant == SIZE_ORDER and indexes:
        smallest = min(state.pieces[index].size for index in indexes)
        indexes = [index for index in indexes if state.pieces[index].size == smallest]
    return indexes


def reading(piece: Piece) -> tuple[int, str]:
    """What a touch of this piece reads now: (gauge 0-10, feel word)."""
    value = physics.gauge(piece.load, piece.noise)
    return value, physics.feel(value)


def kept_value(state: BoobyTrapState, seat: int) -> int:
    return sum(state.values[piece.size] for piece in state.pieces if piece.keeper == seat)


def kept_count(state: BoobyTrapState, seat: int) -> int:
    return sum(1 for piece in state.pieces if piece.keeper == seat)


def scores(state: BoobyTrapState) -> list[int]:
    if state.variant == SOLITAIRE:
        return [kept_count(state, 0)]
    return [kept_value(state, seat) - state.penalties[seat] for seat in range(state.players)]


def solitaire_lost(state: BoobyTrapState) -> bool:
    return state.trips[0] > SOLITAIRE_TRIPS_ALLOWED


def result(state: BoobyTrapState) -> dict[str, Any] | None:
    if not state.is_over:
        return None
    totals = scores(state)
    if state.variant == SOLITAIRE:
        return {"won": not solitaire_lost(state), "scores": totals, "ranks": [1]}
    return {"scores": totals, "ranks": competition_ranks(totals)}


def pieces_to_end(state: BoobyTrapState) -> int:
    """The game ends when the tray holds at most this many pieces."""
    return 1 if state.variant == SOLITAIRE else state.players


# -- Actions ----------------------------------------------------------------------


def _piece_index(state: BoobyTrapState, piece_id: str) -> int:
    for index, piece in enumerate(state.pieces):
        if piece.id == piece_id:
            if not piece.in_tray:
                raise IllegalAction("not_in_tray", "That piece is no longer in the tray.")
            return index
    raise IllegalAction("no_such_piece", "There is no such piece.")


def touch(state: BoobyTrapState, seat: int, piece_id: str) -> BoobyTrapState:
    if state.variant == NO_PASS:
        raise IllegalAction(
            "no_touch_in_no_pass", "Without passing, touching and taking are one move: take a piece."
        )
    if state.touched is not None:
        raise IllegalAction("already_touched", "You have touched a piece this turn: pass or take it.")
    index = _piece_index(state, piece_id)
    if index not in touchable(state):
        raise IllegalAction("wrong_size", "All the smaller pieces must be taken first.")
    piece = state.pieces[index]
    gauge_value, word = reading(piece)
    size = SIZE_NAMES[piece.size]
    log_entry = touch_entry(seat, piece.id, size, state.arrangement, gauge_value, word)
    return replace(state, touched=index, log=(*state.log, log_entry))


def touch_entry(
    seat: int, piece_id: str, size: str, arrangement: int, gauge_value: int, word: str
) -> LogEntry:
    """Everyone learns which piece was touched; only the toucher learns the reading."""
    return entry(
        "touch",
        seat,
        f"{{s{seat}}} touched a {size} piece.",
        {"piece": piece_id, "size": size, "arrangement": arrangement},
        {
            seat: (
                f"{{s{seat}}} touched a {size} piece and felt it {word} ({gauge_value}/10).",
                {"gauge": gauge_value, "feel": word},
            )
        },
    )


def pass_turn(state: BoobyTrapState, seat: int) -> BoobyTrapState:
    if state.variant == NO_PASS:
        raise IllegalAction("no_passing", "Passing is not allowed in this variant.")
    if state.touched is None:
        raise IllegalAction("touch_first", "Touch a piece before you pass.")
    if must_take(state):
        raise IllegalAction(
            "must_take", "Everyone has passed twice in a row: you must take the piece you touched."
        )
    log_entry = entry("pass", seat, f"{{s{seat}}} passed.")
    return replace(
        state,
        touched=None,
        passes=state.passes + 1,
        turn=next_seat(seat, state.players),
        log=(*state.log, log_entry),
    )


def take(state: BoobyTrapState, seat: int, piece_id: str) -> BoobyTrapState:
    if state.variant == NO_PASS:
        index = _piece_index(state, piece_id)
    else:
        if state.touched is None:
            raise IllegalAction("touch_first", "Touch a piece before you take it.")
        if state.pieces[state.touched].id != piece_id:
            raise IllegalAction("not_touched", "You can only take the piece you touched.")
        index = state.touched

    discs = tuple(piece.disc() for piece in state.pieces)
    present = tuple(piece.in_tray for piece in state.pieces)
    outcome = physics.take(discs, present, state.bar_y, index)
    tripped = outcome.travel >= MARKING
    markings = max(0, int(outcome.travel / MARKING))
    settled = outcome.settled
    pieces = list(state.pieces)
    taken = pieces[index]
    popped: list[int] = []
    if tripped:
        pieces[index] = replace(taken, where=DISCARDED)
        # Pieces knocked out of place by more than their own radius jumped out.
        popped = [
            other
            for other, piece in enumerate(pieces)
            if piece.in_tray and outcome.dislodged[other] > piece.radius
        ]
        for other in popped:
            pieces[other] = replace(pieces[other], where=DISCARDED)
        if popped:
            moved = tuple(
                replace(disc, x=x, y=y) for disc, (x, y) in zip(discs, settled.positions, strict=True)
            )
            settled = physics.resettle(moved, tuple(piece.in_tray for piece in pieces), settled.bar_y)
    else:
        pieces[index] = replace(taken, where=KEPT, keeper=seat)

    rng = resume(state.rng)
    new_pieces = _after_settle(tuple(pieces), settled, rng)
    penalties = state.penalties
    trips = state.trips
    if tripped:
        trips = _bump(trips, seat, 1)
        if state.variant != SOLITAIRE:  # solitaire counts trips, not points
            penalties = _bump(penalties, seat, state.penalty)
    log_entry = _take_entry(state, seat, taken, tripped, markings, [pieces[i] for i in popped], settled)
    after = replace(
        state,
        rng=rng.state,
        pieces=new_pieces,
        bar_y=settled.bar_y,
        arrangement=state.arrangement + 1,
        touched=None,
        passes=0,
        penalties=penalties,
        trips=trips,
        log=(*state.log, log_entry),
    )
    return _check_end(after, seat)


def _bump(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + amount, *values[seat + 1 :])


def _take_entry(
    state: BoobyTrapState,
    seat: int,
    taken: Piece,
    tripped: bool,
    markings: int,
    popped: list[Piece],
    settled: Settled,
) -> LogEntry:
    size = SIZE_NAMES[taken.size]
    facts = {
        "piece": taken.id,
        "size": size,
        "tripped": tripped,
        "markings": markings,
        "popped": [piece.id for piece in popped],
        "penalty": state.penalty if tripped and state.variant != SOLITAIRE else 0,
        "bar_y": on_view_grid(settled.bar_y),
    }
    if not tripped:
        text = f"{{s{seat}}} took a {size} piece without moving the bar."
    else:
        plural = "s" if markings > 1 else ""
        text = f"{{s{seat}}} tripped the bar ({markings} marking{plural}): the {size} piece goes to the discard pile"
        if popped:
            text += f" with {len(popped)} that jumped out" if len(popped) > 1 else " with one that jumped out"
        if state.variant == SOLITAIRE:
            left = SOLITAIRE_TRIPS_ALLOWED - state.trips[seat] - 1
            text += {0: "; no trip left.", 1: "; one trip left."}.get(
                left, f"; {left} trips left." if left > 0 else "."
            )
        else:
            text += f"; {{s{seat}}} loses {state.penalty} points."
    return entry("take", seat, text, facts)


def _check_end(state: BoobyTrapState, seat: int) -> BoobyTrapState:
    if state.variant == SOLITAIRE and solitaire_lost(state):
        text = "The bar tripped a fourth time: the solitaire game is lost."
    elif in_tray_count(state) <= pieces_to_end(state):
        text = "The game is over."
        if state.variant == SOLITAIRE:
            text = "Only one piece is left: the solitaire game is won."
    else:
        return replace(state, turn=next_seat(seat, state.players))
    return replace(state, is_over=True, log=(*state.log, entry("end", None, text, {"scores": scores(state)})))
