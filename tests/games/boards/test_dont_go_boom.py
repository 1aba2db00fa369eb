"""Don't Go Boom's board on real engine states: buttons sit on the cards they act on,
hidden cards stay card backs to others, Peeks show to the peeker only, the Swap panel
holds every swap once, the prompt follows the phase, the final board shows the result.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

from games.boards import dont_go_boom as presenter
from games.engine import Game, all_games
from tests.games.boards.helpers import board_html, board_of, buttons, find_state

GAME: Game[Any] = next(game for game in all_games() if game.slug == "dont-go-boom")

_FIELD = re.compile(r'<section class="dgb-field[^"]*" aria-label="([^"]*)">(.*?)</section>', re.S)
_BUTTON = re.compile(r'<button type="submit" class="([^"]*)" data-action="([^"]*)" title="([^"]*)"')


def _canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def _prompt(page: str) -> str:
    match = re.search(r'<p [^>]*class="dgb-prompt[^"]*" role="status">(.*?)</p>', page)
    assert match is not None
    return html.unescape(match.group(1))


def _fields(page: str) -> dict[str, str]:
    """Each minefield's HTML by its aria label ("Your minefield", "Player2's minefield")."""
    return {html.unescape(label): body for label, body in _FIELD.findall(page)}


def _hand(page: str) -> str:
    match = re.search(r'<div class="dgb-pile dgb-hand[^"]*">(.*?)</div>', page, re.S)
    assert match is not None
    return match.group(1)


def _chosen(players: int = 2, seed: int = 3) -> Any:
    """A new game after every seat turned up its r1c1 card."""
    state = GAME.new(players, seed, None)
    for seat in range(players):
        state = GAME.apply(state, seat, {"type": "choose", "position": 4})
    return state


def _play_until(predicate: Callable[[Any], bool], players: int = 2, seed: int = 1, steps: int = 3000) -> Any:
    """The first state of a seeded random playout that satisfies ``predicate``."""
    return find_state(GAME, players, predicate, seeds=range(seed, seed + 1), steps=steps)


def _holding(kind: str) -> Callable[[Any], bool]:
    """The active seat holds an action card of ``kind`` drawn from the deck."""

    def check(state: Any) -> bool:
        view = GAME.view(state, None)
        if view["phase"] != "decide" or view["held"]["from"] != "deck":
            return False
        mine = GAME.view(state, view["turn"])["held"]
        return bool(mine["action"] == kind)

    return check


def test_choosing_a_first_card_is_clicking_it_in_your_own_grid() -> None:
    state = GAME.new(3, 3, None)
    page = board_html(GAME, state, 0)
    assert _prompt(page).startswith("Choose one of your face-down cards")
    fields = _fields(page)
    assert list(fields) == ["Your minefield", "Player2's minefield", "Player3's minefield"]
    mine = fields["Your minefield"]
    assert [action["position"] for action in buttons(mine)] == list(range(9))
    assert [css for css, _action, _title in _BUTTON.findall(mine)] == ["act dgb-over"] * 9
    assert buttons(fields["Player2's minefield"]) == []
    # Every card in every grid is a card back, nothing is shown yet.
    assert page.count("dgb-card--back") == 9 * 3 + 1  # the deck too

    state = GAME.apply(state, 0, {"type": "choose", "position": 5})
    mine_now = board_html(GAME, state, 0)
    assert _prompt(mine_now) == (
        "You chose your card in row 2, column 3. Waiting for Player2 and Player3 to choose."
    )
    assert "your pick" in _fields(mine_now)["Your minefield"]
    # Others only see that seat 0 has chosen, not where.
    theirs = board_html(GAME, state, 1)
    assert "your pick" not in theirs
    assert "has chosen" in _fields(theirs)["Player1's minefield"]
    assert _prompt(theirs).startswith("Choose one of your face-down cards")


def test_draw_phase_puts_the_buttons_on_the_deck_and_the_discard_pile() -> None:
    state = _chosen()
    view = GAME.view(state, None)
    turn = view["turn"]
    top = view["discard"][0]
    page = board_html(GAME, state, turn)
    assert _prompt(page).startswith("Your turn: draw from the deck, or take")
    titles = {title for _css, _action, title in _BUTTON.findall(page)}
    assert titles == {
        "Draw a card from the deck",
        html.escape(f"Take the {top['label']} from the discard pile"),
    }
    other = board_html(GAME, state, 1 - turn)
    assert _prompt(other) == f"Waiting for Player{turn + 1} to draw a card."
    assert buttons(other) == []


def test_a_card_drawn_from_the_deck_shows_to_its_holder_only() -> None:
    state = _chosen()
    turn = GAME.view(state, None)["turn"]
    state = GAME.apply(state, turn, {"type": "draw", "from": "deck"})
    held = GAME.view(state, turn)["held"]["card"]
    assert held is not None

    mine = _hand(board_html(GAME, state, turn))
    assert "dgb-card--back" not in mine
    assert "You hold a card drawn from the deck" in mine
    theirs = _hand(board_html(GAME, state, 1 - turn))
    assert "dgb-card--back" in theirs
    assert f"Player{turn + 1} holds a card drawn from the deck" in theirs
    assert buttons(theirs) == []


def test_keep_labels_name_the_held_card_and_the_card_it_replaces() -> None:
    state = _chosen()
    turn = GAME.view(state, None)["turn"]
    state = GAME.apply(state, turn, {"type": "draw", "from": "discard"})
    view = GAME.view(state, turn)
    held = view["held"]["card"]
    the_held = "a Big Bad Bomb" if held["kind"] == "bomb" else f"the {held['label']}"
    up = view["minefields"][turn]["cards"][4]
    the_up = "a Big Bad Bomb" if up["kind"] == "bomb" else f"the {up['label']}"
    assert presenter.label(view, {"type": "keep", "position": 0}) == (
        f"Keep {the_held} in row 1, column 1, replacing the face-down card"
    )
    assert (
        presenter.label(view, {"type": "keep", "position": 4})
        == f"Keep {the_held} in row 2, column 2, replacing {the_up}"
    )
    page = board_html(GAME, state, turn)
    assert _prompt(page) == f"Keep {the_held}: click the card of your minefield it replaces."
    # A card from the discard pile must be kept: the nine keeps are the only buttons, on the cards.
    mine = _fields(page)["Your minefield"]
    assert sorted(action["position"] for action in buttons(mine)) == list(range(9))
    assert len(buttons(page)) == 9


def test_discard_then_flip_turns_the_face_down_cards_into_buttons() -> None:
    state = _play_until(
        lambda s: GAME.view(s, None)["phase"] == "decide" and "discard" in str(GAME.legal_actions(s, s.turn))
    )
    turn = state.turn
    view = GAME.view(state, turn)
    assert "discard it" in _prompt(board_html(GAME, state, turn))
    assert presenter.label(view, {"type": "discard"}).startswith(
        f"Discard the {view['held']['card']['label']}"
    )
    state = GAME.apply(state, turn, {"type": "discard"})
    page = board_html(GAME, state, turn)
    assert _prompt(page) == "Turn up one of your face-down cards: click it."
    down = [
        card["position"]
        for card in GAME.view(state, turn)["minefields"][turn]["cards"]
        if not card["face_up"]
    ]
    assert [action["position"] for action in buttons(_fields(page)["Your minefield"])] == down
    assert all(action["type"] == "flip" for action in buttons(page))
    assert presenter.label(view, {"type": "flip", "position": down[0]}).startswith(
        "Turn up your face-down card in r"
    )


def test_a_peek_shows_the_value_to_the_peeker_and_only_that_someone_looked_to_others() -> None:
    state = _play_until(_holding("peek"))
    peeker = state.turn
    page = board_html(GAME, state, peeker)
    assert "use it to peek at one of your face-down cards" in _prompt(page)
    peek = next(action for action in buttons(page) if action["type"] == "peek")
    # The Peek is a small button in the peeked card's own cell, next to its keep button.
    assert any(action == peek for action in buttons(_fields(page)["Your minefield"]))
    state = GAME.apply(state, peeker, peek)
    card = GAME.view(state, peeker)["minefields"][peeker]["cards"][peek["position"]]
    assert card["peeked"] is not None

    mine = _fields(board_html(GAME, state, peeker))["Your minefield"]
    shown = "Bomb" if card["peeked"]["kind"] == "bomb" else str(card["peeked"]["value"])
    assert f'<span class="dgb-card__peek" title="You peeked: {html.escape(card["peeked"]["label"])}">' in mine
    assert f"</span>{shown}</span>" in mine
    other = 1 - peeker
    theirs = _fields(board_html(GAME, state, other))[f"Player{peeker + 1}'s minefield"]
    assert "dgb-card__peek" not in theirs
    assert f"seen by Player{peeker + 1}" in theirs


def test_the_swap_panel_holds_every_swap_once_grouped_by_the_card_given() -> None:
    state = _play_until(_holding("swap"), players=3, seed=5)
    turn = state.turn
    page = board_html(GAME, state, turn)
    panel = page[page.index('<section class="dgb-swap"') :]
    panel = panel[: panel.index("</section>")]
    swaps = [action for action in GAME.legal_actions(state, turn) if action["type"] == "swap"]
    assert len(swaps) == 2 * 81 + 36
    assert sorted(map(_canonical, buttons(panel))) == sorted(map(_canonical, swaps))
    # One radio per card of yours, then the options: another player's by the card given
    # and the target cell, your own pairs by both cells.
    assert [f'id="dgb-give-{position}"' in panel for position in range(9)] == [True] * 9
    options = re.findall(r'<div class="(dgb-(?:opt|pair)[^"]*)"><form', panel)
    assert len(options) == len(swaps)
    for css, action in zip(options, buttons(panel), strict=True):
        if action["target_seat"] == turn:
            assert css == f"dgb-pair dgb-lo-{action['position']} dgb-hi-{action['target_position']}"
        else:
            assert css == f"dgb-opt dgb-from-{action['position']} dgb-at-{action['target_position']}"
    # Labels name the other player, and places as people say them.
    board = board_of(GAME, state, turn)
    target = (turn + 1) % 3
    theirs = board.action_for(type="swap", position=0, target_seat=target, target_position=8)
    assert theirs is not None
    assert theirs.label.startswith("Swap your card in row 1, column 1 (")
    assert f"for Player{target + 1}'s card in row 3, column 3 (" in theirs.label
    own = board.action_for(type="swap", position=2, target_seat=turn, target_position=6)
    assert own is not None
    assert own.label.startswith("Swap your card in row 1, column 3 (")
    assert "with your card in row 3, column 1 (" in own.label
    # Spectators see the minefields but no panel.
    assert "dgb-swap" not in board_html(GAME, state, None)


def test_labels_for_draw_again_and_the_deck() -> None:
    state = _play_until(_holding("draw_again"), seed=2)
    view = GAME.view(state, state.turn)
    assert presenter.label(view, {"type": "draw_again"}) == (
        f"Use the {view['held']['card']['label']}: discard it and draw a new card from the deck"
    )
    page = board_html(GAME, state, state.turn)
    assert "use it to draw a new card" in _prompt(page)
    assert ">Draw again</button>" in page


def test_the_final_board_shows_every_card_the_scores_and_the_standings() -> None:
    state = _play_until(lambda s: GAME.result(s) is not None, seed=9, steps=20000)
    result = GAME.result(state)
    assert result is not None
    for seat in (0, 1, None):
        page = board_html(GAME, state, seat)
        winner = result["ranks"].index(1)
        best = result["scores"][winner]
        if seat == winner:
            assert _prompt(page) == f"The game is over: you win with {best} points."
        else:
            assert _prompt(page) == f"The game is over: Player{winner + 1} wins with {best} points."
        assert "Final standings" in page
        assert "dgb-card--back" not in page  # all face up, no deck drawn
        assert buttons(page) == []
        assert f"<td>{result['scores'][0]}</td><td>{result['scores'][1]}</td></tr></tfoot>" in page
        assert '<details class="dgb-last-round" open>' in page


def test_the_board_names_the_final_lap() -> None:
    state = _play_until(lambda s: GAME.view(s, None)["final_lap"]["active"], seed=4)
    board = board_of(GAME, state, 0)
    lap = board.view["final_lap"]
    assert board.extra["final_lap"].startswith("Final lap: ")
    assert "minefield is all face up" in board.extra["final_lap"]
    page = board_html(GAME, state, 0)
    for seat in lap["remaining"]:
        name = "Your minefield" if seat == 0 else f"Player{seat + 1}'s minefield"
        assert "one last turn" in _fields(page)[name]
