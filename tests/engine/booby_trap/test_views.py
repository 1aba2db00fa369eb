from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.booby_trap import BoobyTrap, BoobyTrapState, physics
from games.engine.booby_trap.state import IN_TRAY

from .conftest import loosest_index

HIDDEN_KEYS = {"load", "loads", "noise", "friction", "force", "rng"}


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def all_keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {key for value in data.values() for key in all_keys(value)}
    if isinstance(data, list):
        return {key for value in data for key in all_keys(value)}
    return set()


def played(game: BoobyTrap) -> BoobyTrapState:
    """Three players: touches and passes, a take, then seat 0 touches twice more."""
    state = game.new(3, 33)
    for index in (0, 5, 9):
        state = game.apply(state, state.turn, {"type": "touch", "piece": state.pieces[index].id})
        state = game.apply(state, state.turn, {"type": "pass"})
    index = loosest_index(state)
    state = game.apply(state, 0, {"type": "touch", "piece": state.pieces[index].id})
    state = game.apply(state, 0, {"type": "take", "piece": state.pieces[index].id})
    for _ in range(2):
        touch = next(i for i, piece in enumerate(state.pieces) if piece.in_tray and i not in (3, 4))
        state = game.apply(state, state.turn, {"type": "touch", "piece": state.pieces[touch].id})
        state = game.apply(state, state.turn, {"type": "pass"})
    state = game.apply(state, state.turn, {"type": "touch", "piece": state.pieces[4].id})
    return state


def test_views_carry_no_forces_nor_hidden_make_up(game: BoobyTrap) -> None:
    state = played(game)
    for seat in (0, 1, 2, None):
        view = game.view(state, seat)
        assert not all_keys(view) & HIDDEN_KEYS
        for piece in view["pieces"]:
            size = ("small", "medium", "large").index(piece["size"])
            assert piece["radius"] == physics.PIECE_SIZES[size][0]
            if piece["where"] == IN_TRAY:
                assert round(piece["x"] * 20) == pytest.approx(piece["x"] * 20)
                assert round(piece["y"] * 20) == pytest.approx(piece["y"] * 20)


def test_spectator_sees_no_reading_at_all(game: BoobyTrap) -> None:
    view = game.view(played(game), None)
    assert all(piece["reading"] is None for piece in view["pieces"])
    assert view["touched"]["reading"] is None
    assert not any("gauge" in item for item in view["log"])


def test_view_shows_a_seats_own_readings_of_the_current_arrangement(game: BoobyTrap) -> None:
    state = played(game)
    view = game.view(state, state.turn)
    read = {piece["id"]: piece["reading"] for piece in view["pieces"] if piece["reading"] is not None}
    assert state.pieces[4].id in read
    for piece_id, reading in read.items():
        piece = next(piece for piece in state.pieces if piece.id == piece_id)
        assert reading["gauge"] == physics.gauge(piece.load, piece.noise)
    # Seat 0 touched pieces before the take: those readings are of another arrangement.
    first_touch = state.pieces[0].id
    assert all(
        piece["reading"] is None for piece in game.view(state, 0)["pieces"] if piece["id"] == first_touch
    )


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_sample_gives_the_same_view(game: BoobyTrap, seat: int | None) -> None:
    state = played(game)
    view = game.view(state, seat)
    for draw in range(5):
        sampled = game.sample(view, seat, random.Random(draw))
        assert canonical(game.view(sampled, seat)) == canonical(view)
        assert game.decode(game.encode(sampled)) == sampled


def test_sample_respects_the_viewers_readings_and_redraws_the_rest(game: BoobyTrap) -> None:
    state = played(game)
    seat = state.turn
    view = game.view(state, seat)
    read = {piece["id"]: piece["reading"]["gauge"] for piece in view["pieces"] if piece["reading"]}
    assert read
    sampled = game.sample(view, seat, random.Random(7))
    for piece in sampled.pieces:
        if piece.id in read:
            assert physics.gauge(piece.load, piece.noise) == read[piece.id]
    true_radii = {piece.id: piece.radius for piece in state.pieces}
    differing = sum(piece.radius != true_radii[piece.id] for piece in sampled.pieces)
    assert differing > len(state.pieces) // 2
    assert sampled.rng != state.rng


def test_a_take_on_a_sampled_state_simulates_from_the_public_picture(game: BoobyTrap) -> None:
    state = played(game)
    seat = state.turn
    sampled = game.sample(game.view(state, seat), seat, random.Random(3))
    after = game.apply(sampled, seat, {"type": "take", "piece": sampled.pieces[4].id})
    assert after.arrangement == state.arrangement + 1
    assert sum(piece.in_tray for piece in after.pieces) < sum(piece.in_tray for piece in state.pieces)


def test_view_reports_turn_phase_and_counts(game: BoobyTrap) -> None:
    state = game.new(2, 33)
    view = game.view(state, 0)
    assert view["phase"] == "touch"
    assert view["to_act"] == [0]
    assert view["in_tray"] == 32
    assert view["ends_at"] == 2
    assert view["pass_limit"] == 4
    assert view["values"] == {"small": 5, "medium": 10, "large": 20}
    assert all(piece["touchable"] for piece in view["pieces"])
    assert view["tray"]["bar_y"] == round(round(state.bar_y * 20) / 20, 2)


def test_nothing_is_touchable_while_a_touched_piece_awaits_pass_or_take(game: BoobyTrap) -> None:
    state = game.new(2, 33)
    state = game.apply(state, 0, {"type": "touch", "piece": state.pieces[0].id})
    view = game.view(state, 0)
    assert view["phase"] == "decide"
    assert not any(piece["touchable"] for piece in view["pieces"])
