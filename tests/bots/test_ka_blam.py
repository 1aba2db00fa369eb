"""The Ka-Blam! bots: legal from any view, view-only, and sensible with a hand of choices."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.bots import ka_blam
from games.engine.ka_blam import KaBlam, KaBlamState
from games.engine.ka_blam.cards import COLOURS, FIRST_WILD, KIND, PICK_UP_2, WILD, action_card
from games.engine.word_cards import WORDS
from tests.bots.helpers import assert_legal_through_a_random_game, key
from tests.engine.playouts import random_game

GAME = KaBlam()
RED, BLUE = COLOURS.index("red"), COLOURS.index("blue")


def states(players: int, seed: int, options: dict[str, Any] | None = None) -> tuple[KaBlamState, ...]:
    """Every state of a seeded random game, the first waiting seat acting each time."""
    return random_game(GAME, players, seed, options, first_seat=True).states


@pytest.mark.parametrize("players", range(2, 7))
def test_basic_and_rollout_are_always_legal(players: int) -> None:
    for seed in range(4):
        options = {"length": "short"} if seed % 2 else None
        assert_legal_through_a_random_game(GAME, ka_blam, players, seed, options)


@pytest.mark.parametrize("players", [2, 4])
def test_basic_decides_from_the_view_alone(players: int) -> None:
    """A sampled state with the same view (other hands and pile re-dealt) gets the same choice."""
    rng = random.Random(players)
    for state in states(players, 7)[:-1:4]:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        other = GAME.sample(view, seat, rng)
        assert other.hands != state.hands or other.pile != state.pile or len(state.pile) < 2
        same_view = GAME.view(other, seat)
        assert key(ka_blam.basic(GAME, view, seat, random.Random(1))) == key(
            ka_blam.basic(GAME, same_view, seat, random.Random(1))
        )


def word(colour: int, number: int) -> int:
    return WORDS.card(colour, number).index


def with_hand(hand: list[int], top: int, colour: int, players: int = 2) -> tuple[KaBlamState, int]:
    state = GAME.new(players, 3)
    seat = state.turn
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    return replace(state, hands=tuple(hands), discard=(top, *state.discard[1:]), colour=colour), seat


def played(state: KaBlamState, seat: int) -> dict[str, Any]:
    action = ka_blam.basic(GAME, GAME.view(state, seat), seat, random.Random(0))
    assert key(action) in {key(legal) for legal in GAME.legal_actions(state, seat)}
    return action


def test_keeps_the_wild_while_another_card_plays() -> None:
    state, seat = with_hand([FIRST_WILD, word(RED, 3), word(BLUE, 9)], word(RED, 5), RED)
    assert played(state, seat) == {"type": "play", "card": state.ids[word(RED, 3)]}


def test_names_the_colour_it_holds_most_with_a_wild() -> None:
    hand = [FIRST_WILD, word(BLUE, 2), word(BLUE, 4), word(RED, 9)]
    state, seat = with_hand(hand, word(COLOURS.index("green"), 5), COLOURS.index("green"))
    assert played(state, seat) == {"type": "play_wild", "card": state.ids[FIRST_WILD], "colour": "blue"}


def test_plays_an_action_card_first_with_two_players() -> None:
    pick_up = action_card(RED, PICK_UP_2)
    state, seat = with_hand([word(RED, 2), pick_up, word(RED, 4)], word(RED, 5), RED)
    assert played(state, seat) == {"type": "play", "card": state.ids[pick_up]}


def test_switches_to_the_colour_it_holds_most() -> None:
    # Red 5 on top: the blue 5 leaves two blues to follow with, the red 1 nothing.
    hand = [word(RED, 1), word(BLUE, 5), word(BLUE, 2), word(BLUE, 7)]
    state, seat = with_hand(hand, word(RED, 5), RED)
    assert played(state, seat) == {"type": "play", "card": state.ids[word(BLUE, 5)]}


def test_draws_when_nothing_plays() -> None:
    state, seat = with_hand([word(BLUE, 2)], word(RED, 5), RED)
    assert played(state, seat) == {"type": "draw"}
    assert all(KIND[card] != WILD for card in state.hands[seat])
