"""Ka-Blam!'s board on real states: cards as buttons with their words, a Wild's colour
buttons, the pile to draw from, hidden hands as backs, prompts, rounds and the result."""

from __future__ import annotations

from typing import Any

from games.boards.ka_blam import label
from games.engine.ka_blam import KaBlam, KaBlamState
from games.engine.word_cards import cards_in
from tests.games.boards.helpers import final_state, find_state
from tests.games.boards.word_cards_support import board_page, check_markup

GAME = KaBlam()


def _legal(state: KaBlamState) -> list[dict[str, Any]]:
    return [] if state.turn < 0 else GAME.legal_actions(state, state.turn)


def _can(kind: str) -> Any:
    return lambda state: any(action["type"] == kind for action in _legal(state))


def test_every_playable_card_is_a_button_on_that_card() -> None:
    state = find_state(GAME, 3, lambda s: sum(a["type"] == "play" for a in _legal(s)) >= 2)
    seat = state.turn
    view = GAME.view(state, seat)
    page = board_page(GAME, state, seat)
    plays = [action for action in _legal(state) if action["type"] == "play"]
    for action in plays:
        card = next(held for held in view["hand"] if held["id"] == action["card"])
        if card["kind"] == "word":
            words = f'Play "{card["word"]}" ({card["colour"]} {card["number"]})'
        else:
            words = f"Play {card['colour']} {card['label']}"
        assert label(view, action) == words
        button = page.button_for(action)
        assert button.attrs["aria-label"] == words
        assert "wc-card-act" in button.attrs["class"]
        assert card["label"] in button.text  # the button is the card itself
        assert page.said_after(action) == card["label"]
    assert "Your turn. Play a card that matches" in page.text
    check_markup(page)


def test_a_wild_gets_one_button_per_colour_under_it() -> None:
    state = find_state(GAME, 4, _can("play_wild"))
    seat = state.turn
    view = GAME.view(state, seat)
    page = board_page(GAME, state, seat)
    wild = next(action for action in _legal(state) if action["type"] == "play_wild")
    choices = [
        action for action in _legal(state) if action["type"] == "play_wild" and action["card"] == wild["card"]
    ]
    assert [action["colour"] for action in choices] == [entry["colour"] for entry in view["colours"]]
    for action in choices:
        button = page.button_for(action)
        assert button.attrs["aria-label"] == f"Play a Wild and choose {action['colour']}"
        assert "kab-choice" in button.attrs["class"]
        assert action["colour"] in button.text
    # The colour buttons follow the Wild card (its say-it-aloud button comes just before them).
    first = page.buttons.index(page.button_for(choices[0]))
    assert page.buttons[first - 1].attrs.get("data-say") == "Wild"


def test_with_nothing_to_play_the_pile_is_the_draw_button() -> None:
    state = find_state(GAME, 3, lambda s: _legal(s) == [{"type": "draw"}])
    page = board_page(GAME, state, state.turn)
    button = page.button_for({"type": "draw"})
    assert button.attrs["aria-label"] == "Draw a card from the pick-up pile"
    assert "wc-card-act" in button.attrs["class"]
    assert "Draw" in button.text
    assert "None of your cards match: draw a card from the pile." in page.text
    # Passing is rare (nothing to draw even after a reshuffle); its words come from the view alone.
    assert (
        label(GAME.view(state, state.turn), {"type": "pass"}) == "Pass: nothing to play and nothing to draw"
    )


def test_other_hands_are_card_backs_and_their_cards_stay_hidden() -> None:
    state = find_state(GAME, 3, lambda s: s.turn == 2 and len(s.log) > 12 and s.exploded < 0)
    viewer, other = 1, 0
    view = GAME.view(state, viewer)
    page = board_page(GAME, state, viewer)
    seen = {card["label"] for card in cards_in(view)}
    hidden = {card["label"] for card in GAME.view(state, other)["hand"]} - seen
    assert hidden, "the test needs a hidden card"
    for word in hidden:
        assert word not in page.said
        assert f'"{word}"' not in page.html and f">{word}<" not in page.html
    count = len(state.hands[other])
    assert f"{count} card{'s' if count != 1 else ''}" in page.text
    assert "Player3 is playing." in page.text
    # The viewer's own cards are shown, each with its say-it-aloud button.
    for card in view["hand"]:
        assert card["label"] in page.said
    assert page.buttons == [button for button in page.buttons if button.is_speak]  # not their turn


def test_the_colour_named_with_a_wild_is_shown() -> None:
    state = find_state(GAME, 4, lambda s: s.turn >= 0 and GAME.view(s, None)["top"]["kind"] == "wild")
    view = GAME.view(state, None)
    page = board_page(GAME, state, None)
    assert f"A Wild named {view['colour']}" in page.text
    assert "Colour to follow" in page.text


def test_an_exploded_player_is_told_and_everyone_sees_it() -> None:
    state = find_state(GAME, 3, lambda s: s.turn >= 0 and s.exploded >= 0)
    out = state.exploded
    assert "KA-BLAM! You drew the Exploding card" in board_page(GAME, state, out).text
    watcher = (out + 1) % 3
    assert "KA-BLAM! Out of this round" in board_page(GAME, state, watcher).text


def test_a_spectator_sees_every_hand_as_backs_and_no_buttons() -> None:
    state = find_state(GAME, 4, lambda s: len(s.log) > 8)
    page = board_page(GAME, state, None)
    assert all(button.is_speak for button in page.buttons)
    assert "Your hand" not in page.text
    for seat in range(4):
        assert f"Player{seat + 1}" in page.text
    check_markup(page)


def test_the_final_board_shows_the_result_and_the_last_round() -> None:
    state = final_state(GAME, 3, seed=11, options={"length": "short"})
    result = GAME.result(state)
    assert result is not None
    winner = result["ranks"].index(1)
    page = board_page(GAME, state, None)
    assert f"Game over. Player{winner + 1} wins!" in page.text
    last = GAME.view(state, None)["rounds"][-1]
    assert f"Round 1: Player{winner + 1}" in page.text
    for hand in last["hands"]:
        for card in hand:
            assert card["label"] in page.said  # every hand is shown once the round is scored
    assert f"Player{winner + 1} {result['scores'][winner]} points" in page.text
    # The winner reads it in the second person.
    assert "Game over. You win!" in board_page(GAME, state, winner).text


def test_a_long_game_lists_its_finished_rounds() -> None:
    state = find_state(GAME, 3, lambda s: s.turn >= 0 and s.round == 2, options={"target": 300})
    page = board_page(GAME, state, 0)
    assert "Round 2 · First to 300 points wins" in page.text
    assert "Round 1: " in page.text and "and scored" in page.text
