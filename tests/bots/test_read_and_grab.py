"""The Read and Grab bots: legal from any view, view-only, and they grab the best set."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.bots import read_and_grab
from games.engine.read_and_grab import ReadAndGrab
from games.engine.read_and_grab.game import ReadAndGrabState
from games.engine.word_cards import WORDS
from tests.bots.helpers import (
    assert_legal_through_a_random_game,
    finish_basic_against_random,
    key,
)
from tests.engine.playouts import random_game

GAME = ReadAndGrab()


def states(players: int, seed: int) -> tuple[ReadAndGrabState, ...]:
    """Every state of a seeded random game, the first waiting seat acting each time."""
    return random_game(GAME, players, seed, first_seat=True).states


@pytest.mark.parametrize("players", range(2, 7))
def test_basic_and_rollout_are_always_legal(players: int) -> None:
    for seed in range(3):
        assert_legal_through_a_random_game(GAME, read_and_grab, players, seed)


@pytest.mark.parametrize("players", [2, 4])
def test_basic_decides_from_the_view_alone(players: int) -> None:
    rng = random.Random(players)
    for state in states(players, 5)[:-1:3]:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        same_view = GAME.view(GAME.sample(view, seat, rng), seat)
        assert key(read_and_grab.basic(GAME, view, seat, random.Random(1))) == key(
            read_and_grab.basic(GAME, same_view, seat, random.Random(1))
        )


def test_basic_and_rollout_agree() -> None:
    for state in states(3, 8)[:-1]:
        seat = GAME.to_act(state)[0]
        assert read_and_grab.basic(GAME, GAME.view(state, seat), seat, random.Random(0)) == (
            read_and_grab.rollout(GAME, state, seat, random.Random(0))
        )


def fives(*colours: int) -> tuple[int, ...]:
    return tuple(WORDS.card(colour, 5).index for colour in colours)


def grab_choice(sets: dict[int, tuple[int, ...]], complete: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    """Seat 0 has just turned over a 5; ``sets``: each seat's set of 5s."""
    state = GAME.new(len(complete), 1)
    open_sets = []
    for seat, seat_sets in enumerate(state.open_sets):
        mine = list(seat_sets)
        mine[4] = sets.get(seat, ())
        open_sets.append(tuple(mine))
    flipped = sets[0][-1]
    state = replace(state, turn=0, flipped=flipped, open_sets=tuple(open_sets), complete=complete)
    assert len(GAME.legal_actions(state, 0)) > 1
    return read_and_grab.basic(GAME, GAME.view(state, 0), 0, random.Random(0))


def test_grabs_the_biggest_set() -> None:
    choice = grab_choice({0: fives(0), 1: fives(1), 2: fives(2, 3)}, ((), (), ()))
    assert choice == {"type": "grab", "from": 2}


def test_grabs_from_the_leader_between_equal_sets() -> None:
    choice = grab_choice({0: fives(0), 1: fives(1), 2: fives(2)}, ((), (), (3,)))
    assert choice == {"type": "grab", "from": 2}
    choice = grab_choice({0: fives(0), 1: fives(1), 2: fives(2)}, ((), (3,), ()))
    assert choice == {"type": "grab", "from": 1}


def test_grabs_rather_than_passes() -> None:
    choice = grab_choice({0: fives(0, 1, 2), 1: fives(3)}, ((4, 6), ()))
    assert choice == {"type": "grab", "from": 1}


def last_cards_turned(state: ReadAndGrabState) -> list[int]:
    """Per seat, how many numbers it will turn the last card of: the middle is fixed at
    setup and every turn turns over exactly one card, seats in order from the first."""
    first = GAME.to_act(state)[0]
    turner_of_last = {}
    for position, card in enumerate(state.middle):
        turner_of_last[WORDS.cards[card].number] = (first + position) % state.players
    counts = [0] * state.players
    for seat in turner_of_last.values():
        counts[seat] += 1
    return counts


@pytest.mark.parametrize("seed", range(12))
def test_two_players_the_deal_decides_once_basic_grabs(seed: int) -> None:
    """Why no bot beats basic in two-player Read and Grab (docs/games/read-and-grab.md): a set
    completes only for whoever turns its number's last card, and only if they then
    hold all six, which with one opponent a grab always gives. So basic completes
    exactly the numbers whose last card it turns, and whatever the other seat
    does, it completes at most its own: the deal fixes basic's result."""
    state = GAME.new(2, seed)
    last = last_cards_turned(state)
    basic_seat = seed % 2
    final = finish_basic_against_random(GAME, state, basic_seat, read_and_grab.basic, random.Random(seed))
    result = GAME.result(final)
    assert result is not None
    complete = result["scores"]
    assert complete[basic_seat] == last[basic_seat]
    assert complete[1 - basic_seat] <= last[1 - basic_seat]
