"""Dealing, the simultaneous first flip, the start card and the first player."""

from __future__ import annotations

import pytest

from games.engine.dont_go_boom.cards import BOMB, KIND
from games.engine.dont_go_boom.state import CHOOSE, DRAW
from games.engine.errors import IllegalAction
from tests.engine.dont_go_boom.scenario import GAME, act, scenario, tokens

HIDDEN = "~1 ~2 ~4 / ~5 ~6 ~8 / ~9 ~11 ~12"


def test_new_game_deals_nine_face_down_cards_to_everyone_and_waits_for_all_choices() -> None:
    state = GAME.new(4, seed=3)
    assert state.phase == CHOOSE
    assert all(len(grid) == 9 and not any(up) for grid, up in zip(state.grids, state.face_up, strict=True))
    assert len(state.deck) == 108 - 4 * 9
    assert state.discard == ()
    assert GAME.to_act(state) == [0, 1, 2, 3]
    assert len({card for grid in state.grids for card in grid} | set(state.deck)) == 108


def test_choices_stay_secret_until_everyone_has_chosen() -> None:
    state = GAME.new(3, seed=5)
    state = act(state, 1, "choose", position=4)
    assert GAME.to_act(state) == [0, 2]
    for viewer in (0, 2, None):
        view = GAME.view(state, viewer)
        assert [field["has_chosen"] for field in view["minefields"]] == [False, True, False]
        assert view["my_choice"] is None
        assert not any(card["face_up"] for field in view["minefields"] for card in field["cards"])
        assert "position" not in view["log"][-1]
    assert GAME.view(state, 1)["my_choice"] == 4
    state = act(state, 0, "choose", position=0)
    assert not any(any(up) for up in state.face_up)
    state = act(state, 2, "choose", position=8)
    assert [up.index(True) for up in state.face_up] == [0, 4, 8]
    assert [sum(up) for up in state.face_up] == [1, 1, 1]
    assert state.phase == DRAW
    assert len(state.discard) == 1


def test_a_seat_that_has_chosen_cannot_choose_again() -> None:
    state = act(GAME.new(2, seed=1), 0, "choose", position=2)
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "choose", position=3)
    assert error.value.code == "not_your_turn"


def test_a_bomb_start_card_is_shuffled_back_until_a_number_turns_up() -> None:
    seen_first_players = set()
    for seed in range(12):
        state = scenario(["~13 " + HIDDEN[3:], HIDDEN], deck=["B", "B", "9"], phase=CHOOSE, seed=seed)
        state = act(state, 0, "choose", position=0)
        state = act(state, 1, "choose", position=0)
        assert KIND[state.discard[0]] != BOMB
        assert len(state.discard) == 1
        assert len(state.deck) == 108 - 18 - 1
        assert tokens(state.deck).count("B") == 4
        # Every bomb that turned up is known to be in the deck; its place is not.
        turned = {item.public for item in state.log if item.event == "start_card_bomb"}
        assert len(turned) == len(state.public_deck) >= 1
        assert all(KIND[card] == BOMB for card in state.public_deck)
        view = GAME.view(state, 0)
        assert {card["id"] for card in view["deck"]["known_cards"]} == {
            state.ids[card] for card in state.public_deck
        }
        seen_first_players.add(state.turn)
    assert seen_first_players == {0}


def test_highest_face_up_card_goes_first_and_a_bomb_counts_15() -> None:
    state = scenario(["~13 " + HIDDEN[4:], "~B " + HIDDEN[4:], HIDDEN], phase=CHOOSE)
    for seat in range(3):
        state = act(state, seat, "choose", position=0)
    assert state.turn == 1
    assert GAME.to_act(state) == [1]
    assert state.log[-1].event == "first_player"


def test_a_tie_for_first_player_is_broken_by_a_seeded_draw_and_logged() -> None:
    winners = set()
    for seed in range(20):
        state = scenario(["~13 " + HIDDEN[4:], HIDDEN, "~13 " + HIDDEN[4:]], phase=CHOOSE, seed=seed)
        for seat in range(3):
            state = act(state, seat, "choose", position=0)
        assert state.turn in (0, 2)
        note = GAME.view(state, None)["log"][-1]
        assert note["event"] == "first_player"
        assert note["tied"] == [0, 2]
        assert "random draw" in note["text"]
        winners.add(state.turn)
        again = scenario(["~13 " + HIDDEN[4:], HIDDEN, "~13 " + HIDDEN[4:]], phase=CHOOSE, seed=seed)
        for seat in range(3):
            again = act(again, seat, "choose", position=0)
        assert again.turn == state.turn
    assert winners == {0, 2}


def test_rounds_option_defaults_to_three_and_accepts_one_to_five() -> None:
    assert GAME.new(2, seed=0).rounds == 3
    for rounds in range(1, 6):
        assert GAME.new(2, seed=0, options={"rounds": rounds}).rounds == rounds
    for bad in (0, 6, "3", True, None):
        with pytest.raises(IllegalAction) as error:
            GAME.new(2, seed=0, options={"rounds": bad})
        assert error.value.code == "bad_option"
    with pytest.raises(IllegalAction) as error:
        GAME.new(2, seed=0, options={"laps": 2})
    assert error.value.code == "unknown_option"


@pytest.mark.parametrize("players", [1, 7, "2"])
def test_player_count_outside_two_to_six_is_refused(players: object) -> None:
    with pytest.raises(IllegalAction) as error:
        GAME.new(players, seed=0)  # type: ignore[arg-type]
    assert error.value.code == "bad_player_count"
