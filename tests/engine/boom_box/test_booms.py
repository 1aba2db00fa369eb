"""Opening: gems add, a Boom cancels them all, and a Boom at zero gems costs a box chosen by its owner."""

from __future__ import annotations

from tests.engine.boom_box.builder import GAME, events, last_entry, play, refusal, table


def test_gems_add_up_and_the_two_gem_box_counts_two() -> None:
    state = table(fronts={0: ["1-two"]}, opened={0: ["1-gem1"]}, lines={1: ["1-gem2"]})
    assert state.gems[0] == 1
    state = play(state, 0, "open", box="1-two")
    assert state.gems[0] == 3
    assert last_entry(state)["content"] == "two_gems"


def test_a_boom_cancels_all_gems_and_costs_nothing_more_when_there_were_gems() -> None:
    state = table(fronts={0: ["1-boom1", "1-gem3"]}, opened={0: ["1-gem1", "1-two"]}, lines={1: ["1-gem2"]})
    assert state.gems[0] == 3
    state = play(state, 0, "open", box="1-boom1")
    assert state.gems[0] == 0
    assert state.loss_chooser is None
    assert GAME.to_act(state) == [0]
    assert state.fronts[0] == ("1-gem3",)
    assert GAME.view(state, None)["seats"][0]["opened"] == ["1-gem1", "1-two", "1-boom1"]


def test_a_boom_at_zero_gems_lets_its_owner_choose_which_box_the_opener_loses() -> None:
    state = table(
        3,
        lines={0: ["0-gem1"], 2: ["2-gem1"]},
        fronts={0: ["1-boom1", "2-two"]},
        opened={0: ["2-boom1"]},
    )
    state = play(state, 0, "open", box="1-boom1")
    assert GAME.to_act(state) == [1]
    assert state.loss_chooser == 1
    assert GAME.legal_actions(state, 1) == [
        {"type": "remove", "box": "0-gem1"},
        {"type": "remove", "box": "2-two"},
    ]
    assert GAME.legal_actions(state, 0) == []
    assert refusal(state, 0, {"type": "pass", "box": "0-gem1", "claim": "gem"}) == "not_your_turn"
    pending = GAME.view(state, 2)["pending_loss"]
    assert pending == {"chooser": 1, "opener": 0, "boom": "1-boom1", "choices": ["0-gem1", "2-two"]}

    state = play(state, 1, "remove", box="2-two")
    assert state.removed[0].box == "2-two"
    assert state.fronts[0] == ()
    assert GAME.to_act(state) == [0]
    assert state.turn == 0
    assert events(state)[-2:] == ["loss_due", "remove"]


def test_the_owner_chooses_even_when_the_owner_is_the_opener() -> None:
    state = table(lines={0: ["0-gem1", "0-gem2"], 1: ["1-gem1"]}, fronts={0: ["0-boom1", "1-two"]})
    state = play(state, 0, "open", box="0-boom1")
    assert GAME.to_act(state) == [0]
    assert refusal(state, 0, {"type": "pass", "box": "0-gem1", "claim": "gem"}) == "must_choose_loss"
    assert refusal(state, 0, {"type": "done"}) == "must_choose_loss"
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"remove"}
    state = play(state, 0, "remove", box="1-two")
    assert GAME.to_act(state) == [0]
    assert state.removed[0].chooser == 0


def test_after_a_loss_what_is_compulsory_is_judged_on_the_boxes_left() -> None:
    # The opener opened before passing; losing the last Start Line box lifts the compulsory pass.
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-boom1", "1-two"]})
    state = play(state, 0, "open", box="1-boom1")
    state = play(state, 1, "remove", box="0-gem1")
    assert state.turn == 0
    view = GAME.view(state, 0)["turn"]
    assert view["must_pass"] is False
    assert view["can_end"] is True
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"pass", "done"}

    # Losing a passed box instead leaves the Start Line box to pass.
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-boom1", "1-two"]})
    state = play(state, 0, "open", box="1-boom1")
    state = play(state, 1, "remove", box="1-two")
    assert GAME.view(state, 0)["turn"]["must_pass"] is True
    assert refusal(state, 0, {"type": "done"}) == "must_pass"


def test_after_a_loss_the_turn_ends_if_nothing_is_left_to_do() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-boom1", "1-two"]})
    state = play(state, 0, "pass", box="0-gem1", claim="gem")
    state = play(state, 0, "open", box="1-boom1")
    assert GAME.to_act(state) == [1]
    state = play(state, 1, "remove", box="1-two")
    assert (state.turn, state.has_passed, state.has_opened) == (1, False, False)


def test_a_boom_at_zero_gems_with_no_box_left_costs_nothing() -> None:
    state = table(fronts={0: ["1-boom1"]}, lines={1: ["1-gem1"]})
    state = play(state, 0, "open", box="1-boom1")
    assert state.loss_chooser is None
    assert state.removed == ()
    assert "boom_in_face" in events(state)
    assert GAME.to_act(state) == [1]


def test_a_box_is_lost_only_at_zero_gems() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-boom1"]}, opened={0: ["1-gem2"]})
    state = play(state, 0, "open", box="1-boom1")
    assert state.loss_chooser is None
    assert state.start_lines[0] == ("0-gem1",)


def test_the_lost_box_must_be_one_the_opener_holds() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-boom1", "1-two"], 1: ["0-two"]})
    state = play(state, 0, "open", box="1-boom1")
    assert refusal(state, 1, {"type": "remove", "box": "1-gem1"}) == "not_losable"
    assert refusal(state, 1, {"type": "remove", "box": "0-two"}) == "not_losable"
    assert refusal(state, 1, {"type": "remove", "box": "1-boom1"}) == "not_losable"
    assert refusal(state, 1, {"type": "remove", "box": "nosuchbox"}) == "no_such_box"
    assert refusal(state, 1, {"type": "remove"}) == "missing_field"


def test_remove_is_refused_when_no_box_is_being_lost() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]})
    assert refusal(state, 0, {"type": "remove", "box": "0-gem1"}) == "no_loss_pending"


def test_a_removed_box_stays_secret_except_to_its_owner() -> None:
    state = table(3, lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-boom1", "2-two"]})
    state = play(state, 0, "open", box="1-boom1")
    state = play(state, 1, "remove", box="2-two")
    for viewer in (0, 1, None):
        shown = GAME.view(state, viewer)
        assert shown["boxes"]["2-two"]["place"] == "removed"
        assert shown["boxes"]["2-two"]["content"] is None
        assert "content" not in shown["log"][-1]
        assert shown["removed"] == [{"box": "2-two", "from": 0, "chooser": 1}]
    owner = GAME.view(state, 2)
    assert owner["boxes"]["2-two"]["content"] == "two_gems"
    assert owner["log"][-1]["content"] == "two_gems"
    assert "two gems" in owner["log"][-1]["text"]
