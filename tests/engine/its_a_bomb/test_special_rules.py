"""The rules of special scenarios: the purple rule, the cutting order, the additional bomb."""

from __future__ import annotations

from games.engine.its_a_bomb.consultants import EMPLOYEE_TURN
from games.engine.its_a_bomb.scenarios import SCENARIO_BY_SLUG
from tests.engine.its_a_bomb.builder import GAME, ask, cut, start

# Static (purple rule):           Sequence (cutting order and purple rule):
#   r y b g p                        r y b g p -
#   - - X - -                        a T V X - -
#   r y b g p                        r y b g p -
#   - X - - X                        X a - - - -
#   r y b g p                        r y b g p X
#                                    - - - X - -


def test_purple_rule_every_purple_cable_is_progress_until_all_three_are_cut() -> None:
    state = start("static", consultants=())
    for column in range(4):
        state = cut(state, 0, column)
    for row in (0, 2):
        state = cut(state, row, 4)
        assert state.outcome == "" and state.discard == ()
    purple = next(colour for colour in GAME.view(state, 1)["colours"] if colour["colour"] == "purple")
    assert (purple["cut"], purple["needed"], purple["done"]) == (2, 3, False)
    state = cut(state, 4, 4)
    assert state.outcome == "won" and state.discard == ()


def test_without_the_purple_rule_one_purple_cable_is_enough() -> None:
    state = start("countdown", consultants=())
    state = cut(state, 0, 4)
    state = cut(state, 2, 4)  # a second purple cable: not progress
    # The top Timer is the available time (tuned for balance, so read from the table).
    assert state.discard == (f"timer-{10 * SCENARIO_BY_SLUG['countdown'].time}",)
    assert GAME.view(state, 1)["scenario"]["purple_rule"] is False


def test_cutting_order_a_colour_started_before_an_earlier_one_explodes() -> None:
    state = cut(start("sequence", consultants=()), 0, 1)  # yellow before any red
    assert state.outcome == "lost" and state.cause == "cutting_order"
    assert "Out of order" in state.log[-2].text


def test_cutting_order_purple_before_green_explodes() -> None:
    state = start("sequence", consultants=())
    for column in range(3):
        state = cut(state, 0, column)  # red, yellow, blue
    state = cut(state, 0, 4)  # purple before green
    assert state.cause == "cutting_order"


def test_cutting_order_only_binds_the_first_cable_of_each_colour() -> None:
    state = start("sequence", consultants=())
    for column in range(5):
        state = cut(state, 0, column)  # red, yellow, blue, green, purple: in order
    state = cut(state, 2, 0)  # a second red, fine
    assert state.outcome == ""
    state = cut(state, 4, 4)  # the second purple: progress under the purple rule
    assert state.outcome == "" and state.discard == ("timer-90",)
    state = cut(state, 2, 4)
    assert state.outcome == "won"


def test_the_cutting_order_is_shown_to_every_seat() -> None:
    state = start("sequence", consultants=())
    for seat in (None, 0, 1):
        assert GAME.view(state, seat)["scenario"]["cutting_order"] == [
            "red",
            "yellow",
            "blue",
            "green",
            "purple",
        ]
    assert GAME.view(start("static"), None)["scenario"]["cutting_order"] is None


def test_additional_bomb_each_grid_needs_a_cable_of_each_of_its_colours() -> None:
    state = start("twins", consultants=())
    state = cut(state, 0, 0)  # grid A: red, yellow, blue
    state = cut(state, 0, 1)
    state = cut(state, 0, 2)
    assert state.outcome == "" and state.phase == EMPLOYEE_TURN
    state = cut(state, 0, 0, grid=1)  # grid B: green
    assert state.outcome == ""
    state = cut(state, 0, 1, grid=1)  # and purple
    assert state.outcome == "won"


def test_additional_bomb_information_and_cuts_name_the_grid() -> None:
    state = start("twins", consultants=())
    state = ask(state, "column", 3, grid=1)  # - g - -
    record = state.information[0]
    assert record.grid == 1 and record.tokens == ("green",)
    assert state.log[-2].text == "{s1} asks for Information on column 4 of grid B: green."
    state = cut(state, 1, 1, grid=1)
    assert state.cause == "explosive"
    assert "grid B, row 2, column 2" in state.log[-2].text
    view = GAME.view(state, 1)
    assert [grid["label"] for grid in view["grids"]] == ["A", "B"]
    assert view["scenario"]["additional_bomb"] is True


def test_both_grids_share_one_countdown() -> None:
    state = start("twins", consultants=())
    state = ask(state, "row", 0)
    state = ask(state, "row", 0, grid=1)
    time = 10 * SCENARIO_BY_SLUG["twins"].time  # tuned for balance: read from the table
    assert state.discard == (f"timer-{time - 10}", f"timer-{time}")
