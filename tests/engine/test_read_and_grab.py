"""Read and Grab rules (../shared/rules/ka-blam.md), one test per rule and Ruling."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine import IllegalAction
from games.engine.log import log_view
from games.engine.read_and_grab import ReadAndGrab, ReadAndGrabState
from games.engine.word_cards import CARD_COUNT, NUMBERS, card_index
from tests.engine.playouts import play_on, random_game

GAME = ReadAndGrab()
RED, YELLOW, GREEN, BLUE, PURPLE, ORANGE = range(6)


def word(colour: int, number: int) -> int:
    return card_index(colour, number)


def table(
    players: int,
    middle: list[int],
    sets: dict[int, list[int]] | None = None,
    complete: dict[int, tuple[int, ...]] | None = None,
    turn: int = 1,
) -> ReadAndGrabState:
    """A state with this middle pile (top first) and these incomplete sets per seat."""
    open_sets: list[list[tuple[int, ...]]] = [[() for _ in NUMBERS] for _ in range(players)]
    for seat, cards in (sets or {}).items():
        for number in NUMBERS:
            open_sets[seat][number - 1] = tuple(card for card in cards if card % 11 == number - 1)
    return replace(
        GAME.new(players, 3),
        middle=tuple(middle),
        open_sets=tuple(tuple(seat_sets) for seat_sets in open_sets),
        complete=tuple((complete or {}).get(seat, ()) for seat in range(players)),
        turn=turn,
        flipped=None,
    )


def act(state: ReadAndGrabState, kind: str, **fields: Any) -> ReadAndGrabState:
    return GAME.apply(state, state.turn, {"type": kind, **fields})


def refusal(state: ReadAndGrabState, kind: str, **fields: Any) -> str:
    with pytest.raises(IllegalAction) as refused:
        act(state, kind, **fields)
    return refused.value.code


def open_set(state: ReadAndGrabState, seat: int, number: int) -> tuple[int, ...]:
    return state.open_sets[seat][number - 1]


def test_all_66_cards_start_face_down_in_the_middle_and_seat_1_turns_first() -> None:
    state = GAME.new(4, 1)
    assert sorted(state.middle) == list(range(CARD_COUNT))
    assert GAME.to_act(state) == [1]
    assert GAME.legal_actions(state, 1) == [{"type": "flip"}]
    assert GAME.view(state, None)["middle_size"] == 66


def test_a_turned_card_starts_or_joins_your_own_set_of_its_number() -> None:
    state = table(3, [word(RED, 5), word(BLUE, 5), word(GREEN, 2)], sets={1: [word(YELLOW, 5)]})
    after = act(state, "flip")
    assert open_set(after, 1, 5) == (word(YELLOW, 5), word(RED, 5))
    assert after.turn == 2
    entry = log_view(after.log, None)[-1]
    assert entry["event"] == "flip" and entry["words"] == ["jam"] and entry["card"]["word"] == "jam"


def test_with_another_incomplete_set_of_that_number_you_may_grab_it_or_not() -> None:
    state = table(
        3, [word(RED, 5), word(BLUE, 9)], sets={0: [word(YELLOW, 5), word(GREEN, 5)], 2: [word(BLUE, 5)]}
    )
    flipped = act(state, "flip")
    assert flipped.turn == 1 and GAME.view(flipped, None)["phase"] == "grab"
    assert GAME.legal_actions(flipped, 1) == [
        {"type": "pass"},
        {"type": "grab", "from": 0},
        {"type": "grab", "from": 2},
    ]
    grabbed = act(flipped, "grab", **{"from": 0})
    assert open_set(grabbed, 1, 5) == (word(RED, 5), word(YELLOW, 5), word(GREEN, 5))
    assert open_set(grabbed, 0, 5) == ()
    assert open_set(grabbed, 2, 5) == (word(BLUE, 5),)  # one grab per turn
    assert grabbed.turn == 2
    grab_entry = log_view(grabbed.log, None)[-1]
    assert grab_entry["event"] == "grab" and grab_entry["words"] == ["net", "kit"]
    passed = act(flipped, "pass")
    assert open_set(passed, 0, 5) == (word(YELLOW, 5), word(GREEN, 5))
    assert passed.turn == 2


def test_only_a_matching_incomplete_set_of_another_player_can_be_grabbed() -> None:
    state = table(3, [word(RED, 5), word(BLUE, 9)], sets={0: [word(YELLOW, 5)], 2: [word(BLUE, 4)]})
    flipped = act(state, "flip")
    assert refusal(flipped, "grab", **{"from": 2}) == "no_such_set"
    assert refusal(flipped, "grab", **{"from": 1}) == "no_such_set"
    assert refusal(flipped, "grab", **{"from": 5}) == "no_such_set"
    assert refusal(flipped, "flip") == "grab_or_pass"
    assert refusal(state, "pass") == "flip_first"


def test_with_no_set_to_grab_the_turn_ends_at_once() -> None:
    state = table(2, [word(RED, 5), word(BLUE, 9)], sets={0: [word(YELLOW, 4)]})
    assert act(state, "flip").turn == 0


def test_a_set_of_all_six_is_complete_turned_over_and_cannot_be_grabbed() -> None:
    fives = [word(colour, 5) for colour in range(6)]
    state = table(3, [fives[0], word(BLUE, 9)], sets={1: fives[1:4], 2: fives[4:]})
    after = act(act(state, "flip"), "grab", **{"from": 2})
    assert open_set(after, 1, 5) == ()
    assert after.complete[1] == (5,)
    shown = GAME.view(after, None)["tables"][1]
    assert shown["complete"][0]["number"] == 5 and len(shown["complete"][0]["cards"]) == 6
    assert shown["complete_count"] == 1 and shown["card_count"] == 6
    assert log_view(after.log, None)[-1]["event"] == "complete"
    # Nobody else can hold a 5 now, so nothing is ever offered to grab.
    assert all(action["type"] != "grab" for action in GAME.legal_actions(after, 2))


def test_the_game_ends_when_the_middle_is_empty_and_most_complete_sets_wins() -> None:
    state = table(3, [word(RED, 1)], sets={0: [word(RED, 2)], 2: [word(RED, 3)]}, complete={0: (7,), 2: (8,)})
    after = act(state, "flip")
    assert GAME.to_act(after) == []
    result = GAME.result(after)
    assert result is not None
    assert result["scores"] == [1, 0, 1]
    assert result["ranks"] == [1, 3, 1]  # 7 cards each: shared


def test_a_tie_on_complete_sets_goes_to_the_player_holding_more_cards() -> None:
    state = table(
        3,
        [word(RED, 1)],
        sets={0: [word(RED, 2), word(BLUE, 2)], 2: [word(RED, 3)]},
        complete={0: (7,), 2: (8,)},
    )
    result = GAME.result(act(state, "flip"))
    assert result is not None
    assert result["ranks"] == [1, 3, 2]
    assert result["cards_held"] == [8, 1, 7]


def test_the_last_card_may_still_be_grabbed_before_the_game_ends() -> None:
    state = table(2, [word(RED, 1)], sets={0: [word(BLUE, 1)]})
    flipped = act(state, "flip")
    assert GAME.to_act(flipped) == [1]
    after = act(flipped, "grab", **{"from": 0})
    assert GAME.to_act(after) == []
    assert GAME.result(after) == {"scores": [0, 0], "ranks": [2, 1], "cards_held": [0, 2]}


def test_everything_is_public_but_the_order_of_the_middle() -> None:
    state = random_game(GAME, 3, 4, first_seat=True, stop_after=30).final
    views = [GAME.view(state, viewer) for viewer in (None, 0, 1, 2)]
    assert all(shown["tables"] == views[0]["tables"] for shown in views)
    text = json.dumps(views[0])
    assert not any(state.ids[card] in text for card in state.middle)
    assert views[0]["middle_size"] == len(state.middle)


def test_samples_shuffle_the_middle_and_keep_every_table() -> None:
    rng = random.Random(8)  # plays the first 20 actions, then samples
    state = play_on(GAME, GAME.new(3, 8), rng, first_seat=True, stop_after=20).final
    samples = [GAME.sample(GAME.view(state, 1), 1, rng) for _ in range(5)]
    for sample in samples:
        assert sample.open_sets == state.open_sets
        assert sorted(sample.middle) == sorted(state.middle)
    assert len({sample.middle for sample in samples}) > 1


def test_random_games_end_with_every_card_turned() -> None:
    for players in range(2, 7):
        result = GAME.result(random_game(GAME, players, players, first_seat=True).final)
        assert result is not None and sum(result["cards_held"]) == CARD_COUNT
