"""A turn: one action at a time, one pass and one open at most, what is compulsory, the own-box rule."""

from __future__ import annotations

from games.engine.boom_box import rules
from tests.engine.boom_box.builder import GAME, events, last_entry, play, refusal, table


def test_a_pass_is_compulsory_while_the_start_line_has_boxes() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-gem2"]})
    assert refusal(state, 0, {"type": "done"}) == "must_pass"
    state = play(state, 0, "open", box="1-gem2")
    assert state.turn == 0
    assert refusal(state, 0, {"type": "done"}) == "must_pass"
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"pass"}


def test_every_pass_carries_a_gem_or_boom_claim() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]})
    assert refusal(state, 0, {"type": "pass", "box": "0-gem1"}) == "missing_field"
    assert refusal(state, 0, {"type": "pass", "box": "0-gem1", "claim": "maybe"}) == "bad_field"
    assert GAME.legal_actions(state, 0) == [
        {"type": "pass", "box": "0-gem1", "claim": "gem"},
        {"type": "pass", "box": "0-gem1", "claim": "boom"},
    ]


def test_a_claim_may_be_a_lie_and_everyone_sees_it() -> None:
    state = table(lines={0: ["0-boom1", "0-gem1"], 1: ["1-gem1"]})
    state = play(state, 0, "pass", box="0-boom1", claim="gem")
    for viewer in (0, 1, None):
        shown = GAME.view(state, viewer)["boxes"]["0-boom1"]
        assert shown["passes"] == [{"from": 0, "to": 1, "claim": "gem"}]
        assert shown["place"] == "in_front"
        assert shown["holder"] == 1
    assert GAME.view(state, 1)["boxes"]["0-boom1"]["content"] is None
    assert GAME.view(state, 0)["boxes"]["0-boom1"]["content"] == "boom"
    assert last_entry(state)["claim"] == "gem"


def test_a_passed_box_goes_in_front_of_the_next_seat_not_into_its_start_line() -> None:
    state = table(3, turn=2, lines={2: ["2-gem1", "2-two"], 0: ["0-gem1"]})
    state = play(state, 2, "pass", box="2-two", claim="boom")
    assert state.fronts[0] == ("2-two",)
    assert state.start_lines[0] == ("0-gem1",)


def test_a_box_passed_to_you_may_be_passed_on() -> None:
    state = table(3, lines={1: ["1-gem1"]}, fronts={0: ["2-gem1"]}, passes=[("2-gem1", 2, "gem")])
    state = play(state, 0, "pass", box="2-gem1", claim="boom")
    assert state.fronts[1] == ("2-gem1",)
    assert [made["claim"] for made in GAME.view(state, None)["boxes"]["2-gem1"]["passes"]] == ["gem", "boom"]


def test_a_player_holding_boxes_must_act_before_ending_the_turn() -> None:
    state = table(fronts={0: ["1-gem1"]}, lines={1: ["1-gem2"]})
    assert refusal(state, 0, {"type": "done"}) == "must_act"
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"pass", "open"}


def test_one_pass_and_one_open_at_most_per_turn() -> None:
    state = table(lines={0: ["0-gem1", "0-gem2"], 1: ["1-gem1"]}, fronts={0: ["1-gem2", "1-gem3"]})
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    assert refusal(state, 0, {"type": "pass", "box": "0-gem2", "claim": "gem"}) == "already_passed"
    state = table(lines={0: ["0-gem1", "0-gem2"], 1: ["1-gem1"]}, fronts={0: ["1-gem2", "1-gem3"]})
    state = play(state, 0, "open", box="1-gem2")
    assert refusal(state, 0, {"type": "open", "box": "1-gem3"}) == "already_opened"


def test_done_ends_the_turn_once_the_compulsory_parts_are_met() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-gem2"]})
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    assert state.turn == 0
    assert {"type": "done"} in GAME.legal_actions(state, 0)
    state = play(state, 0, "done")
    assert (state.turn, state.has_passed, state.has_opened) == (1, False, False)


def test_the_turn_ends_by_itself_when_nothing_but_done_is_left() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-gem2"]})
    state = play(state, 0, "open", box="1-gem2")
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    assert state.turn == 1
    state = table(lines={0: ["0-gem1", "0-gem2"], 1: ["1-gem1"]})
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    assert state.turn == 1


def test_boxes_of_a_start_line_or_of_another_seat_cannot_be_opened() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-two"], 1: ["0-two"]})
    assert refusal(state, 0, {"type": "open", "box": "0-gem1"}) == "box_in_start_line"
    assert refusal(state, 0, {"type": "open", "box": "0-two"}) == "not_in_front_of_you"
    assert refusal(state, 0, {"type": "open", "box": "1-gem1"}) == "not_in_front_of_you"
    assert refusal(state, 0, {"type": "open", "box": "9-gem1"}) == "no_such_box"
    assert refusal(state, 0, {"type": "pass", "box": "0-two", "claim": "gem"}) == "not_in_front_of_you"
    assert refusal(state, 1, {"type": "open", "box": "0-two"}) == "not_your_turn"


def test_a_returned_own_box_is_the_only_box_that_may_be_opened() -> None:
    state = table(fronts={0: ["1-gem1", "0-boom1"]}, lines={1: ["1-gem2"]}, passes=[("0-boom1", 1, "gem")])
    assert refusal(state, 0, {"type": "open", "box": "1-gem1"}) == "must_open_own_box"
    assert [action for action in GAME.legal_actions(state, 0) if action["type"] == "open"] == [
        {"type": "open", "box": "0-boom1"}
    ]
    assert GAME.view(state, 0)["turn"]["must_open"] == "0-boom1"


def test_a_returned_own_box_cannot_be_passed_nor_the_turn_ended_before_opening_it() -> None:
    state = table(fronts={0: ["1-gem1", "0-gem1"]}, lines={1: ["1-gem2"]})
    assert refusal(state, 0, {"type": "pass", "box": "0-gem1", "claim": "gem"}) == "must_open_own_box"
    state = play(state, 0, "pass", box="1-gem1", claim="boom")
    assert state.turn == 0
    assert refusal(state, 0, {"type": "done"}) == "must_open_own_box"
    state = play(state, 0, "open", box="0-gem1")
    assert state.turn == 1
    assert state.gems[0] == 1


def test_a_box_goes_round_the_table_back_to_its_owner_who_must_open_it() -> None:
    state = table(3, lines={0: ["0-two", "0-gem1"], 1: ["1-gem1", "1-gem2"], 2: ["2-gem1", "2-gem2"]})
    state = play(state, 0, "pass", box="0-two", claim="gem")
    state = play(state, 1, "pass", box="0-two", claim="gem")
    state = play(state, 2, "pass", box="0-two", claim="boom")
    assert state.turn == 0
    assert rules.returned_box(state, 0) == "0-two"
    assert len(GAME.view(state, None)["boxes"]["0-two"]["passes"]) == 3
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    assert GAME.legal_actions(state, 0) == [{"type": "open", "box": "0-two"}]


def test_a_player_without_boxes_is_skipped_and_the_log_says_so() -> None:
    state = table(3, fronts={0: ["2-gem1"], 2: ["0-gem1"]})
    state = play(state, 0, "open", box="2-gem1")
    assert state.turn == 2
    skip = last_entry(state)
    assert (skip["event"], skip["seat"]) == ("skip", 1)
    assert GAME.to_act(state) == [2]


def test_skipping_goes_round_to_the_only_seat_still_holding_boxes() -> None:
    state = table(3, lines={0: ["0-gem1", "0-gem2"]}, fronts={0: ["1-gem1"]})
    state = play(state, 0, "open", box="1-gem1")
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    assert state.turn == 1
    state = play(state, 1, "open", box="0-gem1")
    assert state.turn == 0
    assert events(state)[-1] == "skip"
