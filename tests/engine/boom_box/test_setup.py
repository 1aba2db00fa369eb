"""Setup: six boxes per troll, the secret Start Line choice, the seeded first player."""

from __future__ import annotations

import json
from collections import Counter

from games.engine.boom_box.state import BOOM, COLOURS, BoomBoxState
from tests.engine.boom_box.builder import GAME, events, play, refusal, table


def set_aside_first_two(state: BoomBoxState, seat: int) -> BoomBoxState:
    for box_id in GAME.view(state, seat)["choose_from"][:2]:
        state = play(state, seat, "set_aside", box=box_id)
    return state


def test_each_troll_gets_two_booms_three_gems_and_a_two_gem_box_in_their_colour() -> None:
    state = GAME.new(4, seed=3)
    for seat in range(4):
        own = [box for box in state.boxes if box.owner == seat]
        assert Counter(box.gems for box in own) == {BOOM: 2, 1: 3, 2: 1}
        shown = GAME.view(state, seat)["boxes"]
        assert {shown[box.id]["colour"] for box in own} == {COLOURS[seat]}


def test_box_ids_are_distinct_and_tell_nothing_about_contents() -> None:
    contents_of_smallest_id = set()
    for seed in range(40):
        state = GAME.new(2, seed)
        ids = [box.id for box in state.boxes]
        assert len(set(ids)) == 12
        assert ids == sorted(ids)
        contents_of_smallest_id.add(
            min((box for box in state.boxes if box.owner == 0), key=lambda b: b.id).gems
        )
    assert contents_of_smallest_id == {0, 1, 2}


def test_everyone_chooses_a_start_line_at_the_same_time() -> None:
    state = GAME.new(3, seed=1)
    assert GAME.to_act(state) == [0, 1, 2]
    assert len(GAME.legal_actions(state, 1)) == 6
    state = set_aside_first_two(state, 1)
    assert GAME.to_act(state) == [0, 2]
    state = play(state, 0, "set_aside", box=GAME.view(state, 0)["choose_from"][0])
    assert GAME.to_act(state) == [0, 2]
    assert len(GAME.legal_actions(state, 0)) == 5


def test_the_four_boxes_not_set_aside_form_the_start_line() -> None:
    state = GAME.new(2, seed=5)
    mine = GAME.view(state, 0)["choose_from"]
    state = play(state, 0, "set_aside", box=mine[4])
    state = play(state, 0, "set_aside", box=mine[1])
    seat_view = GAME.view(state, 0)["seats"][0]
    assert seat_view["start_line"] == [mine[0], mine[2], mine[3], mine[5]]
    assert seat_view["set_aside"] == [mine[4], mine[1]]


def test_set_aside_boxes_stay_secret_to_their_owner() -> None:
    state = GAME.new(2, seed=8)
    aside = GAME.view(state, 0)["choose_from"][:2]
    state = set_aside_first_two(state, 0)
    state = set_aside_first_two(state, 1)
    for viewer in (1, None):
        shown = GAME.view(state, viewer)
        assert not set(aside) & set(shown["boxes"])
        assert aside[0] not in json.dumps(shown)
        assert shown["seats"][0]["set_aside"] is None
        assert shown["seats"][0]["set_aside_count"] == 2
    own = GAME.view(state, 0)
    assert own["seats"][0]["set_aside"] == aside
    assert all(own["boxes"][box_id]["content"] is not None for box_id in aside)
    start_entry = next(item for item in own["log"] if item["event"] == "start_line" and item["seat"] == 0)
    assert start_entry["set_aside"] == aside


def test_the_starting_seat_comes_from_the_seed_and_is_logged() -> None:
    starters = set()
    for seed in range(30):
        state = GAME.new(3, seed)
        for seat in range(3):
            state = set_aside_first_two(state, seat)
        assert state.phase == "play"
        first = GAME.view(state, None)["log"][-1]
        assert first["event"] == "first_player"
        assert first["starting_seat"] == state.turn == state.starting_seat
        assert GAME.to_act(state) == [state.turn]
        starters.add(state.turn)
    assert starters == {0, 1, 2}


def test_setup_refuses_foreign_unknown_and_repeated_boxes() -> None:
    state = GAME.new(2, seed=2)
    mine = GAME.view(state, 0)["choose_from"]
    theirs = GAME.view(state, 1)["choose_from"]
    assert refusal(state, 0, {"type": "set_aside", "box": theirs[0]}) == "not_your_box"
    assert refusal(state, 0, {"type": "set_aside", "box": "nosuchbox"}) == "no_such_box"
    state = play(state, 0, "set_aside", box=mine[0])
    assert refusal(state, 0, {"type": "set_aside", "box": mine[0]}) == "already_set_aside"
    assert refusal(state, 0, {"type": "open", "box": mine[1]}) == "choose_start_line"
    state = play(state, 0, "set_aside", box=mine[1])
    assert refusal(state, 0, {"type": "set_aside", "box": mine[2]}) == "not_your_turn"


def test_setting_aside_during_play_is_refused() -> None:
    state = table(lines={0: ["0-gem1"]})
    assert refusal(state, 0, {"type": "set_aside", "box": "0-gem2"}) == "wrong_phase"


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    def run() -> str:
        state = GAME.new(3, seed=99)
        for seat in range(3):
            state = set_aside_first_two(state, seat)
        return json.dumps(GAME.encode(state), sort_keys=True)

    assert run() == run()
    assert events(GAME.new(2, seed=0)) == ["deal"]
