"""A turn: drawing, keeping, discarding and flipping, bombs, the discard-pile rule, reshuffles."""

from __future__ import annotations

import pytest

from games.engine.dont_go_boom.state import DECIDE, DRAW, FLIP, FROM_DISCARD
from games.engine.errors import IllegalAction
from tests.engine.dont_go_boom.scenario import GAME, act, labels, scenario, tokens

MINE = "~1 ~2 ~4 / ~5 6 ~8 / ~9 ~11 ~12"
THEIRS = "~1 2 ~4 / ~5 ~6 ~8 / ~9 ~11 13"


def test_drawing_from_the_deck_shows_the_card_only_to_the_drawer() -> None:
    state = scenario([MINE, THEIRS], deck=["9"])
    state = act(state, 0, "draw", source="deck")
    assert state.phase == DECIDE
    assert tokens([state.held]) == ["9"]
    assert GAME.view(state, 0)["held"]["card"]["value"] == 9
    for viewer in (1, None):
        held = GAME.view(state, viewer)["held"]
        assert held == {"seat": 0, "from": "deck", "card": None}
    assert GAME.view(state, 1)["log"][-1]["text"] == "{s0} drew a card from the deck."


def test_keeping_a_card_replaces_any_card_and_shows_the_replaced_one() -> None:
    state = scenario([MINE, THEIRS], deck=["9"], discard=["13"])
    state = act(state, 0, "draw", source="deck")
    state = act(state, 0, "keep", position=0)
    assert labels(state, 0)[0] == "9"
    assert tokens(state.discard) == ["1", "13"]
    assert state.turn == 1
    assert state.phase == DRAW
    note = GAME.view(state, 1)["log"][-1]
    assert note["text"] == "{s0} kept the 9 in row 1, column 1, discarding the face-down 1."
    assert note["replaced"]["value"] == 1


def test_keeping_over_a_face_up_card_discards_it() -> None:
    state = scenario([MINE, THEIRS], deck=["3"])
    state = act(act(state, 0, "draw", source="deck"), 0, "keep", position=4)
    assert labels(state, 0)[4] == "3"
    assert tokens(state.discard)[0] == "6"
    assert sum(state.face_up[0]) == 1


def test_discarding_a_drawn_card_then_turning_one_face_down_card_up() -> None:
    state = scenario([MINE, THEIRS], deck=["13"])
    state = act(act(state, 0, "draw", source="deck"), 0, "discard")
    assert state.phase == FLIP
    assert GAME.to_act(state) == [0]
    assert GAME.legal_actions(state, 0) == [
        {"type": "flip", "position": position} for position in (0, 1, 2, 3, 5, 6, 7, 8)
    ]
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "flip", position=4)
    assert error.value.code == "card_face_up"
    state = act(state, 0, "flip", position=8)
    assert labels(state, 0)[8] == "12"
    assert tokens(state.discard)[:1] == ["13"]
    assert state.turn == 1


def test_discarding_with_no_face_down_card_left_ends_the_turn_without_a_flip() -> None:
    state = scenario(["1 2 4 / 5 6 8 / 9 11 12", THEIRS], deck=["13"], final_lap=[0, 1], final_lap_trigger=1)
    state = act(act(state, 0, "draw", source="deck"), 0, "discard")
    assert state.turn == 1
    assert state.phase == DRAW


def test_a_card_taken_from_the_discard_pile_must_be_kept() -> None:
    state = scenario([MINE, THEIRS], discard=["4", "9"])
    state = act(state, 0, "draw", source="discard")
    assert state.held_from == FROM_DISCARD
    assert GAME.view(state, 1)["held"]["card"]["value"] == 4
    assert [action["type"] for action in GAME.legal_actions(state, 0)] == ["keep"] * 9
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "discard")
    assert error.value.code == "discard_pile_card_must_be_kept"
    state = act(state, 0, "keep", position=3)
    assert labels(state, 0)[3] == "4"
    assert tokens(state.discard) == ["5", "9"]


@pytest.mark.parametrize(
    ("card", "action"),
    [
        ("10", {"type": "swap", "position": 0, "target_seat": 1, "target_position": 0}),
        ("7P", {"type": "peek", "position": 0}),
        ("3D", {"type": "draw_again"}),
    ],
)
def test_an_action_card_taken_from_the_discard_pile_is_only_a_number(
    card: str, action: dict[str, int]
) -> None:
    state = scenario([MINE, THEIRS], discard=[card])
    state = act(state, 0, "draw", source="discard")
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 0, action)
    assert error.value.code == "action_card_from_discard"
    assert GAME.view(state, 0)["held"]["action"] is None


def test_drawing_from_an_empty_discard_pile_is_refused() -> None:
    state = scenario([MINE, THEIRS], discard=[])
    assert GAME.legal_actions(state, 0) == [{"type": "draw", "from": "deck"}]
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "draw", source="discard")
    assert error.value.code == "discard_pile_empty"


def test_a_bomb_drawn_from_the_deck_must_replace_a_card() -> None:
    state = scenario([MINE, THEIRS], deck=["B"])
    state = act(state, 0, "draw", source="deck")
    assert [action["type"] for action in GAME.legal_actions(state, 0)] == ["keep"] * 9
    assert GAME.view(state, 0)["held"]["must_keep"] is True
    # Others only see that a card was drawn.
    assert GAME.view(state, 1)["held"] == {"seat": 0, "from": "deck", "card": None}
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "discard")
    assert error.value.code == "bomb_must_be_kept"
    state = act(state, 0, "keep", position=4)
    assert labels(state, 0)[4] == "B"
    assert tokens(state.discard)[0] == "6"
    assert "had to place it in row 2, column 2" in state.log[-1].text


def test_a_replaced_bomb_leaves_the_game_instead_of_being_discarded() -> None:
    state = scenario(["~1 ~2 ~4 / ~5 B ~8 / ~9 ~11 ~12", THEIRS], deck=["2"], discard=["13"])
    state = act(act(state, 0, "draw", source="deck"), 0, "keep", position=4)
    assert tokens(state.removed) == ["B"]
    assert tokens(state.discard) == ["13"]
    view = GAME.view(state, 1)
    assert [card["label"] for card in view["removed"]] == ["Big Bad Bomb"]
    assert "leaves the game" in view["log"][-1]["text"]


def test_a_face_down_bomb_replaced_is_shown_and_removed() -> None:
    state = scenario(["~1 ~2 ~4 / ~5 ~B ~8 / ~9 ~11 ~12", THEIRS], deck=["2"])
    state = act(act(state, 0, "draw", source="deck"), 0, "keep", position=4)
    assert tokens(state.removed) == ["B"]
    assert "the face-down Big Bad Bomb" in state.log[-1].text


def test_an_empty_deck_is_rebuilt_from_the_discard_pile_under_its_top_card() -> None:
    state = scenario([MINE, THEIRS], deck=[], discard=["9", "4"], rest_to="discard")
    pile = state.discard
    state = act(state, 0, "draw", source="deck")
    assert tokens(state.discard) == ["9"]
    assert sorted([*state.deck, state.held]) == sorted(pile[1:])
    assert (state.held, *state.deck) != pile[1:]
    assert [item.event for item in state.log][-2:] == ["reshuffled", "drew"]
    # Everyone saw those cards go into the deck: the view lists them, not their order.
    view = GAME.view(state, 1)
    assert [card["id"] for card in view["deck"]["known_cards"]] == sorted(
        state.ids[card] for card in pile[1:]
    )
    assert view["deck"]["size"] == len(pile) - 2
    state = act(state, 0, "keep", position=0)
    assert len(GAME.view(state, 1)["deck"]["known_cards"]) == len(pile) - 2


def test_the_turn_order_goes_to_the_next_seat_and_wraps() -> None:
    state = scenario([MINE, THEIRS, MINE.replace("6", "~3")], turn=2, deck=["9"])
    state = act(act(state, 2, "draw", source="deck"), 2, "keep", position=0)
    assert state.turn == 0
    assert state.turns_taken == 1
