"""The Go Fox! bots: legal from any view, view-only, they lay pairs and ask for what is known."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.bots import go_fox
from games.engine.go_fox import GoFox, GoFoxState
from tests.bots.helpers import (
    assert_legal_through_a_random_game,
    go_fox_seven_shown_by_seat_1,
    key,
)
from tests.engine.playouts import random_game

GAME = GoFox()


def states(players: int, seed: int) -> tuple[GoFoxState, ...]:
    """Every state of a seeded random game, the first waiting seat acting each time."""
    return random_game(GAME, players, seed, first_seat=True).states


@pytest.mark.parametrize("players", range(2, 7))
def test_basic_and_rollout_are_always_legal(players: int) -> None:
    for seed in range(4):
        assert_legal_through_a_random_game(GAME, go_fox, players, seed)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_basic_decides_from_the_view_alone(players: int) -> None:
    """A sampled state with the same view (other hands and pile re-dealt) gets the same choice."""
    rng = random.Random(players)
    for state in states(players, 11)[:-1:5]:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        same_view = GAME.view(GAME.sample(view, seat, rng), seat)
        assert key(go_fox.basic(GAME, view, seat, random.Random(1))) == key(
            go_fox.basic(GAME, same_view, seat, random.Random(1))
        )


def test_lays_a_pair_after_go_fox() -> None:
    for state in states(2, 3)[:-1]:
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        if state.phase == "go_fox" and len(actions) > 1:
            chosen = go_fox.basic(GAME, GAME.view(state, seat), seat, random.Random(0))
            assert chosen["type"] == "lay"


def test_asks_for_a_number_the_next_player_asked_for_in_vain() -> None:
    """Seat 1 asks seat 0 for a 7 and hears GO FOX!: seat 0 then knows seat 1 holds a 7."""
    state = go_fox_seven_shown_by_seat_1()
    assert state.turn == 0
    chosen = go_fox.basic(GAME, GAME.view(state, 0), 0, random.Random(0))
    assert chosen == {"type": "ask", "number": 7}


def test_rollout_reads_a_failed_ask_from_the_recent_log() -> None:
    """The playout policy, too, asks for the number the next player showed they hold
    (whatever its random source: there is no tie to break)."""
    state = go_fox_seven_shown_by_seat_1()
    for seed in range(10):
        assert go_fox.rollout(GAME, state, 0, random.Random(seed)) == {"type": "ask", "number": 7}


def test_rollout_forgets_a_number_once_it_is_laid() -> None:
    state = go_fox_seven_shown_by_seat_1()
    # Seat 1's 7 went down in a pair since (a forged log entry, as the engine writes it).
    laid = next(item for item in state.log if item.event == "go_fox")
    pair = replace(laid, event="pair", seat=1, public='{"after":"give","cards":[],"number":7,"words":[]}')
    state = replace(state, log=(*state.log, pair))
    asks = {go_fox.rollout(GAME, state, 0, random.Random(seed))["number"] for seed in range(30)}
    assert asks != {7}


def test_evaluate_prefers_more_pairs_and_is_a_share() -> None:
    state = states(2, 4)[40]
    even = go_fox.evaluate(GAME, state, 0) + go_fox.evaluate(GAME, state, 1)
    assert even == pytest.approx(1.0)
    ahead = replace(state, pairs=((*state.pairs[0], *state.pile[:4]), state.pairs[1]))
    assert go_fox.evaluate(GAME, ahead, 0) > go_fox.evaluate(GAME, state, 0)


def test_knowledge_of_a_go_fox_fades_with_draws() -> None:
    knowledge = go_fox.read_log(
        [
            {"event": "ask", "seat": 0, "asked": 1, "number": 4},
            {"event": "go_fox", "seat": 1, "asker": 0, "number": 4},
        ],
        2,
    )
    none_yet = go_fox.holding_chance(knowledge[1], 4, 5, 1, 50)
    assert none_yet == 0.0
    assert go_fox.holding_chance(knowledge[0], 4, 5, 1, 50) == 1.0
    knowledge[1].draws_since[4] = 3
    assert (
        0.0
        < go_fox.holding_chance(knowledge[1], 4, 5, 1, 50)
        < go_fox.holding_chance(go_fox.read_log([], 2)[1], 4, 5, 1, 50)
    )


def test_two_players_keep_a_pair_in_hand_and_ask_for_a_single() -> None:
    """The pair is a sure point when an ask fails; asking for its number would spend it."""
    likely_pair = {3: 0.9, 5: 0.2}
    assert go_fox.choose([3, 3, 5], "ask", likely_pair, {}, players=2) == {"type": "ask", "number": 5}
    # Nothing else to ask for: the pair's number it is.
    assert go_fox.choose([3, 3], "ask", {3: 0.9}, {}, players=2) == {"type": "ask", "number": 3}
    # Three of a number: a successful ask lays one pair and keeps the other.
    assert go_fox.choose([3, 3, 3, 5], "ask", likely_pair, {}, players=2) == {"type": "ask", "number": 3}


def test_more_players_ask_for_the_likeliest_number_even_a_pair_held() -> None:
    for players in (3, 4, 6):
        chosen = go_fox.choose([3, 3, 5], "ask", {3: 0.9, 5: 0.2}, {}, players=players)
        assert chosen == {"type": "ask", "number": 3}
