"""The final lap, the 30-turn cap, round scores, the next round and the end of the game."""

from __future__ import annotations

import pytest

from games.engine.dont_go_boom.state import CHOOSE, DRAW, OVER, DontGoBoomState
from games.engine.errors import IllegalAction
from tests.engine.dont_go_boom.scenario import GAME, act, scenario

ONE_DOWN = "1 2 4 / 5 6 8 / 9 11 ~12"
HIDDEN = "~1 ~2 ~4 / ~5 ~6 ~8 / ~9 ~11 ~12"


def discard_and_flip(state: DontGoBoomState, seat: int, position: int) -> DontGoBoomState:
    state = act(state, seat, "draw", source="deck")
    return act(act(state, seat, "discard"), seat, "flip", position=position)


def keep_drawn(state: DontGoBoomState, seat: int, position: int) -> DontGoBoomState:
    return act(act(state, seat, "draw", source="deck"), seat, "keep", position=position)


def test_final_lap_gives_every_other_player_one_more_turn_then_the_round_ends() -> None:
    state = scenario([HIDDEN, ONE_DOWN, HIDDEN], turn=1, deck=["13", "9", "9", "9"])
    state = discard_and_flip(state, 1, 8)
    assert all(state.face_up[1])
    assert state.final_lap_trigger == 1
    assert state.final_lap == (2, 0)
    assert state.turn == 2
    view = GAME.view(state, 0)
    assert view["final_lap"] == {"active": True, "triggered_by": 1, "remaining": [2, 0]}
    assert view["log"][-1]["event"] == "final_lap"
    state = keep_drawn(state, 2, 0)
    assert state.turn == 0
    state = keep_drawn(state, 0, 0)
    # Round 1 is scored and round 2 is dealt.
    assert state.round == 2
    assert state.phase == CHOOSE
    assert len(state.round_scores) == 1
    scores = state.round_scores[0]
    assert scores[1] == 1 + 2 + 4 + 5 + 6 + 8 + 9 + 11 + 12
    assert scores[0] == 9 + 2 + 4 + 5 + 6 + 8 + 9 + 11 + 12


def test_the_player_whose_turn_triggered_the_final_lap_plays_last_if_still_face_down() -> None:
    # Seat 0's Swap hands its card face up to seat 1's last face-down place.
    state = scenario([HIDDEN, ONE_DOWN, HIDDEN], turn=0, deck=["10", "9", "9", "9"])
    state = act(act(state, 0, "draw", source="deck"), 0, "swap", position=0, target_seat=1, target_position=8)
    assert all(state.face_up[1])
    assert state.final_lap_trigger == 1
    assert state.final_lap == (2, 0)
    state = keep_drawn(state, 2, 0)
    assert state.turn == 0
    state = keep_drawn(state, 0, 0)
    assert state.round == 2


def test_minefields_filling_up_during_the_final_lap_change_nothing() -> None:
    state = scenario([ONE_DOWN, ONE_DOWN, ONE_DOWN], turn=0, deck=["13", "13", "9", "9"])
    state = discard_and_flip(state, 0, 8)
    assert state.final_lap == (1, 2)
    state = discard_and_flip(state, 1, 8)
    assert state.final_lap == (2,)
    assert state.final_lap_trigger == 0
    assert [item.event for item in state.log].count("final_lap") == 1
    state = keep_drawn(state, 2, 0)
    assert state.round == 2


def test_round_ends_at_once_when_no_one_is_owed_a_final_turn() -> None:
    # Play cannot reach this (the first all-face-up minefield starts the final lap),
    # but a built state where everyone is all face up ends the round at once.
    state = scenario([ONE_DOWN, "1 2 4 / 5 6 8 / 9 11 13"], deck=["13"])
    state = discard_and_flip(state, 0, 8)
    events = [item.event for item in state.log]
    assert events[events.index("final_lap") + 1] == "round_end"
    assert state.round == 2


def test_round_ends_without_a_final_lap_after_30_turns_per_player() -> None:
    state = scenario([HIDDEN, HIDDEN], turn=1, turns_taken=59, deck=["9"])
    state = keep_drawn(state, 1, 0)
    events = [item.event for item in state.log]
    assert events[-3:] == ["turn_cap", "round_end", "round_start"]
    assert "final_lap" not in events
    assert state.round == 2
    assert state.turns_taken == 0


def test_the_turn_cap_counts_turns_not_actions() -> None:
    state = scenario([HIDDEN, HIDDEN], turn=1, turns_taken=58, deck=["3D", "13", "9"])
    state = act(act(state, 1, "draw", source="deck"), 1, "draw_again")
    state = act(act(state, 1, "discard"), 1, "flip", position=0)
    assert state.turns_taken == 59
    assert state.round == 1
    assert GAME.view(state, 0)["turn_limit"] == 60


def test_a_trigger_on_the_last_capped_turn_still_gets_its_final_lap() -> None:
    state = scenario([HIDDEN, ONE_DOWN], turn=1, turns_taken=59, deck=["13", "9"])
    state = discard_and_flip(state, 1, 8)
    assert state.round == 1
    assert state.final_lap == (0,)
    assert state.turn == 0


def test_game_ends_after_the_last_round_with_totals_and_shared_ranks() -> None:
    state = scenario(
        [ONE_DOWN, ONE_DOWN, "2 2 2 / 5 ~B 3 / 9 9 9"],
        turn=0,
        rounds=2,
        round_number=2,
        round_scores=[[10, 10, 60]],
        deck=["13", "12", "1"],
    )
    state = discard_and_flip(state, 0, 8)
    state = keep_drawn(state, 1, 8)
    assert state.phase == DRAW
    # Seat 2 replaces its face-down bomb with the 1: 5 + 1 + 3 = 9.
    state = keep_drawn(state, 2, 4)
    assert state.phase == OVER
    assert all(all(up) for up in state.face_up)
    assert GAME.to_act(state) == []
    assert state.round_scores[1] == (58, 58, 9)
    result = GAME.result(state)
    assert result == {"scores": [68, 68, 69], "ranks": [1, 1, 3]}
    assert GAME.view(state, None)["totals"] == [68, 68, 69]
    assert state.log[-1].text == "The game is over: {s0} and {s1} share the win with 68 points."
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "draw", source="deck")
    assert error.value.code == "game_over"


def test_result_is_none_until_the_game_is_over() -> None:
    state = scenario([HIDDEN, HIDDEN], rounds=1)
    assert GAME.result(state) is None


def test_a_new_round_redeals_everything_with_fresh_card_ids() -> None:
    state = scenario([HIDDEN, ONE_DOWN], turn=1, deck=["13", "9"])
    old_ids = set(state.ids)
    state = keep_drawn(discard_and_flip(state, 1, 8), 0, 0)
    assert state.round == 2
    assert not old_ids & set(state.ids)
    assert len(state.deck) == 108 - 18
    assert state.removed == () and state.discard == () and state.public_deck == ()
    assert GAME.to_act(state) == [0, 1]
    view = GAME.view(state, 0)
    assert view["round_scores"] == [list(state.round_scores[0])]
    assert view["last_round"]["round"] == 1
    assert view["last_round"]["minefields"][1]["score"] == state.round_scores[0][1]
    assert view["phase"] == CHOOSE
    for seat in (0, 1):
        state = act(state, seat, "choose", position=4)
    assert state.phase == DRAW


def test_one_round_game_option_ends_after_the_first_round() -> None:
    state = scenario([HIDDEN, ONE_DOWN], turn=1, rounds=1, deck=["13", "9"])
    state = keep_drawn(discard_and_flip(state, 1, 8), 0, 0)
    assert state.phase == OVER
    assert GAME.result(state) is not None
