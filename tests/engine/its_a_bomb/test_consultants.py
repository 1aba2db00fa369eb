"""The ten Consultants, each at its own moment, each used at most once."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.engine.errors import IllegalAction
from games.engine.its_a_bomb.consultants import (
    ADVANCE,
    CARD_REVEALED,
    CUT_NAMED,
    EMPLOYEE_TURN,
    EXPLOSIVE_REVEALED,
    INFORMATION,
    ROUND_START,
)
from games.engine.its_a_bomb.scenarios import CALL, DISTURBED_SIGNAL
from games.engine.its_a_bomb.state import CRISIS_UNIT, STANDING_PASS, USED, State
from tests.engine.its_a_bomb.builder import (
    GAME,
    ask,
    cu_waits,
    cut,
    deck,
    is_revealed,
    pass_moment,
    start,
    tile,
    use,
)
from tests.engine.playouts import play_on


def usable(state: State) -> list[str]:
    prompt = GAME.view(state, None)["prompt"]
    return list(prompt["usable_consultants"]) if prompt and prompt["seat"] == CRISIS_UNIT else []


def status(state: State, name: str) -> str:
    return next(held.status for held in state.consultants if held.name == name)


# -- Information: Analyst, Surveyor, Informant -------------------------------------------


def test_analyst_lays_tokens_out_in_tile_order_with_blanks_and_revealed_tiles() -> None:
    state = cut(start("training", consultants=("analyst",)), 0, 0)  # the red cable
    state = ask(state, "row", 0)
    assert state.phase == INFORMATION and usable(state) == ["analyst"]
    state = use(state, "analyst")
    (record,) = state.information
    assert record.analyst
    assert record.tokens == ("revealed", "yellow", "blue", "blank")
    slots = GAME.view(state, 2)["information"][0]["slots"]
    assert [slot["tile"] for slot in slots] == ["red", None, None, None]
    assert status(state, "analyst") == USED


def test_analyst_is_not_offered_for_a_disturbed_information() -> None:
    state = replace(start("training", consultants=("analyst",)), disturbances=1)
    state = ask(state, "row", 0)
    assert state.information[0].disturbed
    assert status(state, "analyst") != USED


def test_surveyor_gives_information_on_one_more_line() -> None:
    # A Countdown without the Call, so that one advance discards one card whatever the
    # scenario's (tuned) time puts where.
    state = ask(start("the-call", consultants=("surveyor",), countdown=deck(40, 30, 20, 10)), "row", 1)
    with pytest.raises(IllegalAction) as same:
        use(state, "surveyor", line="row", index=1)
    assert same.value.code == "same_line"
    state = use(state, "surveyor", line="column", index=4)
    asked, extra = state.information
    assert not asked.surveyor and extra.surveyor
    assert (extra.line, extra.index) == ("column", 4)
    assert Counter(extra.tokens) == Counter({"receiver": 1, "explosive": 2})  # V - X - X
    assert len(state.discard) == 1  # one Information, one advance


def test_surveyor_may_name_the_other_grid() -> None:
    state = start("twins", consultants=("surveyor",))
    state = use(ask(state, "row", 0), "surveyor", line="row", index=0, grid=1)
    assert [(record.grid, record.index) for record in state.information] == [(0, 0), (1, 0)]
    assert Counter(state.information[1].tokens) == Counter({"green": 1, "purple": 1})


def test_informant_gives_grey_cables_grey_tokens_but_not_auxiliaries() -> None:
    state = ask(start("wired", consultants=("informant",)), "column", 4)  # a T - X -
    state = use(state, "informant")
    assert Counter(state.information[0].tokens) == Counter({"battery": 1, "explosive": 1, "grey": 2})


def test_analyst_and_informant_together_apply_to_both_lines() -> None:
    state = ask(start("protocol-27bis", consultants=("analyst", "informant", "surveyor")), "row", 1)
    state = use(state, "informant")
    state = use(state, "analyst")
    state = use(state, "surveyor", line="row", index=3)
    asked, extra = state.information
    assert asked.tokens == ("explosive", "blank", "battery", "receiver", "grey", "grey", "grey")
    assert extra.tokens == ("explosive", "blank", "grey", "grey", "grey", "grey", "explosive")
    assert asked.analyst and extra.analyst and asked.informant and extra.informant


# -- Cut: Sapper ---------------------------------------------------------------------------


def test_sapper_stops_a_cut_and_the_employee_must_cut_another_tile() -> None:
    state = cut(start("lab-n457", consultants=("sapper",)), 1, 0)  # an Explosive
    assert state.phase == CUT_NAMED and usable(state) == ["sapper"]
    state = use(state, "sapper")
    assert not is_revealed(state, 1, 0)
    assert state.phase == EMPLOYEE_TURN and GAME.to_act(state) == [1]
    assert all(action["type"] == "cut" for action in GAME.legal_actions(state, 1))
    with pytest.raises(IllegalAction) as asking:
        ask(state, "row", 0)
    assert asking.value.code == "must_cut"
    with pytest.raises(IllegalAction) as again:
        cut(state, 1, 0)
    assert again.value.code == "tile_stopped"
    state = cut(state, 0, 0)  # red: progress; no second Stop!
    assert is_revealed(state, 0, 0) and state.round == 2
    assert not is_revealed(state, 1, 0)


def test_passing_on_the_sapper_reveals_the_tile() -> None:
    state = pass_moment(cut(start("lab-n457", consultants=("sapper",)), 1, 0))
    assert state.cause == "explosive"


def test_sapper_needs_another_face_down_tile() -> None:
    state = start("lab-n457", consultants=("sapper",))
    last_two = tuple(position < 23 for position in range(25))  # only the last two tiles face down
    state = replace(state, grids=(replace(state.grids[0], revealed=last_two),))
    assert cu_waits(cut(state, 4, 3))
    one_left = tuple(position < 24 for position in range(25))
    state = replace(state, grids=(replace(state.grids[0], revealed=one_left),))
    assert not cu_waits(cut(state, 4, 4))


# -- An Explosive: Containment ------------------------------------------------------------


def test_containment_stops_an_explosion_and_two_countdown_cards_leave_instead() -> None:
    state = start("twins", consultants=("containment",), countdown=deck(90, 80, 70, 60, 50))
    state = cut(state, 1, 1)  # an Explosive
    assert state.phase == EXPLOSIVE_REVEALED and usable(state) == ["containment"]
    state = use(state, "containment")
    assert state.outcome == ""
    assert is_revealed(state, 1, 1)
    assert state.discard == ("timer-70", "timer-80", "timer-90")  # two, then the round's advance
    assert state.round == 2


def test_without_containment_used_the_explosive_explodes() -> None:
    state = pass_moment(cut(start("twins", consultants=("containment",)), 1, 1))
    assert state.cause == "explosive"


def test_containment_does_not_help_against_a_cut_out_of_order() -> None:
    state = cut(start("sequence", consultants=("containment",)), 0, 1)  # yellow before red
    assert state.outcome == "lost" and state.cause == "cutting_order"
    assert status(state, "containment") != USED


# -- Advance the Countdown: Chronometrist ----------------------------------------------------


def test_chronometrist_skips_this_rounds_advance() -> None:
    state = ask(start("training", consultants=("chronometrist",)), "row", 0)
    assert state.phase == ADVANCE and usable(state) == ["chronometrist"]
    state = use(state, "chronometrist")
    assert state.discard == () and state.round == 2
    state = ask(state, "row", 0)
    assert state.discard == ("timer-60",)  # used once; not asked again


def test_chronometrist_skips_only_the_advance_not_an_auxiliary() -> None:
    state = cut(start("wired", consultants=("chronometrist",)), 0, 4)  # an Auxiliary fires
    assert state.phase == ADVANCE and len(state.discard) == 1
    state = use(state, "chronometrist")
    assert len(state.discard) == 1


def test_no_chronometrist_moment_after_progress() -> None:
    state = cut(start("training", consultants=("chronometrist",)), 0, 0)
    assert state.phase == EMPLOYEE_TURN and state.round == 2


# -- Start of a round: Negotiator, Marker, Colourist ---------------------------------------


def test_negotiator_puts_the_last_discarded_timer_back_on_top() -> None:
    state = start("static", consultants=("negotiator",), countdown=deck(90, "signal", 80, 70))
    assert state.phase == EMPLOYEE_TURN  # no Timer discarded yet: nothing to ask
    state = ask(state, "row", 0)
    assert state.phase == ROUND_START and usable(state) == ["negotiator"]
    state = pass_moment(state)
    state = ask(state, "row", 0)  # the Signal leaves
    assert state.discard == (DISTURBED_SIGNAL, "timer-90")
    state = use(state, "negotiator")
    assert state.countdown[0] == "timer-90" and state.top_known
    assert state.discard == (DISTURBED_SIGNAL,)
    view = GAME.view(state, 1)
    assert view["countdown"]["top"]["label"] == "01:30"
    assert view["countdown"]["timers_left"] == 3
    state = ask(state, "row", 0)  # disturbed, and the 01:30 leaves again
    assert not state.top_known and state.discard[0] == "timer-90"


def test_marker_marks_a_tile_that_is_not_an_explosive() -> None:
    state = start("the-call", consultants=("marker",))
    assert state.phase == ROUND_START and usable(state) == ["marker"]
    targets = [action for action in GAME.legal_actions(state, CRISIS_UNIT) if action["type"] == "use_on_tile"]
    assert len(targets) == 25 - 4
    assert all(tile(state, action["row"], action["column"]) != "explosive" for action in targets)
    with pytest.raises(IllegalAction) as explosive:
        use(state, "marker", row=1, column=0)
    assert explosive.value.code == "tile_is_explosive"
    state = use(state, "marker", row=1, column=1)
    assert state.phase == EMPLOYEE_TURN
    for seat in (None, 1, 2):
        shown = GAME.view(state, seat)["grids"][0]["tiles"][6]
        assert shown["marked_not_explosive"] and shown["kind"] is None


def test_colourist_shows_the_kind_of_a_face_down_tile_to_everyone() -> None:
    state = start("sequence", consultants=("colourist",))
    state = use(state, "colourist", row=1, column=3)
    assert state.facts[0].fact == "explosive"
    shown = GAME.view(state, None)["grids"][0]["tiles"][9]
    assert shown["colourist_kind"] == "explosive" and shown["kind"] is None
    assert "is an Explosive" in state.log[-1].text


def test_several_start_of_round_consultants_are_offered_one_after_another() -> None:
    state = start("countdown", consultants=("marker", "colourist"))
    assert usable(state) == ["marker", "colourist"]
    state = use(state, "colourist", row=0, column=0)
    assert usable(state) == ["marker"]
    state = pass_moment(state)
    assert state.phase == EMPLOYEE_TURN


# -- A Call or a Disturbed Signal: Radio Operator --------------------------------------------


def test_radio_operator_cancels_a_call() -> None:
    state = ask(start("the-call", consultants=("radio_operator",), countdown=deck("call", 80, 70)), "row", 1)
    assert state.phase == CARD_REVEALED and usable(state) == ["radio_operator"]
    state = use(state, "radio_operator")
    assert state.discard == (CALL,) and state.countdown == deck(80, 70)
    assert state.round == 2


def test_letting_the_call_through_sends_two_more_cards() -> None:
    state = ask(start("the-call", consultants=("radio_operator",), countdown=deck("call", 80, 70)), "row", 1)
    state = pass_moment(state)
    assert state.discard == ("timer-70", "timer-80", CALL)


def test_radio_operator_cancels_a_disturbed_signal() -> None:
    state = ask(start("static", consultants=("radio_operator",), countdown=deck("signal", 90)), "row", 0)
    state = use(state, "radio_operator")
    assert state.disturbances == 0
    assert not ask(state, "row", 1).information[-1].disturbed


def test_radio_operator_is_not_asked_about_a_harmless_call() -> None:
    state = start("the-call", consultants=("radio_operator",), countdown=deck(80, "call", 70, 60))
    state = cut(state, 0, 4)  # the Receiver
    state = ask(state, "row", 1)
    assert state.discard[0] == CALL and state.phase == EMPLOYEE_TURN


# -- every Consultant: once, at its moment, with its target -----------------------------------


def test_a_consultant_is_used_at_most_once() -> None:
    state = use(ask(start("training", consultants=("chronometrist",)), "row", 0), "chronometrist")
    assert status(state, "chronometrist") == USED
    state = ask(state, "row", 0)
    assert state.phase == EMPLOYEE_TURN


def test_a_standing_pass_means_the_crisis_unit_is_never_asked_again() -> None:
    state = ask(start("training", consultants=("analyst", "chronometrist")), "row", 0)
    state = GAME.apply(state, CRISIS_UNIT, {"type": "standing_pass", "consultant": "chronometrist"})
    assert state.phase == INFORMATION  # still asked about the Analyst
    state = pass_moment(state)
    assert state.phase == EMPLOYEE_TURN and state.discard == ("timer-60",)
    assert status(state, "chronometrist") == STANDING_PASS
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(ask(state, "row", 0), CRISIS_UNIT, {"type": "use", "consultant": "chronometrist"})
    assert refused.value.code in ("not_your_turn", "consultant_not_ready")
    assert GAME.view(state, None)["score"]["unused_consultants"] == 2


def test_consultants_refuse_the_wrong_moment_target_or_card() -> None:
    state = ask(pass_moment(start("the-call", consultants=("surveyor", "marker"))), "row", 0)
    assert state.phase == INFORMATION
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "use", "consultant": "surveyor"}, "wrong_target"),
        ({"type": "use_on_tile", "consultant": "marker", "grid": 0, "row": 0, "column": 0}, "not_its_moment"),
        ({"type": "use", "consultant": "analyst"}, "no_such_consultant"),
        (
            {"type": "use_on_line", "consultant": "surveyor", "grid": 0, "line": "row", "index": 5},
            "no_such_line",
        ),
        (
            {"type": "use_on_line", "consultant": "surveyor", "grid": 1, "line": "row", "index": 0},
            "no_such_grid",
        ),
        ({"type": "ask", "grid": 0, "line": "row", "index": 0}, "not_a_crisis_unit_action"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, CRISIS_UNIT, action)
        assert refused.value.code == code, action


def test_the_crisis_unit_never_acts_without_a_consultant() -> None:
    # Every scenario has a Consultant now; the rules still allow one with none.
    for seed in range(20):
        first = replace(GAME.new(2 + seed % 5, seed, {"scenario": "no-voice"}), consultants=())
        for state, seat in play_on(GAME, first, random.Random(seed), first_seat=True).decisions:
            assert GAME.to_act(state) == [seat]
            assert seat != CRISIS_UNIT


def test_the_crisis_unit_is_only_asked_when_a_consultant_is_usable() -> None:
    rng = random.Random(1)  # one generator for all the games
    for seed in range(30):
        played = play_on(GAME, GAME.new(3, seed, {"scenario": "protocol-27bis"}), rng, first_seat=True)
        for state, seat in played.decisions:
            assert GAME.to_act(state) == [seat]
            if seat == CRISIS_UNIT:
                assert usable(state), state.phase
