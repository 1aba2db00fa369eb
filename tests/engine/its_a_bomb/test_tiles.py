"""Rounds, Information and cutting every kind of tile."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.errors import IllegalAction
from games.engine.its_a_bomb.consultants import EMPLOYEE_TURN
from games.engine.its_a_bomb.state import CRISIS_UNIT
from tests.engine.its_a_bomb.builder import (
    GAME,
    ask,
    cut,
    deck,
    is_revealed,
    start,
)
from tests.engine.playouts import random_game

# Training, as laid out in the builder:
#   r y b -
#   - X - r
#   y b - X
#   b r y -


def test_seat_zero_is_the_crisis_unit_and_employees_take_rounds_in_seat_order() -> None:
    state = start("training", players=4, consultants=())
    seats = []
    for _ in range(5):
        seats.append(GAME.to_act(state)[0])
        state = ask(state, "row", 0)
    assert seats == [1, 2, 3, 1, 2]
    assert CRISIS_UNIT not in seats


def test_information_gives_a_token_per_face_down_coloured_cable_or_explosive() -> None:
    state = ask(start("training", consultants=()), "row", 1)
    (record,) = state.information
    assert Counter(record.tokens) == Counter({"explosive": 1, "red": 1})
    assert record.count == 2
    assert (record.line, record.index, record.face_down) == ("row", 1, (4, 5, 6, 7))
    assert not record.disturbed


def test_grey_cables_and_auxiliaries_give_no_token() -> None:
    state = start("wired", consultants=())
    state = ask(state, "column", 4)  # a T - X -  (top to bottom: a, T, -, X, -)
    (record,) = state.information
    assert Counter(record.tokens) == Counter({"battery": 1, "explosive": 1})


def test_information_counts_only_the_tiles_face_down_at_that_moment() -> None:
    state = start("training", consultants=())
    state = cut(state, 1, 3)  # the red cable of row 2: progress
    state = ask(state, "row", 1)
    record = state.information[-1]
    assert record.tokens == ("explosive",)
    assert record.face_down == (4, 5, 6)


def test_a_line_may_be_asked_again_and_each_information_is_kept() -> None:
    state = start("training", consultants=())
    state = ask(state, "row", 0)
    state = ask(state, "row", 0)
    assert [(record.round, record.index) for record in state.information] == [(1, 0), (2, 0)]


def test_information_on_a_line_with_no_face_down_tile_is_refused() -> None:
    state = start("training", grids=["- - - r / r X y b / y b - X / b r y -"], consultants=())
    for column in range(4):
        state = cut(state, 0, column)
    with pytest.raises(IllegalAction) as refused:
        ask(state, "row", 0)
    assert refused.value.code == "line_all_revealed"


def test_token_order_is_seeded_and_does_not_depend_on_where_the_tiles_lie() -> None:
    one = start("training", grids=["r y b - / - X - r / y b - X / b r y -"], consultants=())
    other = start("training", grids=["- b y r / - X - r / y b - X / b r y -"], consultants=())
    assert ask(one, "row", 0).information[0].tokens == ask(other, "row", 0).information[0].tokens
    orders = {
        ask(start("training", consultants=(), seed=seed), "row", 0).information[0].tokens
        for seed in range(20)
    }
    assert len(orders) > 1  # the order is shuffled...
    assert all(Counter(order) == Counter({"red": 1, "yellow": 1, "blue": 1}) for order in orders)


def test_asking_advances_the_countdown_by_one_card() -> None:
    state = start("training", consultants=(), countdown=deck(60, 50, 40, 30, 20, 10))
    state = ask(state, "row", 0)
    assert state.discard == ("timer-60",)
    assert len(state.countdown) == 6


def test_cutting_a_cable_of_a_new_colour_is_progress_and_skips_the_advance() -> None:
    state = start("training", consultants=())
    state = cut(state, 0, 0)  # red
    assert is_revealed(state, 0, 0)
    assert state.discard == ()
    assert state.round == 2 and state.active_seat == 2
    assert state.log[-1].text == "{s1} cuts the tile at row 1, column 1: a red cable, progress!"


def test_cutting_a_cable_of_a_colour_already_done_advances_the_countdown() -> None:
    state = cut(start("training", consultants=()), 0, 0)
    state = cut(state, 1, 3)  # the second red cable
    assert state.discard == ("timer-60",)
    assert "already done" in state.log[-2].text


def test_cutting_a_grey_cable_only_lets_time_pass() -> None:
    state = cut(start("training", consultants=()), 0, 3)
    assert state.discard == ("timer-60",)
    assert state.phase == EMPLOYEE_TURN and state.outcome == ""


def test_cutting_an_explosive_makes_the_bomb_explode() -> None:
    state = cut(start("training", consultants=()), 1, 1)
    assert state.outcome == "lost" and state.cause == "explosive"
    assert GAME.to_act(state) == []
    assert GAME.result(state) == {"won": False, "scores": [0, 0, 0], "ranks": [1, 1, 1]}


def test_an_auxiliary_fires_one_extra_countdown_card_while_the_battery_is_uncut() -> None:
    state = start("wired", consultants=(), countdown=deck(80, 70, 60, 50, 40, 30, 20, 10))
    state = cut(state, 0, 4)  # an Auxiliary: it fires, then the round's advance
    assert state.discard == ("timer-70", "timer-80")
    assert state.log[-3].event == "cut" and "fires" in state.log[-3].text


def test_once_the_battery_is_cut_auxiliaries_are_grey_cables() -> None:
    state = start("wired", consultants=(), countdown=deck(80, 70, 60, 50, 40, 30, 20, 10))
    state = cut(state, 1, 4)  # the Battery: nothing now, then the advance
    assert state.discard == ("timer-80",)
    state = cut(state, 0, 4)  # an Auxiliary, now harmless
    assert state.discard == ("timer-70", "timer-80")


def test_without_a_battery_in_play_auxiliaries_always_fire() -> None:
    state = start("blackout", consultants=(), countdown=deck(90, 80, 70, 60, 50, 40, 30, 20, 10))
    state = cut(state, 0, 5)
    state = cut(state, 2, 5)
    assert len(state.discard) == 4


def test_an_auxiliary_firing_can_reveal_the_explosion() -> None:
    state = start("wired", consultants=(), countdown=deck())
    state = cut(state, 0, 4)
    assert state.outcome == "lost" and state.cause == "explosion"


def test_the_battery_and_the_receiver_do_nothing_when_cut() -> None:
    state = cut(start("the-call", consultants=(), countdown=deck(80, 70)), 0, 4)
    assert state.discard == ("timer-80",)
    assert "Receiver" in state.log[-2].text
    assert state.outcome == ""


def test_cutting_a_revealed_or_missing_tile_is_refused() -> None:
    state = cut(start("training", consultants=()), 0, 0)
    with pytest.raises(IllegalAction) as revealed:
        cut(state, 0, 0)
    assert revealed.value.code == "tile_revealed"
    with pytest.raises(IllegalAction) as missing:
        cut(state, 4, 0)
    assert missing.value.code == "no_such_tile"
    with pytest.raises(IllegalAction) as no_grid:
        cut(state, 0, 0, grid=1)
    assert no_grid.value.code == "no_such_grid"


def test_the_crisis_unit_cannot_ask_or_cut() -> None:
    state = start("training", consultants=())
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, CRISIS_UNIT, {"type": "cut", "grid": 0, "row": 0, "column": 0})
    assert refused.value.code == "not_your_turn"


def test_random_play_only_ever_waits_on_one_seat() -> None:
    played = random_game(GAME, 5, 3, {"scenario": "protocol-27bis"}, first_seat=True)
    assert all(len(GAME.to_act(state)) == 1 for state in played.states[:-1])
    assert GAME.result(played.final) is not None
