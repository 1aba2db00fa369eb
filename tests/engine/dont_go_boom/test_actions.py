"""Action cards drawn from the deck: Swap (both forms), Peek, Draw Again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.engine.dont_go_boom.state import DECIDE, DRAW, DontGoBoomState
from games.engine.errors import IllegalAction
from tests.engine.dont_go_boom.scenario import GAME, act, labels, scenario, tokens

MINE = "~1 ~2 ~4 / ~5 6 ~8 / ~9 ~11 ~12"
THEIRS = "~1 2 ~4 / ~5 ~6 ~8 / ~9 ~11 13"


def holding(card: str, grids: list[str] | None = None, deck: Sequence[str] = ()) -> DontGoBoomState:
    """Seat 0 has just drawn ``card`` from the deck; ``deck`` lies under it."""
    state = scenario(grids or [MINE, THEIRS], deck=[card, *deck])
    return act(state, 0, "draw", source="deck")


def test_swap_with_opponent_turns_the_given_card_face_up_and_keeps_the_received_face_state() -> None:
    state = holding("10")
    # Give my face-down 1 (r0c0) for their face-up 13 (r2c2).
    state = act(state, 0, "swap", position=0, target_seat=1, target_position=8)
    assert labels(state, 0)[0] == "13"
    assert labels(state, 1)[8] == "1"
    # Give my face-down 2 for their face-down 4: it stays face down with me.
    state = scenario([MINE, THEIRS], deck=["10"])
    state = act(act(state, 0, "draw", source="deck"), 0, "swap", position=1, target_seat=1, target_position=2)
    assert labels(state, 0)[1] == "~4"
    assert labels(state, 1)[2] == "2"
    assert tokens(state.discard)[0] == "10"
    assert state.turn == 1
    assert state.phase == DRAW


def test_swap_between_two_own_cards_keeps_each_card_face_state() -> None:
    state = holding("10")
    state = act(state, 0, "swap", position=4, target_seat=0, target_position=0)
    assert labels(state, 0)[0] == "6"
    assert labels(state, 0)[4] == "~1"
    assert sum(state.face_up[0]) == 1
    assert tokens(state.discard)[0] == "10"
    assert "exchange their cards in row 2, column 2 and row 1, column 1" in state.log[-1].text


def test_swap_refuses_the_same_position_and_a_missing_seat() -> None:
    state = holding("10")
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "swap", position=3, target_seat=0, target_position=3)
    assert error.value.code == "same_position"
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "swap", position=3, target_seat=4, target_position=3)
    assert error.value.code == "no_such_seat"


def test_swap_legal_actions_list_every_opponent_card_and_every_own_pair_once() -> None:
    state = holding("10", [MINE, THEIRS, THEIRS])
    swaps = [action for action in GAME.legal_actions(state, 0) if action["type"] == "swap"]
    assert len(swaps) == 2 * 81 + 36
    for action in swaps:
        GAME.apply(state, 0, action)


def test_a_swap_card_can_also_be_kept_as_a_10_or_discarded() -> None:
    state = holding("10")
    kinds = {action["type"] for action in GAME.legal_actions(state, 0)}
    assert kinds == {"keep", "discard", "swap"}
    assert GAME.view(state, 0)["held"]["action"] == "swap"
    kept = act(state, 0, "keep", position=0)
    assert labels(kept, 0)[0] == "10"


def test_peek_shows_the_card_only_to_the_peeker_and_it_stays_face_down() -> None:
    state = act(holding("7P"), 0, "peek", position=8)
    assert labels(state, 0)[8] == "~12"
    assert state.turn == 1
    assert tokens(state.discard)[0] == "7P"
    own = GAME.view(state, 0)
    assert own["minefields"][0]["cards"][8]["peeked"]["value"] == 12
    assert own["minefields"][0]["cards"][8]["value"] is None
    assert "12" in own["log"][-1]["text"]
    assert own["log"][-1]["peeked"]["value"] == 12
    for viewer in (1, None):
        view = GAME.view(state, viewer)
        card = view["minefields"][0]["cards"][8]
        assert card["peeked"] is None
        assert card["known_by"] == [0]
        assert view["log"][-1]["text"] == "{s0} used a Peek on their face-down card in row 3, column 3."
        assert "peeked" not in view["log"][-1]
        assert "12" not in str(view["log"][-1])


def test_peek_needs_a_face_down_card_and_is_not_offered_without_one() -> None:
    state = scenario([MINE, THEIRS], deck=["7P"])
    state = act(state, 0, "draw", source="deck")
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "peek", position=4)
    assert error.value.code == "card_face_up"
    all_up = scenario(["1 2 4 / 5 6 8 / 9 11 12", THEIRS], deck=["7P"], final_lap=[0, 1], final_lap_trigger=1)
    all_up = act(all_up, 0, "draw", source="deck")
    assert {action["type"] for action in GAME.legal_actions(all_up, 0)} == {"keep", "discard"}


def test_peeked_knowledge_follows_the_card_through_an_opponents_swap() -> None:
    # Seat 0 peeked at its r0c0 (a face-down 1); seat 1 then swaps for that card.
    state = scenario([MINE, THEIRS], turn=1, deck=["10"], peeked={0: [(0, 0)]})
    state = act(state, 1, "draw", source="deck")
    state = act(state, 1, "swap", position=4, target_seat=0, target_position=0)
    assert labels(state, 1)[4] == "~1"
    assert labels(state, 0)[0] == "6"
    card = GAME.view(state, 0)["minefields"][1]["cards"][4]
    assert card["face_up"] is False
    assert card["peeked"]["value"] == 1
    assert card["known_by"] == [0]
    theirs = GAME.view(state, 1)["minefields"][1]["cards"][4]
    assert theirs["peeked"] is None
    assert theirs["known_by"] == [0]


def test_peeked_knowledge_follows_the_card_through_an_own_swap_and_ends_when_it_turns_up() -> None:
    state = scenario([MINE, THEIRS], deck=["10", "9", "13"], peeked={0: [(0, 8)]})
    state = act(act(state, 0, "draw", source="deck"), 0, "swap", position=8, target_seat=0, target_position=2)
    assert labels(state, 0)[2] == "~12"
    assert GAME.view(state, 0)["minefields"][0]["cards"][2]["peeked"]["value"] == 12
    assert GAME.view(state, 0)["minefields"][0]["cards"][8]["peeked"] is None
    assert GAME.view(state, 1)["minefields"][0]["cards"][2]["known_by"] == [0]
    # Once it is turned face up, everyone knows it: nothing private is left.
    state = act(act(state, 1, "draw", source="deck"), 1, "keep", position=0)
    state = act(act(state, 0, "draw", source="deck"), 0, "discard")
    state = act(state, 0, "flip", position=2)
    assert state.peeked == ((), ())
    assert GAME.view(state, 1)["minefields"][0]["cards"][2]["value"] == 12


def test_draw_again_discards_it_and_draws_a_fresh_card_which_may_be_another_action() -> None:
    state = holding("3D", deck=["3D", "7P", "9"])
    state = act(state, 0, "draw_again")
    assert state.phase == DECIDE
    assert tokens([state.held]) == ["3D"]
    assert tokens(state.discard)[:1] == ["3D"]
    state = act(state, 0, "draw_again")
    assert tokens([state.held]) == ["7P"]
    assert tokens(state.discard)[:2] == ["3D", "3D"]
    assert GAME.view(state, 0)["held"]["action"] == "peek"
    assert GAME.view(state, 1)["held"]["card"] is None
    state = act(state, 0, "peek", position=0)
    assert state.turn == 1
    assert state.turns_taken == 1


def test_draw_again_into_a_bomb_must_place_the_bomb() -> None:
    state = act(holding("3D", deck=["B"]), 0, "draw_again")
    assert [action["type"] for action in GAME.legal_actions(state, 0)] == ["keep"] * 9
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "discard")
    assert error.value.code == "bomb_must_be_kept"


def test_draw_again_with_an_empty_deck_reshuffles_under_the_draw_again_card() -> None:
    state = scenario([MINE, THEIRS], deck=["3D"], discard=["9", "4", "13"], rest_to="discard", seed=4)
    pile = state.discard
    state = act(act(state, 0, "draw", source="deck"), 0, "draw_again")
    assert tokens(state.discard) == ["3D"]
    assert sorted([*state.deck, state.held]) == sorted(pile)


def test_action_names_must_match_the_held_card() -> None:
    state = holding("9")
    attempts: list[tuple[dict[str, Any], str]] = [
        ({"type": "swap", "position": 0, "target_seat": 1, "target_position": 0}, "not_that_action"),
        ({"type": "peek", "position": 0}, "not_that_action"),
        ({"type": "draw_again"}, "not_that_action"),
    ]
    for action, code in attempts:
        with pytest.raises(IllegalAction) as error:
            GAME.apply(state, 0, action)
        assert error.value.code == code
