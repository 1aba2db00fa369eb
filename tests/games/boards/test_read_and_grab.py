"""Read and Grab's board on real states: the middle as the flip button, the card turned
over shown to read, grab buttons on the sets they take, every table, and the result."""

from __future__ import annotations

from typing import Any

from games.boards import build_board, render_board
from games.boards.read_and_grab import label
from games.engine.read_and_grab.game import ReadAndGrab, ReadAndGrabState
from tests.games.boards.helpers import final_state, find_state
from tests.games.boards.word_cards_support import Page, board_page, check_markup

GAME = ReadAndGrab()


def _legal(state: ReadAndGrabState) -> list[dict[str, Any]]:
    return [] if state.turn < 0 else GAME.legal_actions(state, state.turn)


def _table_of(page: Page, name: str) -> str:
    """The HTML of one player's table (a section that starts with their heading)."""
    for block in page.html.split('<section class="rag-table')[1:]:
        heading = block[block.index('class="wcb-heading">') :].split("<span", 1)[0]
        if name in heading:
            return block.split("</section>", 1)[0]
    raise AssertionError(f"no table for {name}")


def test_the_middle_is_the_flip_button() -> None:
    state = find_state(GAME, 3, lambda s: s.turn >= 0 and s.flipped is None and len(s.log) > 4)
    seat = state.turn
    view = GAME.view(state, seat)
    page = board_page(GAME, state, seat)
    button = page.button_for({"type": "flip"})
    assert label(view, {"type": "flip"}) == "Turn over the top card" == button.attrs["aria-label"]
    assert "wc-card-act" in button.attrs["class"]
    assert "Your turn. Tap the middle pile to turn over the top card" in page.text
    assert f"{view['middle_size']} cards face down" in page.text
    # The card turned over last stays on show, big, to read again.
    last = next(item for item in reversed(view["log"]) if item["event"] == "flip")
    assert page.said[0] == last["card"]["word"]
    assert "Last turned over, by" in page.text
    check_markup(page)


def test_after_a_flip_each_set_that_can_be_grabbed_carries_its_button() -> None:
    state = find_state(GAME, 4, lambda s: sum(a["type"] == "grab" for a in _legal(s)) >= 2)
    seat = state.turn
    view = GAME.view(state, seat)
    flipped = view["flipped"]
    number = flipped["number"]
    page = board_page(GAME, state, seat)
    assert page.said[0] == flipped["word"]  # shown big first, to read
    assert f'You turned over "{flipped["word"]}", a {number}. Grab a set of {number}s' in page.text
    grabs = [action for action in _legal(state) if action["type"] == "grab"]
    for action in grabs:
        owner = action["from"]
        assert label(view, action) == f"Grab {{s{owner}}}'s {number}s"  # the board puts the name in
        button = page.button_for(action)
        assert button.attrs["aria-label"] == f"Grab Player{owner + 1}'s {number}s"
        # The button sits on that player's set of that number: inside their table, after its cards.
        table = _table_of(page, f"Player{owner + 1}")
        assert button.attrs["data-action"].replace('"', "&quot;") in table
        grabbed = next(shown for shown in view["tables"][owner]["sets"] if shown["number"] == number)
        for card in grabbed["cards"]:
            assert f'data-say="{card["word"]}"' in table
    passing = page.button_for({"type": "pass"})
    assert passing.attrs["aria-label"] == "Do not grab: end your turn"
    # Someone else watching reads who may grab what.
    watcher = (seat + 1) % 4
    assert f'Player{seat + 1} turned over "{flipped["word"]}" and may grab a set of {number}s.' in (
        board_page(GAME, state, watcher).text
    )


def test_every_table_is_shown_to_everyone() -> None:
    state = find_state(GAME, 3, lambda s: s.turn >= 0 and len(s.middle) < 40)
    view = GAME.view(state, None)
    page = board_page(GAME, state, None)
    for table in view["tables"]:
        for shown in table["sets"]:
            for card in shown["cards"]:
                assert card["word"] in page.said
    assert all(button.is_speak for button in page.buttons)
    assert "Your cards" not in page.text


def test_complete_sets_are_turned_over() -> None:
    state = find_state(GAME, 2, lambda s: s.turn >= 0 and any(s.complete))
    seat = next(owner for owner in range(2) if state.complete[owner])
    page = board_page(GAME, state, seat)
    for number in state.complete[seat]:
        assert f"{number}s ✓" in _table_of(page, "Your cards")
    count = len(state.complete[seat])
    assert f"{count} complete set{'s' if count != 1 else ''}" in page.text


def test_the_final_board_shows_the_result_with_cards_held() -> None:
    state = final_state(GAME, 3, seed=5)
    result = GAME.result(state)
    assert result is not None
    page = board_page(GAME, state, None)
    assert "Game over: the middle is empty." in page.text
    for seat in range(3):
        sets, held = result["scores"][seat], result["cards_held"][seat]
        assert f"Player{seat + 1} {sets} complete set{'s' if sets != 1 else ''}, {held} cards" in page.text
    assert "empty" in page.text
    check_markup(page)


def test_through_your_own_eyes_without_buttons_the_verbs_agree_with_you() -> None:
    """A replay seen through the player's own eyes draws their turn without buttons."""
    game = ReadAndGrab()
    state = game.new(2, 1)
    seat = game.to_act(state)[0]
    board = build_board(game, state, seat, ["Ann", "Bob"], 0, playable=False)
    page = render_board(board, {"match_id": None})
    assert "You turn over the next card." in page and "You turns" not in page
