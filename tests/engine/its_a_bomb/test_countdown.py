"""The Countdown: how it is built, Timers, the Explosion, the Call and Disturbed Signals."""

from __future__ import annotations

from dataclasses import replace

from games.engine.its_a_bomb.scenarios import CALL, DISTURBED_SIGNAL, EXPLOSION, SCENARIO_BY_SLUG
from tests.engine.its_a_bomb.builder import GAME, ask, cut, deck, start, use


def test_the_countdown_stacks_timers_on_the_explosion_up_to_the_available_time() -> None:
    state = GAME.new(3, 1, {"scenario": "training"})
    assert state.countdown == (
        "timer-60",
        "timer-50",
        "timer-40",
        "timer-30",
        "timer-20",
        "timer-10",
        EXPLOSION,
    )


def test_special_cards_go_anywhere_above_the_explosion() -> None:
    places: set[int] = set()
    time = SCENARIO_BY_SLUG["the-call"].time  # tuned for balance: read it from the table
    for seed in range(200):
        countdown = GAME.new(3, seed, {"scenario": "the-call"}).countdown
        assert countdown[-1] == EXPLOSION
        assert [card for card in countdown if card.startswith("timer")] == [
            f"timer-{10 * count}" for count in range(time, 0, -1)
        ]
        places.add(countdown.index(CALL))
    assert places == set(range(time + 1))  # from the very top to just above the Explosion


def test_several_special_cards_are_each_shuffled_in() -> None:
    countdown = GAME.new(3, 4, {"scenario": "protocol-27bis"}).countdown
    assert sorted(card for card in countdown if not card.startswith("timer")) == sorted(
        [CALL, DISTURBED_SIGNAL, DISTURBED_SIGNAL, DISTURBED_SIGNAL, EXPLOSION]
    )
    assert countdown[-1] == EXPLOSION


def test_revealing_the_explosion_makes_the_bomb_explode() -> None:
    state = start("training", consultants=(), countdown=deck(10))
    state = ask(state, "row", 0)
    assert state.outcome == ""
    state = ask(state, "row", 0)
    assert state.outcome == "lost" and state.cause == "explosion"
    assert state.discard[0] == EXPLOSION
    assert state.log[-2].text == "The Countdown reveals the Explosion!"


def test_the_call_makes_two_more_cards_leave_the_deck() -> None:
    state = start("the-call", consultants=(), countdown=deck("call", 80, 70, 60, 50))
    state = ask(state, "row", 1)
    assert state.discard == ("timer-70", "timer-80", CALL)
    assert state.countdown == deck(60, 50)


def test_the_call_is_harmless_once_the_receiver_is_cut() -> None:
    state = start("the-call", consultants=(), countdown=deck(80, "call", 70, 60, 50))
    state = cut(state, 0, 4)  # the Receiver; the advance discards the 01:20
    state = ask(state, "row", 1)
    assert state.discard == (CALL, "timer-80")
    assert "harmless" in state.log[-1].text


def test_a_call_can_reach_the_explosion() -> None:
    state = start("the-call", consultants=(), countdown=deck("call", 10))
    state = ask(state, "row", 1)
    assert state.cause == "explosion"


def test_a_call_brought_out_by_an_auxiliary_also_acts() -> None:
    state = start("sequence", consultants=(), countdown=deck("call", 90, 80, 70, 60))
    state = cut(state, 1, 0)  # an Auxiliary fires the Call; two more; then the advance
    assert state.discard == ("timer-70", "timer-80", "timer-90", CALL)


def test_a_disturbed_signal_disturbs_the_next_information() -> None:
    state = start("static", consultants=(), countdown=deck("signal", 90, 80, 70))
    state = ask(state, "row", 0)  # the Signal leaves the deck after this Information
    assert not state.information[0].disturbed
    assert state.disturbances == 1
    state = ask(state, "row", 1)
    record = state.information[1]
    assert record.disturbed and record.tokens == () and record.count == 1
    assert state.disturbances == 0
    state = ask(state, "row", 2)
    assert not state.information[2].disturbed


def test_disturbed_signals_queue_one_information_each() -> None:
    state = start("static", consultants=(), countdown=deck("signal", "signal", 90, 80, 70))
    state = ask(state, "row", 0)  # reveals the first signal
    state = ask(state, "row", 1)  # disturbed; reveals the second signal
    state = ask(state, "row", 2)  # disturbed
    state = ask(state, "row", 3)
    assert [record.disturbed for record in state.information] == [False, True, True, False]


def test_a_disturbance_covers_the_surveyors_extra_line_too() -> None:
    state = start("the-call", consultants=("surveyor",), countdown=deck("call", 80, 70, 60, 50))
    # Arm a disturbance by hand: the-call has no Disturbed Signal of its own.
    state = replace(state, disturbances=1)
    state = ask(state, "row", 0)
    state = use(state, "surveyor", line="column", index=0)
    assert [(record.surveyor, record.disturbed) for record in state.information] == [
        (False, True),
        (True, True),
    ]
    # Row 1 is r y b g V; column 1 is r X r - r, top to bottom.
    assert [record.count for record in state.information] == [5, 4]
    assert state.disturbances == 0


def test_time_left_counts_every_card_above_the_explosion() -> None:
    state = start("the-call", consultants=(), countdown=deck("call", 80, 70))
    view = GAME.view(state, 1)
    assert view["countdown"]["seconds_left"] == 30
    assert view["countdown"]["timers_left"] == 2
