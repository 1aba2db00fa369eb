"""Every illegal input raises IllegalAction with a stable code; random play is deterministic."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.engine.dont_go_boom.state import DontGoBoomState
from games.engine.errors import IllegalAction
from tests.engine.dont_go_boom.scenario import GAME, act, scenario
from tests.engine.playouts import random_game

MINE = "~1 ~2 ~4 / ~5 6 ~8 / ~9 ~11 ~12"
THEIRS = "~1 2 ~4 / ~5 ~6 ~8 / ~9 ~11 13"


def drawing() -> DontGoBoomState:
    return scenario([MINE, THEIRS], deck=["9"])


def holding(card: str = "9") -> DontGoBoomState:
    return act(scenario([MINE, THEIRS], deck=[card]), 0, "draw", source="deck")


def flipping() -> DontGoBoomState:
    return act(holding(), 0, "discard")


CASES: list[tuple[str, Callable[[], DontGoBoomState], Any, Any, str]] = [
    ("someone else's turn", drawing, 1, {"type": "draw", "from": "deck"}, "not_your_turn"),
    ("seat beyond the table", drawing, 2, {"type": "draw", "from": "deck"}, "no_such_seat"),
    ("seat that is not an int", drawing, "0", {"type": "draw", "from": "deck"}, "no_such_seat"),
    ("keep before drawing", drawing, 0, {"type": "keep", "position": 0}, "wrong_phase"),
    ("choose after the first flip", drawing, 0, {"type": "choose", "position": 0}, "wrong_phase"),
    ("flip before drawing", drawing, 0, {"type": "flip", "position": 0}, "wrong_phase"),
    ("draw twice", holding, 0, {"type": "draw", "from": "deck"}, "wrong_phase"),
    ("keep after discarding", flipping, 0, {"type": "keep", "position": 0}, "wrong_phase"),
    ("swap after discarding", flipping, 0, {"type": "draw_again"}, "wrong_phase"),
    ("flip a face-up card", flipping, 0, {"type": "flip", "position": 4}, "card_face_up"),
    ("discard a bomb", lambda: holding("B"), 0, {"type": "discard"}, "bomb_must_be_kept"),
    ("peek with a 9", holding, 0, {"type": "peek", "position": 0}, "not_that_action"),
    ("peek at a face-up card", lambda: holding("7P"), 0, {"type": "peek", "position": 4}, "card_face_up"),
    (
        "swap with a missing seat",
        lambda: holding("10"),
        0,
        {"type": "swap", "position": 0, "target_seat": 3, "target_position": 0},
        "no_such_seat",
    ),
    (
        "swap a card with itself",
        lambda: holding("10"),
        0,
        {"type": "swap", "position": 2, "target_seat": 0, "target_position": 2},
        "same_position",
    ),
    ("unknown action", drawing, 0, {"type": "explode"}, "unknown_action"),
    ("no type", drawing, 0, {"from": "deck"}, "malformed_action"),
    ("not an object", drawing, 0, ["draw"], "malformed_action"),
    ("missing field", holding, 0, {"type": "keep"}, "missing_field"),
    ("extra field", holding, 0, {"type": "discard", "position": 1}, "unexpected_field"),
    ("position as text", holding, 0, {"type": "keep", "position": "1"}, "bad_field"),
    ("position as a boolean", holding, 0, {"type": "keep", "position": True}, "bad_field"),
    ("position off the grid", holding, 0, {"type": "keep", "position": 9}, "out_of_range"),
    ("negative position", holding, 0, {"type": "keep", "position": -1}, "out_of_range"),
    ("draw from the hand", drawing, 0, {"type": "draw", "from": "hand"}, "bad_field"),
    (
        "huge target seat",
        lambda: holding("10"),
        0,
        {"type": "swap", "position": 0, "target_seat": 10**30, "target_position": 0},
        "out_of_range",
    ),
]


@pytest.mark.parametrize(
    ("make_state", "seat", "action", "code"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_illegal_action_is_refused_with_its_code(make_state: Any, seat: Any, action: Any, code: str) -> None:
    state = make_state()
    before = json.dumps(GAME.encode(state), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    assert error.value.code == code
    assert str(error.value)
    assert json.dumps(GAME.encode(state), sort_keys=True) == before


def test_legal_actions_are_empty_for_a_seat_that_owes_nothing() -> None:
    state = drawing()
    assert GAME.legal_actions(state, 1) == []


def playout(seed: int, players: int) -> tuple[int, str]:
    """How many actions a random one-round game took, and its last state's encoding."""
    played = random_game(GAME, players, seed, {"rounds": 1})
    return len(played.moves), json.dumps(GAME.encode(played.final), sort_keys=True)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_play_is_deterministic_and_ends(players: int) -> None:
    first = playout(11, players)
    assert first == playout(11, players)
    assert json.loads(first[1])["phase"] == "over"
