"""Shared trays for the Booby-Trap tests (a new tray costs a physics release)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.booby_trap import BoobyTrap, BoobyTrapState, physics
from games.engine.booby_trap.state import DISCARDED, IN_TRAY


@pytest.fixture(scope="session")
def game() -> BoobyTrap:
    return BoobyTrap()


def tripping_index(state: BoobyTrapState) -> int:
    """A piece whose take trips the bar in this state (found by simulating)."""
    discs = tuple(piece.disc() for piece in state.pieces)
    present = tuple(piece.in_tray for piece in state.pieces)
    by_load = sorted(
        (index for index, piece in enumerate(state.pieces) if piece.in_tray),
        key=lambda index: -state.pieces[index].load,
    )
    for index in by_load:
        if physics.take(discs, present, state.bar_y, index).travel >= physics.MARKING:
            return index
    raise AssertionError("no piece of this tray trips the bar")


def loosest_index(state: BoobyTrapState) -> int:
    return min(
        (index for index, piece in enumerate(state.pieces) if piece.in_tray),
        key=lambda index: state.pieces[index].load,
    )


def with_only_in_tray(state: BoobyTrapState, keep: list[int]) -> BoobyTrapState:
    """The same state with every other piece moved to the discard pile."""
    pieces = tuple(
        piece if index in keep or piece.where != IN_TRAY else replace(piece, where=DISCARDED)
        for index, piece in enumerate(state.pieces)
    )
    return replace(state, pieces=pieces)
