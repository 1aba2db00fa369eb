"""Go Fox!'s board on real states: the hand grouped by number with its ask and lay
buttons, names on the buttons, the pile to draw from, hidden hands, pairs and the result."""

from __future__ import annotations

from typing import Any

from games.boards import build_board, render_board
from games.boards.go_fox import label
from games.engine.go_fox.game import GoFox
from games.engine.go_fox.state import GoFoxState
from games.engine.word_cards import cards_in
from tests.games.boards.helpers import final_state, find_state
from tests.games.boards.word_cards_support import board_page, check_markup

GAME = GoFox()


def _legal(state: GoFoxState) -> list[dict[str, Any]]:
    return [] if state.turn < 0 else GAME.legal_actions(state, state.turn)


def test_each_number_in_hand_has_one_ask_button_naming_the_player_asked() -> None:
    state = find_state(GAME, 3, lambda s: s.phase == "ask" and len({a.get("number") for a in _legal(s)}) >= 3)
    seat = state.turn
    view = GAME.view(state, seat)
    page = board_page(GAME, state, seat)
    asked = (seat + 1) % 3
    numbers = sorted({card["number"] for card in view["hand"]})
    assert [action["number"] for action in _legal(state)] == numbers
    for number in numbers:
        action = {"type": "ask", "number": number}
        article = "an" if number in (8, 11) else "a"
        # The label names the player asked by seat mark (never "the next player"): the
        # board's button and the post-game review both put the name in.
        assert label(view, action) == f"Ask {{s{asked}}} for {article} {number}"
        # On the page the button names the player asked, and sits under that number's cards.
        button = page.button_for(action)
        assert button.attrs["aria-label"] == f"Ask Player{asked + 1} for {article} {number}"
        words = [card["word"] for card in view["hand"] if card["number"] == number]
        index = page.buttons.index(button)
        assert [b.attrs["data-say"] for b in page.buttons[index - len(words) : index]] == words
    assert f"Your turn. Pick a number you hold and ask Player{asked + 1} for it." in page.text
    check_markup(page)


def test_after_go_fox_the_player_may_lay_a_pair_or_draw() -> None:
    state = find_state(GAME, 3, lambda s: s.phase == "go_fox" and any(a["type"] == "lay" for a in _legal(s)))
    seat = state.turn
    view = GAME.view(state, seat)
    page = board_page(GAME, state, seat)
    number = next(item["number"] for item in reversed(view["log"]) if item["event"] == "go_fox")
    assert (
        f"Player{(seat + 1) % 3 + 1} said GO FOX! (no {number}s). Lay a pair from your hand, or draw a card."
        in (page.text)
    )
    for action in _legal(state):
        button = page.button_for(action)
        if action["type"] == "lay":
            assert button.attrs["aria-label"] == f"Lay your pair of {action['number']}s"
        else:
            assert button.attrs["aria-label"] == "Draw a card and end your turn"
            assert "wc-card-act" in button.attrs["class"]  # the pile itself
    # Everyone else reads what happened too.
    watcher = (seat + 2) % 3
    assert "said GO FOX!" in board_page(GAME, state, watcher).text


def test_an_empty_hand_just_draws() -> None:
    state = find_state(GAME, 3, lambda s: s.phase == "ask" and s.turn >= 0 and not s.hands[s.turn])
    page = board_page(GAME, state, state.turn)
    assert page.button_for({"type": "draw"}).attrs["aria-label"] == "Your hand is empty: draw a card"
    assert "Your turn. Your hand is empty: draw a card from the pile." in page.text


def test_other_hands_are_backs_and_pairs_are_face_up() -> None:
    state = find_state(GAME, 3, lambda s: s.turn == 1 and s.phase == "ask" and len(s.pairs[2]) >= 2)
    viewer = 0
    view = GAME.view(state, viewer)
    page = board_page(GAME, state, viewer)
    seen = {card["word"] for card in cards_in(view)}
    hidden = {card["word"] for card in GAME.view(state, 2)["hand"]} - seen
    assert hidden, "the test needs a hidden card"
    for word in hidden:
        assert word not in page.said
    count = len(state.hands[2])
    assert f"{count} card{'s' if count != 1 else ''}" in page.text
    for pair in view["pairs"][2]["pairs"]:
        for card in pair["cards"]:
            assert card["word"] in page.said
    assert "Player2 is asking Player3 for a number." in page.text
    assert all(button.is_speak for button in page.buttons)


def test_the_asked_player_is_told() -> None:
    state = find_state(GAME, 3, lambda s: s.turn == 0 and s.phase == "ask")
    assert "Player1 is asking you for a number." in board_page(GAME, state, 1).text


def test_the_final_board_shows_the_result() -> None:
    state = final_state(GAME, 4, seed=3)
    result = GAME.result(state)
    assert result is not None
    page = board_page(GAME, state, None)
    assert "Game over: the pick-up pile is empty." in page.text
    for seat, score in enumerate(result["scores"]):
        assert f"Player{seat + 1} {score} pair{'s' if score != 1 else ''}" in page.text
    assert all(button.is_speak for button in page.buttons)
    check_markup(page)


def test_through_your_own_eyes_without_buttons_the_verbs_agree_with_you() -> None:
    """A replay seen through the player's own eyes draws their turn without buttons."""

    def replayed(state: GoFoxState) -> str:
        board = build_board(GAME, state, state.turn, ["Ann", "Bob", "Cy"], 0, playable=False)
        return render_board(board, {"match_id": None})

    asking = find_state(GAME, 3, lambda s: s.phase == "ask" and s.turn >= 0 and bool(s.hands[s.turn]))
    assert f"You are asking {['Ann', 'Bob', 'Cy'][(asking.turn + 1) % 3]} for a number." in replayed(asking)
    after_fox = find_state(GAME, 3, lambda s: s.phase == "go_fox")
    page = replayed(after_fox)
    assert "You draw now, and may lay a pair first." in page and "You draws" not in page
