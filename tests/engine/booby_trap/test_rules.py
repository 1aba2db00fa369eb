from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.engine import IllegalAction
from games.engine.booby_trap import BoobyTrap, BoobyTrapState
from games.engine.booby_trap.state import DISCARDED, IN_TRAY, KEPT

from .conftest import loosest_index, tripping_index, with_only_in_tray

SEED = 11


def piece_id(state: BoobyTrapState, index: int) -> str:
    return state.pieces[index].id


def any_touchable(game: BoobyTrap, state: BoobyTrapState) -> str:
    return next(piece["id"] for piece in game.view(state, None)["pieces"] if piece["touchable"])


def touch_and_pass(game: BoobyTrap, state: BoobyTrapState) -> BoobyTrapState:
    seat = state.turn
    state = game.apply(state, seat, {"type": "touch", "piece": any_touchable(game, state)})
    return game.apply(state, seat, {"type": "pass"})


def touch_and_take(game: BoobyTrap, state: BoobyTrapState, index: int) -> BoobyTrapState:
    seat = state.turn
    state = game.apply(state, seat, {"type": "touch", "piece": piece_id(state, index)})
    return game.apply(state, seat, {"type": "take", "piece": piece_id(state, index)})


def code_of(game: BoobyTrap, state: BoobyTrapState, seat: int, action: dict[str, object]) -> str:
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, seat, action)
    return caught.value.code


# -- Passing limit: the rulebook's two examples with three players ------------------


def test_the_first_seat_begins_then_seat_order(game: BoobyTrap) -> None:
    """Decision (docs/games/booby-trap.md, "A turn"): the rulebook's "one person begins" is seat 0."""
    for seed in range(3):
        for players in (1, 2, 4):
            state = game.new(players, seed)
            assert game.to_act(state) == [0]
            if players > 1:
                assert game.to_act(touch_and_pass(game, state)) == [1]


def test_rulebook_game_1_after_two_laps_of_passes_a_must_take(game: BoobyTrap) -> None:
    state = game.new(3, SEED)
    for _ in range(6):
        assert game.view(state, state.turn)["must_take"] is False
        state = touch_and_pass(game, state)
    assert state.turn == 0
    assert game.view(state, 0)["must_take"] is True
    touched = any_touchable(game, state)
    state = game.apply(state, 0, {"type": "touch", "piece": touched})
    assert game.legal_actions(state, 0) == [{"type": "take", "piece": touched}]
    assert code_of(game, state, 0, {"type": "pass"}) == "must_take"


def test_rulebook_game_2_a_take_in_the_second_lap_lets_a_pass_again(game: BoobyTrap) -> None:
    state = game.new(3, SEED)
    for _ in range(4):  # A, B, C pass; A passes
        state = touch_and_pass(game, state)
    state = touch_and_take(game, state, loosest_index(state))  # B picks
    state = touch_and_pass(game, state)  # C passes
    assert state.turn == 0
    assert game.view(state, 0)["must_take"] is False
    state = game.apply(state, 0, {"type": "touch", "piece": any_touchable(game, state)})
    assert {"type": "pass"} in game.legal_actions(state, 0)


def test_a_tripped_take_also_resets_the_passes(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    for _ in range(3):
        state = touch_and_pass(game, state)
    state = touch_and_take(game, state, tripping_index(state))
    assert state.trips == (0, 1)
    assert state.passes == 0


def test_solitaire_passes_twice_then_must_take(game: BoobyTrap) -> None:
    state = game.new(1, SEED)
    state = touch_and_pass(game, state)
    state = touch_and_pass(game, state)
    state = game.apply(state, 0, {"type": "touch", "piece": any_touchable(game, state)})
    assert code_of(game, state, 0, {"type": "pass"}) == "must_take"


# -- Touch, pass and take --------------------------------------------------------------


def test_touch_reading_goes_to_the_toucher_only(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    state = game.apply(state, 0, {"type": "touch", "piece": piece_id(state, 0)})
    mine = game.view(state, 0)
    theirs = game.view(state, 1)
    assert mine["touched"]["reading"]["feel"] in ("loose", "snug", "tight")
    assert 0 <= mine["touched"]["reading"]["gauge"] <= 10
    assert theirs["touched"] == {"piece": piece_id(state, 0), "seat": 0, "reading": None}
    assert "gauge" in mine["log"][-1]
    assert "gauge" not in theirs["log"][-1]
    assert "gauge" not in game.view(state, None)["log"][-1]


def test_same_piece_reads_the_same_until_the_tray_settles(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    target = piece_id(state, 3)
    state = game.apply(state, 0, {"type": "touch", "piece": target})
    first = game.view(state, 0)["touched"]["reading"]
    state = game.apply(state, 0, {"type": "pass"})
    state = touch_and_pass(game, state)
    state = game.apply(state, 0, {"type": "touch", "piece": target})
    assert game.view(state, 0)["touched"]["reading"] == first


def test_safe_take_keeps_the_piece_and_scores_its_value(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    index = loosest_index(state)
    after = touch_and_take(game, state, index)
    assert after.pieces[index].where == KEPT
    assert after.pieces[index].keeper == 0
    assert game.view(after, 1)["scores"][0]["score"] == state.values[state.pieces[index].size]
    assert after.turn == 1
    assert after.arrangement == 1


def test_trip_discards_the_piece_and_every_popped_piece(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    index = tripping_index(state)
    after = touch_and_take(game, state, index)
    last = game.view(after, None)["log"][-1]
    assert last["tripped"] is True
    assert last["markings"] >= 1
    assert after.pieces[index].where == DISCARDED
    by_id = {piece.id: piece for piece in after.pieces}
    assert all(by_id[popped].where == DISCARDED for popped in last["popped"])
    in_tray_before = sum(piece.in_tray for piece in state.pieces)
    assert sum(piece.in_tray for piece in after.pieces) == in_tray_before - 1 - len(last["popped"])


@pytest.mark.parametrize(("values", "penalty"), [("5-10-20", 20), ("1-2-3", 3)])
def test_trip_penalty_is_the_largest_value(game: BoobyTrap, values: str, penalty: int) -> None:
    state = game.new(2, SEED, {"values": values})
    after = touch_and_take(game, state, tripping_index(state))
    assert after.penalties == (penalty, 0)
    assert game.view(after, 0)["scores"][0]["score"] == -penalty
    assert game.view(after, 0)["penalty"] == penalty


def test_taking_needs_the_touched_piece(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    assert code_of(game, state, 0, {"type": "take", "piece": piece_id(state, 0)}) == "touch_first"
    assert code_of(game, state, 0, {"type": "pass"}) == "touch_first"
    state = game.apply(state, 0, {"type": "touch", "piece": piece_id(state, 0)})
    assert code_of(game, state, 0, {"type": "take", "piece": piece_id(state, 1)}) == "not_touched"
    assert code_of(game, state, 0, {"type": "touch", "piece": piece_id(state, 1)}) == "already_touched"


def test_unknown_or_removed_pieces_cannot_be_touched(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    assert code_of(game, state, 0, {"type": "touch", "piece": "nope"}) == "no_such_piece"
    index = loosest_index(state)
    after = touch_and_take(game, state, index)
    assert code_of(game, after, 1, {"type": "touch", "piece": piece_id(state, index)}) == "not_in_tray"


# -- Variants -------------------------------------------------------------------------


def test_size_order_only_the_smallest_size_left_may_be_touched(game: BoobyTrap) -> None:
    state = game.new(2, SEED, {"variant": "size-order"})
    touchable = {action["piece"] for action in game.legal_actions(state, 0)}
    assert touchable == {piece.id for piece in state.pieces if piece.size == 0}
    medium = next(index for index, piece in enumerate(state.pieces) if piece.size == 1)
    assert code_of(game, state, 0, {"type": "touch", "piece": piece_id(state, medium)}) == "wrong_size"
    # With the small pieces gone, the medium ones are next.
    no_small = with_only_in_tray(state, [i for i, piece in enumerate(state.pieces) if piece.size > 0])
    assert {action["piece"] for action in game.legal_actions(no_small, 0)} == {
        piece.id for piece in state.pieces if piece.size == 1
    }


def test_no_pass_touch_and_take_are_one_action(game: BoobyTrap) -> None:
    state = game.new(2, SEED, {"variant": "no-pass"})
    legal = game.legal_actions(state, 0)
    assert {action["type"] for action in legal} == {"take"}
    assert len(legal) == 32
    assert code_of(game, state, 0, {"type": "touch", "piece": piece_id(state, 0)}) == "no_touch_in_no_pass"
    assert code_of(game, state, 0, {"type": "pass"}) == "no_passing"
    after = game.apply(state, 0, {"type": "take", "piece": piece_id(state, loosest_index(state))})
    assert after.turn == 1


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {}), (2, {"variant": "size-order"}), (2, {"variant": "no-pass"}), (4, {"values": "1-2-3"})],
)
def test_game_ends_when_the_tray_holds_as_many_pieces_as_players(
    game: BoobyTrap, players: int, options: dict[str, str]
) -> None:
    fresh = game.new(players, SEED, options)
    smallest = sorted(range(len(fresh.pieces)), key=lambda index: fresh.pieces[index].size)
    one_more = with_only_in_tray(fresh, smallest[: players + 2])
    index = loosest_index(one_more)
    if fresh.variant == "no-pass":
        take = {"type": "take", "piece": piece_id(one_more, index)}
        almost = game.apply(one_more, 0, take)
    else:
        almost = touch_and_take(game, one_more, index)
    in_tray = sum(piece.in_tray for piece in almost.pieces)
    if in_tray > players:
        assert game.result(almost) is None
        last = next(i for i, piece in enumerate(almost.pieces) if piece.in_tray)
        if fresh.variant == "no-pass":
            over = game.apply(almost, almost.turn, {"type": "take", "piece": piece_id(almost, last)})
        else:
            over = touch_and_take(game, almost, last)
    else:
        over = almost
    assert sum(piece.in_tray for piece in over.pieces) <= players
    assert game.to_act(over) == []
    result = game.result(over)
    assert result is not None
    assert "won" not in result
    assert len(result["ranks"]) == players


def test_solitaire_is_won_when_one_piece_is_left(game: BoobyTrap) -> None:
    fresh = game.new(1, SEED)
    assert fresh.variant == "solitaire"
    two = with_only_in_tray(fresh, [0, 1])
    over = touch_and_take(game, two, 0)
    assert game.result(over) == {
        "won": True,
        "scores": [sum(piece.where == KEPT for piece in over.pieces)],
        "ranks": [1],
    }


def test_solitaire_fourth_trip_loses_at_once(game: BoobyTrap) -> None:
    fresh = game.new(1, SEED)
    three_trips = replace(fresh, trips=(3,))
    index = tripping_index(three_trips)
    over = touch_and_take(game, three_trips, index)
    result = game.result(over)
    assert result is not None
    assert result["won"] is False
    assert result["ranks"] == [1]
    assert sum(piece.in_tray for piece in over.pieces) > 1
    assert game.legal_actions(over, 0) == []


def test_solitaire_third_trip_does_not_lose(game: BoobyTrap) -> None:
    fresh = game.new(1, SEED)
    after = touch_and_take(game, replace(fresh, trips=(2,)), tripping_index(fresh))
    assert game.result(after) is None
    assert after.trips == (3,)


def test_solitaire_score_counts_pieces_taken_safely(game: BoobyTrap) -> None:
    state = game.new(1, SEED)
    after = touch_and_take(game, state, loosest_index(state))
    assert game.view(after, 0)["scores"][0]["score"] == 1


@pytest.mark.parametrize(
    ("players", "variant"), [(1, "size-order"), (1, "no-pass"), (2, "solitaire"), (5, "solitaire")]
)
def test_variants_refuse_the_wrong_player_count(game: BoobyTrap, players: int, variant: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        game.new(players, SEED, {"variant": variant})
    assert caught.value.code == "bad_option"


def test_one_player_plays_solitaire_by_default(game: BoobyTrap) -> None:
    assert game.new(1, SEED).variant == "solitaire"
    assert game.new(1, SEED, {"variant": "regular"}).variant == "solitaire"
    assert game.new(2, SEED).variant == "regular"


def test_a_new_tray_holds_the_ruled_pieces_in_the_tray(game: BoobyTrap) -> None:
    state = game.new(2, SEED)
    sizes = [piece.size for piece in state.pieces]
    assert (sizes.count(0), sizes.count(1), sizes.count(2)) == (12, 12, 8)
    assert all(piece.where == IN_TRAY for piece in state.pieces)
    assert json.loads(state.log[0].public)["bar_y"] == game.view(state, None)["tray"]["bar_y"]
