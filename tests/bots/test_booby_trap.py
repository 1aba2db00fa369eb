"""Booby-Trap bots: always legal, decided from the view only, and sensible.

Every state here is a real engine state (takes run the physics), so the games are
few and short: each take costs about 10 ms.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any, cast

import pytest

from games.bots import booby_trap as bot
from games.engine import get
from games.engine.booby_trap import BoobyTrap, BoobyTrapState, physics
from tests.bots.helpers import (
    assert_basic_decides_from_the_view_only,
    assert_bot_is_legal_at,
    finish_basic_against_random,
    played_game,
)

# The registry's instance, typed as the game it is.
GAME = cast(BoobyTrap, get("booby-trap"))


def _play(
    players: int, seed: int, basic_seats: set[int], options: dict[str, Any] | None = None, limit: int = 400
) -> list[tuple[BoobyTrapState, int]]:
    """Decision points of one game, seats in ``basic_seats`` playing basic, others random:
    at most ``limit`` of them, since every take runs the physics."""
    return played_game(
        GAME, bot.basic, players, seed, basic_seats, options, first_waiting_seat=True, limit=limit
    ).points


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 7, 10])
def test_basic_and_rollout_are_always_legal(players: int) -> None:
    rng = random.Random(players)
    # Half the seats play basic, so that states reached by sensible play are covered.
    points = _play(players, players, set(range(0, players, 2)), limit=120)
    assert_bot_is_legal_at(GAME, bot, points[::3], rng)


@pytest.mark.parametrize("variant", ["size-order", "no-pass"])
def test_always_legal_in_the_variants(variant: str) -> None:
    rng = random.Random(7)
    points = _play(3, 11, {0, 2}, {"variant": variant, "values": "1-2-3"}, limit=90)
    assert_bot_is_legal_at(GAME, bot, points[::3], rng)


def test_basic_decides_from_the_view_only() -> None:
    # Each point is checked against another state with the same view (hidden loads, noise
    # and make-up re-drawn), basic deciding in both with a new seed drawn from ``rng``.
    rng = random.Random(3)
    points = _play(2, 5, {0}, limit=60)
    assert_basic_decides_from_the_view_only(GAME, bot.basic, points[::4], rng, basic_seed=None)


def _touched(state: BoobyTrapState, index: int) -> BoobyTrapState:
    return GAME.apply(state, state.turn, {"type": "touch", "piece": state.pieces[index].id})


def _find(state: BoobyTrapState, wanted: Any) -> int:
    """A piece in the tray matching ``wanted(piece, gauge, free)`` (the test needs one)."""
    view = GAME.view(state, None)
    free = bot.free_pieces(
        [(p["id"], p["x"], p["y"], p["radius"]) for p in view["pieces"] if p["where"] == "tray"],
        view["tray"]["bar_y"],
    )
    for index, piece in enumerate(state.pieces):
        if piece.in_tray and wanted(piece, physics.gauge(piece.load, piece.noise), piece.id in free):
            return index
    raise AssertionError("no such piece in this tray")


def test_takes_a_loose_large_piece_and_passes_a_tight_one() -> None:
    rng = random.Random(0)
    state = GAME.new(2, 1)
    loose = _find(state, lambda piece, gauge, free: piece.size == 2 and gauge == 0)
    after = _touched(state, loose)
    assert bot.basic(GAME, GAME.view(after, 0), 0, rng) == {"type": "take", "piece": state.pieces[loose].id}
    tight = _find(state, lambda piece, gauge, free: gauge >= 6 and not free)
    after = _touched(state, tight)
    assert bot.basic(GAME, GAME.view(after, 0), 0, rng) == {"type": "pass"}
    # When passing is no longer allowed, it takes what it touched.
    forced = _touched(replace(state, passes=4), tight)
    assert bot.basic(GAME, GAME.view(forced, 0), 0, rng) == {"type": "take", "piece": state.pieces[tight].id}


def test_touches_again_a_piece_it_read_loose() -> None:
    # Seat 0 felt a large piece loose and (for the test) passed; seat 1 passed too:
    # back to seat 0 in the same arrangement, it goes for that piece. The tray this was
    # written for (seed 1 on splitmix64) has no free large piece, which would be as good.
    state = GAME.new(2, 1, generator="splitmix64")
    loose = _find(state, lambda piece, gauge, free: piece.size == 2 and gauge == 0 and not free)
    state = GAME.apply(_touched(state, loose), 0, {"type": "pass"})
    other = _find(state, lambda piece, gauge, free: piece.size == 0 and gauge >= 5)
    state = GAME.apply(_touched(state, other), 1, {"type": "pass"})
    choice = bot.basic(GAME, GAME.view(state, 0), 0, random.Random(0))
    assert choice == {"type": "touch", "piece": state.pieces[loose].id}


def test_geometry_finds_pieces_that_hold_nothing() -> None:
    # Three small discs in a row across the middle of the tray, and a bar far away:
    # the middle one is pressed from both sides, the end ones from one side only.
    row = [("a", 2.2, 5.0, 0.4), ("b", 3.0, 5.0, 0.4), ("c", 3.8, 5.0, 0.4)]
    assert bot.free_pieces(row, bar_y=9.0) == {"a", "c"}
    # Two contacts at right angles cannot balance against friction 0.8.
    corner = [("a", 0.4, 0.4, 0.4)]
    assert bot.free_pieces(corner, bar_y=9.0) == {"a"}
    assert bot.spread([0.0, math.pi / 2]) < bot.HOLDING_SPREAD <= bot.spread([0.0, math.pi])


def test_no_pass_takes_the_best_expected_piece() -> None:
    state = GAME.new(2, 4, {"variant": "no-pass"})
    view = GAME.view(state, 0)
    action = bot.basic(GAME, view, 0, random.Random(0))
    assert action["type"] == "take"
    free = bot.free_pieces(
        [(p["id"], p["x"], p["y"], p["radius"]) for p in view["pieces"] if p["where"] == "tray"],
        view["tray"]["bar_y"],
    )
    if free:  # a piece holding nothing is as good as it gets: take the biggest of them
        largest = max(p["value"] for p in view["pieces"] if p["id"] in free)
        assert action["piece"] in free
        assert next(p["value"] for p in view["pieces"] if p["id"] == action["piece"]) == largest


def test_evaluate_follows_the_score() -> None:
    state = GAME.new(2, 2)
    ahead = replace(state, penalties=(0, 40))
    behind = replace(state, penalties=(40, 0))
    assert bot.evaluate(GAME, ahead, 0) > 0.5 > bot.evaluate(GAME, behind, 0)
    assert bot.evaluate(GAME, state, 0) == pytest.approx(0.5)


def test_basic_beats_random_head_to_head() -> None:
    # A few seeded games (deterministic); the 200-game figure is in the bots report.
    wins = 0
    for seed in range(4):
        basic_seat = seed % 2
        state, _seat = _play(2, 100 + seed, {basic_seat})[-1]
        final = finish_basic_against_random(GAME, state, basic_seat, bot.basic, random.Random(seed))
        result = GAME.result(final)
        assert result is not None
        ranks = result["ranks"]
        wins += ranks[basic_seat] < ranks[1 - basic_seat]
    assert wins >= 3


def test_the_solitaire_estimate_is_a_probability_even_with_more_lives_than_pieces() -> None:
    # The binomial sum rounds to just over 1 for some counts (found by a new deal).
    for trials in range(40):
        for most in range(trials, trials + 3):
            assert bot._binomial_cdf(most, trials, bot.SOLITAIRE_TRIP_RATE) == 1.0
        assert all(0.0 <= bot._binomial_cdf(most, trials, 0.37) <= 1.0 for most in range(-1, trials))
