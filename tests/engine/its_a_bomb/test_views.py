"""What each seat sees, and sampled states that agree with every fact a seat has seen."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engine.its_a_bomb.consultants import INFORMATION
from games.engine.its_a_bomb.scenarios import CALL, SCENARIO_BY_SLUG
from games.engine.its_a_bomb.state import CRISIS_UNIT
from tests.engine.its_a_bomb.builder import GAME, ask, cut, deck, start, use
from tests.engine.its_a_bomb.sampling import curious_play, facts_hold


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def test_the_crisis_unit_sees_every_tile_and_the_countdown_order() -> None:
    state = start("the-call", consultants=(), countdown=deck(80, "call", 70))
    view = GAME.view(state, CRISIS_UNIT)
    assert view["role"] == "crisis_unit"
    assert [tile["kind"] for tile in view["grids"][0]["tiles"][:5]] == [
        "red",
        "yellow",
        "blue",
        "green",
        "receiver",
    ]
    assert [card["card"] for card in view["countdown"]["cards"]] == [
        "timer-80",
        CALL,
        "timer-70",
        "explosion",
    ]


def test_employees_and_spectators_see_only_revealed_tiles_and_the_countdowns_size() -> None:
    state = cut(start("the-call", consultants=(), countdown=deck(80, "call", 70)), 0, 0)
    for seat, role in ((1, "employee"), (2, "employee"), (None, "spectator")):
        view = GAME.view(state, seat)
        assert view["role"] == role
        kinds = [tile["kind"] for tile in view["grids"][0]["tiles"]]
        assert kinds[0] == "red" and kinds[1:] == [None] * 24
        countdown = view["countdown"]
        assert countdown["cards"] is None
        assert (countdown["size"], countdown["special_cards"], countdown["timers_left"]) == (4, [CALL], 2)


def test_views_hide_where_the_hidden_tiles_and_cards_are() -> None:
    one = start("training", consultants=(), countdown=deck(60, 50, 40, 30, 20, 10))
    other = start("training", grids=["- b y r / - X - r / y b - X / b r y -"], consultants=())
    one, other = ask(one, "row", 2), ask(other, "row", 2)
    for seat in (1, 2, None):
        assert canonical(GAME.view(one, seat)) == canonical(GAME.view(other, seat))
    assert canonical(GAME.view(one, CRISIS_UNIT)) != canonical(GAME.view(other, CRISIS_UNIT))
    early = start("the-call", consultants=(), countdown=deck("call", 80, 70, 60, 50, 40, 30, 20, 10))
    late = start("the-call", consultants=(), countdown=deck(80, 70, 60, 50, 40, 30, 20, 10, "call"))
    assert GAME.view(early, 1)["countdown"] == GAME.view(late, 1)["countdown"]
    assert GAME.view(early, CRISIS_UNIT)["countdown"] != GAME.view(late, CRISIS_UNIT)["countdown"]


def test_the_match_chat_is_closed_to_the_crisis_unit_until_the_game_ends() -> None:
    state = start("training", consultants=())
    assert all(GAME.view(state, seat)["chat_closed_seats"] == [CRISIS_UNIT] for seat in (None, 0, 1, 2))
    over = cut(state, 1, 1)
    assert GAME.view(over, None)["chat_closed_seats"] == []


def test_the_view_says_whose_decision_it_is_and_about_what() -> None:
    state = ask(start("training"), "row", 0)
    view = GAME.view(state, 1)
    assert view["phase"] == INFORMATION and view["to_act"] == [CRISIS_UNIT]
    assert view["prompt"]["usable_consultants"] == ["analyst"]
    assert view["pending"]["asked_line"] == {"grid": 0, "line": "row", "index": 0, "label": "row 1"}
    assert {held["name"]: held["usable_now"] for held in view["consultants"]} == {
        "analyst": True,
        "chronometrist": False,
    }


def test_the_log_is_public_and_names_seats_by_mark() -> None:
    state = cut(ask(start("training", consultants=()), "row", 1), 0, 0)
    texts = [entry["text"] for entry in GAME.view(state, None)["log"]]
    assert texts[1:] == [
        "{s1} asks for Information on row 2: " + ", ".join(state.information[0].tokens) + ".",
        "The Countdown reveals the 01:00 Timer: 50 seconds left.",
        "{s2} cuts the tile at row 1, column 1: a red cable, progress!",
    ]
    assert GAME.view(state, CRISIS_UNIT)["log"] == GAME.view(state, 2)["log"]


# -- sampling ----------------------------------------------------------------------------


def test_sampled_states_agree_with_every_information_and_consultant_fact() -> None:
    checked = 0
    for seed in range(4):
        for scenario in ("protocol-27bis", "blackout", "twins"):
            for truth in curious_play(seed, scenario):
                for seat in (1, None):
                    shown = GAME.view(truth, seat)
                    sampled = GAME.sample(shown, seat, random.Random(seed))
                    assert canonical(GAME.view(sampled, seat)) == canonical(shown)
                    facts_hold(sampled, truth)
                    checked += 1
    assert checked > 100


def test_sampled_states_keep_the_negotiators_timer_on_top() -> None:
    top = 10 * SCENARIO_BY_SLUG["static"].time  # the scenario's Timers, tuned for balance
    state = start(
        "static",
        consultants=("negotiator",),
        countdown=deck("signal", top, top - 10, "signal", top - 20, top - 30),
    )
    state = ask(state, "row", 0)
    state = ask(state, "row", 0)
    state = use(state, "negotiator")
    for index in range(20):
        sampled = GAME.sample(GAME.view(state, 1), 1, random.Random(index))
        assert sampled.countdown[0] == state.countdown[0] == f"timer-{top}"


def test_a_sample_for_the_crisis_unit_is_the_truth_but_for_the_generator() -> None:
    truth = curious_play(3, "relife")[6]
    sampled = GAME.sample(GAME.view(truth, CRISIS_UNIT), CRISIS_UNIT, random.Random(1))
    assert sampled.grids == truth.grids and sampled.countdown == truth.countdown
    assert sampled.rng != truth.rng


def test_a_sample_for_an_employee_deals_the_hidden_tiles_again() -> None:
    truth = start("protocol-27bis")
    dealt = {GAME.sample(GAME.view(truth, 1), 1, random.Random(index)).grids[0].tiles for index in range(5)}
    assert len(dealt) == 5 and truth.grids[0].tiles not in dealt
