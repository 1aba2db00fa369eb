"""Don't Go Boom bots: always legal, decided from the view only, and sensible."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots import dont_go_boom as bot
from games.bots import search
from games.engine.dont_go_boom import DontGoBoom, DontGoBoomState
from games.engine.dont_go_boom.cards import (
    BOMB,
    BOMB_VALUE,
    CARD_COUNT,
    COPIES_PER_NUMBER,
    KIND,
    NUMBER,
    PEEK,
    VALUE,
)
from games.engine.dont_go_boom.state import DECIDE, DRAW, FROM_DECK, FROM_DISCARD, evolve
from tests.bots.helpers import (
    assert_basic_decides_from_the_view_only,
    assert_bot_is_legal_at,
    played_game,
)
from tests.engine.playouts import play_on

GAME = DontGoBoom()
# The games played here are one round each, to keep them short.
ONE_ROUND = {"rounds": 1}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_basic_and_rollout_are_always_legal(players: int) -> None:
    rng = random.Random(players)
    for seed in range(2):
        # Half the seats play basic, so that states reached by sensible play are covered too.
        points = played_game(GAME, bot.basic, players, seed, range(0, players, 2), ONE_ROUND).points
        assert_bot_is_legal_at(GAME, bot, points[::2], rng)


def test_basic_decides_from_the_view_only() -> None:
    """A state re-dealt from the view has the same view, so it gets the same choice."""
    rng = random.Random(7)
    points = played_game(GAME, bot.basic, 3, 11, {0, 1}, ONE_ROUND).points
    assert_basic_decides_from_the_view_only(GAME, bot.basic, points[::3], rng, basic_seed=1)


def test_basic_beats_random_over_a_few_games() -> None:
    wins = 0
    for seed in range(10):
        seat = seed % 2
        state = played_game(GAME, bot.basic, 2, 100 + seed, {seat}, ONE_ROUND).points[-1][0]
        # The last decision point: play it to the end.
        result = GAME.result(play_on(GAME, state, random.Random(seed), first_seat=True).final)
        assert result is not None
        wins += result["ranks"][seat] == 1
    assert wins >= 8


# -- hand-made positions ---------------------------------------------------------------


def _cards(values: list[int]) -> list[int]:
    """Card indices of plain number cards (or bombs, 15) with these values, all different."""
    used: set[int] = set()
    chosen = []
    for value in values:
        for index in range(CARD_COUNT):
            plain = KIND[index] == NUMBER or value == BOMB_VALUE
            if index not in used and VALUE[index] == value and plain:
                used.add(index)
                chosen.append(index)
                break
        else:
            raise AssertionError(f"no card {value} left")
    return chosen


def _position(
    mine: list[int],
    mine_up: list[bool],
    theirs: list[int],
    discard: int,
    held: int | None = None,
    held_from: str = FROM_DECK,
) -> tuple[DontGoBoomState, dict[str, Any]]:
    """Seat 0 to play in a two-player round: minefields, discard top and held card by value."""
    start = played_game(GAME, bot.basic, 2, 1, set(), ONE_ROUND).points[0][0]
    values = mine + theirs + [discard] + ([held] if held is not None else [])
    cards = _cards(values)
    grid0, grid1 = tuple(cards[:9]), tuple(cards[9:18])
    rest = [index for index in range(CARD_COUNT) if index not in cards]
    state = evolve(
        start,
        grids=(grid0, grid1),
        face_up=(tuple(mine_up), (True,) * 4 + (False,) * 5),
        peeked=((), ()),
        deck=tuple(rest),
        discard=(cards[18],),
        public_deck=(),
        phase=DRAW if held is None else DECIDE,
        chosen=(),
        turn=0,
        held=-1 if held is None else cards[19],
        held_from="" if held is None else held_from,
    )
    return state, GAME.view(state, 0)


UP_6 = [True] * 6 + [False] * 3
OPPONENT = [5, 6, 8, 9, 4, 11, 2, 8, 6]
LOW_OPPONENT = [1, 2, 3, 2, 1, 3, 4, 2, 1]
HIGH_OPPONENT = [12, 11, 13, 12, 11, 13, 9, 8, 9]


def test_completes_a_line_of_three() -> None:
    # Two 12s face up in the top row: a drawn 12 goes in the third place (36 points saved).
    state, view = _position([12, 12, 5, 4, 6, 2, 1, 1, 1], UP_6, OPPONENT, discard=9, held=12)
    action = bot.basic(GAME, view, 0, random.Random(0))
    assert action == {"type": "keep", "position": 2}
    assert bot.rollout(GAME, state, 0, random.Random(0)) == action


def test_takes_the_discard_that_completes_a_line() -> None:
    state, view = _position([9, 2, 9, 4, 6, 2, 1, 3, 1], UP_6, OPPONENT, discard=9)
    assert bot.basic(GAME, view, 0, random.Random(0)) == {"type": "draw", "from": "discard"}
    action = bot.basic(
        GAME, GAME.view(GAME.apply(state, 0, {"type": "draw", "from": "discard"}), 0), 0, random.Random(0)
    )
    assert action == {"type": "keep", "position": 1}


def test_leaves_a_useless_high_discard() -> None:
    _state, view = _position([1, 2, 3, 4, 5, 6, 1, 1, 1], UP_6, OPPONENT, discard=13)
    assert bot.basic(GAME, view, 0, random.Random(0)) == {"type": "draw", "from": "deck"}


def test_a_bomb_replaces_a_bomb_free_high_card_not_a_low_one() -> None:
    _state, view = _position([1, 2, 13, 1, 2, 3, 4, 5, 6], [True] * 9, OPPONENT, discard=9, held=BOMB_VALUE)
    assert bot.basic(GAME, view, 0, random.Random(0)) == {"type": "keep", "position": 2}


def test_a_low_card_replaces_a_bomb() -> None:
    _state, view = _position([1, 2, 15, 1, 2, 3, 4, 5, 6], UP_6, OPPONENT, discard=9, held=2)
    assert bot.basic(GAME, view, 0, random.Random(0)) == {"type": "keep", "position": 2}


def test_a_taken_discard_is_always_kept() -> None:
    _state, view = _position(
        [1, 2, 3, 1, 2, 3, 4, 5, 6], UP_6, OPPONENT, discard=9, held=13, held_from=FROM_DISCARD
    )
    assert bot.basic(GAME, view, 0, random.Random(0))["type"] == "keep"


def test_does_not_end_the_round_when_far_behind() -> None:
    # One face-down card left, a grid of 13s against an opponent showing low cards:
    # turning up the last card (keep there, or discard and flip) would lock in the loss.
    mine = [13, 12, 11, 11, 13, 12, 12, 11, 1]
    _state, view = _position(mine, [True] * 8 + [False], LOW_OPPONENT, discard=9, held=8)
    action = bot.basic(GAME, view, 0, random.Random(0))
    assert action["type"] == "keep" and action["position"] != 8


def test_ends_the_round_when_well_ahead() -> None:
    mine = [1, 1, 1, 2, 2, 2, 3, 1, 5]
    _state, view = _position(mine, [True] * 8 + [False], HIGH_OPPONENT, discard=9, held=4)
    action = bot.basic(GAME, view, 0, random.Random(0))
    assert action == {"type": "keep", "position": 8}


def test_evaluate_prefers_the_lower_minefield() -> None:
    state, _ = _position([1, 1, 2, 2, 3, 3, 1, 2, 3], [True] * 9, HIGH_OPPONENT, discard=9)
    state = evolve(state, face_up=((True,) * 9, (True,) * 9))
    assert bot.evaluate(GAME, state, 0) > 0.8
    assert bot.evaluate(GAME, state, 1) < 0.2


def test_pair_chances_count_only_numbers() -> None:
    assert COPIES_PER_NUMBER == 8  # the line-completion chance assumes eight copies


# -- the expert's prior: the deck draw by its expectation ------------------------------


def test_the_deck_draw_is_worth_the_card_it_surely_gives() -> None:
    """With every unseen card one number, the deck's value is that card's best answer;
    with none left but bombs, the bomb's forced keep."""
    _state, view = _position([1, 2, 3, 4, 5, 6, 1, 1, 1], UP_6, OPPONENT, discard=9)
    know = bot.knowledge_from_view(view, 0)
    know.same_chance = [0.0] * 14
    know.same_chance[2] = 1.0
    assert bot.deck_draw_value(know) == bot._held_value(know, 2, NUMBER, FROM_DECK)
    # A 7 is a Peek on five of its eight copies.
    know.same_chance = [0.0] * 14
    know.same_chance[7] = 1.0
    peek, plain = bot._held_value(know, 7, PEEK, FROM_DECK), bot._held_value(know, 7, NUMBER, FROM_DECK)
    assert peek != plain
    assert bot.deck_draw_value(know) == pytest.approx(5 / 8 * peek + 3 / 8 * plain)
    know.same_chance = [0.0] * 14
    assert bot.deck_draw_value(know) == bot._held_value(know, BOMB_VALUE, BOMB, FROM_DECK)
    assert bot._held_value(know, BOMB_VALUE, BOMB, FROM_DECK) == bot._best_keep(BOMB_VALUE, know, True)[0]


def test_the_expert_takes_a_modest_discard_when_the_deck_offers_little() -> None:
    """A low minefield: most deck cards would be thrown away, so a blind draw is worth
    about 2 points here, not the 4 basic always assumes. A 6 for a face-down place (worth
    the unseen average, about 7) is then better than the deck: the expert takes it,
    basic draws."""
    _state, view = _position([1, 2, 3, 4, 5, 6, 1, 1, 1], UP_6, OPPONENT, discard=6)
    know = bot.knowledge_from_view(view, 0)
    draw_gain = bot.deck_draw_value(know) + bot.grid_cost(know.mine, know)
    assert 1.5 < draw_gain < 3.0
    assert bot.basic(GAME, view, 0, random.Random(0)) == {"type": "draw", "from": "deck"}
    assert bot.expert_prior(GAME, view, 0, random.Random(0)) == {"type": "draw", "from": "discard"}


def test_the_expert_prior_is_basic_outside_the_draw() -> None:
    for state, seat in played_game(GAME, bot.basic, 2, 5, {0, 1}, ONE_ROUND).points:
        view = GAME.view(state, seat)
        if state.phase != DRAW:
            assert bot.expert_prior(GAME, view, seat, random.Random(0)) == bot.basic(
                GAME, view, seat, random.Random(0)
            )


def test_the_expert_prior_guides_the_search() -> None:
    assert search._game_prior(GAME) is bot.expert_prior
