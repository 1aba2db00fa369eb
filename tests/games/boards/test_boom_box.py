"""Bouldertroll Boom Box's board on real engine states: buttons sit on the boxes they act
on, a box's content shows only to whoever may know it, claims follow the box, the prompt
follows the turn, the final board shows the standings.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from games.boards import boom_box as presenter
from games.engine import Game, all_games
from tests.games.boards.helpers import board_html, board_of, buttons, find_state

GAME: Game[Any] = next(game for game in all_games() if game.slug == "boom-box")

_TILE = re.compile(r'<li class="bb-tile[^"]*" data-box="([0-9a-f]{8})">(.*?)</li>', re.S)
_SEAT = re.compile(r'<section class="bb-seat[^"]*" aria-label="([^"]*)">(.*?)</section>', re.S)


def _prompt(page: str) -> str:
    match = re.search(r'<p [^>]*class="bb-prompt[^"]*" role="status">(.*?)</p>', page)
    assert match is not None
    return html.unescape(match.group(1))


def _tiles(page: str) -> dict[str, str]:
    """Each box tile's HTML by its box id (a data attribute: people read the box's letter)."""
    return dict(_TILE.findall(page))


def _seats(page: str) -> dict[str, str]:
    return {html.unescape(label): body for label, body in _SEAT.findall(page)}


def _set_up(players: int = 3, seed: int = 2) -> Any:
    """Every seat has set aside its first two boxes (in the order offered)."""
    state = GAME.new(players, seed, None)
    for seat in range(players):
        for _ in range(2):
            state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def _play_until(predicate: Callable[[Any], bool], players: int = 3, seed: int = 1, steps: int = 3000) -> Any:
    """The first state of a seeded random playout that satisfies ``predicate``."""
    return find_state(GAME, players, predicate, seeds=range(seed, seed + 1), steps=steps)


def _content(state: Any, box_id: str) -> str:
    """The true content of a box, read from the state (tests only)."""
    box = next(box for box in state.boxes if box.id == box_id)
    return {0: "a Boom", 1: "one gem", 2: "two gems"}[box.gems]


def test_setup_offers_your_own_boxes_to_set_aside_and_hides_the_others() -> None:
    state = GAME.new(3, 2, None)
    view = GAME.view(state, 0)
    page = board_html(GAME, state, 0)
    assert _prompt(page).startswith("Set aside 2 more boxes: they leave the game unseen")
    tiles = _tiles(page)
    assert sorted(tiles) == sorted(view["choose_from"])
    for box_id, body in tiles.items():
        assert [action["box"] for action in buttons(body)] == [box_id]
        assert f"you know: {_content(state, box_id)}" in body
    # Boxes not on the table have no letter yet: a label says what the box holds, and
    # boxes holding the same are alike.
    labels = {box_id: presenter.label(view, {"type": "set_aside", "box": box_id}) for box_id in tiles}
    for box_id, text in labels.items():
        kind = {"a Boom": "Boom box", "one gem": "one-gem box", "two gems": "two-gem box"}[
            _content(state, box_id)
        ]
        assert text in (f"Set aside your {kind}", f"Set aside one of your {kind}es")
    assert sorted(labels.values()) == [
        "Set aside one of your Boom boxes", "Set aside one of your Boom boxes",
        "Set aside one of your one-gem boxes", "Set aside one of your one-gem boxes",
        "Set aside one of your one-gem boxes", "Set aside your two-gem box",
    ]  # fmt: skip
    # Nobody else's box is on the page, not even its id.
    others = [box.id for box in state.boxes if box.owner != 0]
    assert not [box_id for box_id in others if box_id in page]

    state = GAME.apply(state, 0, {"type": "set_aside", "box": view["choose_from"][0]})
    page = board_html(GAME, state, 0)
    assert _prompt(page).startswith("Set aside 1 more box:")
    assert "Set aside (only you know)" in page
    theirs = board_html(GAME, state, 1)
    assert "set aside 1 of 2" in _seats(theirs)["Player1's boxes"]
    assert view["choose_from"][0] not in theirs


def test_a_start_line_shows_its_contents_to_its_owner_only() -> None:
    state = _set_up()
    view = GAME.view(state, None)
    turn = view["turn"]["seat"]
    owner = (turn + 1) % 3
    box_id = view["seats"][owner]["start_line"][0]
    own_tile = _tiles(board_html(GAME, state, owner))[box_id]
    assert f"you know: {_content(state, box_id)}" in own_tile
    assert "is-secret" in own_tile
    for viewer in (turn, (turn + 2) % 3, None):
        tile = _tiles(board_html(GAME, state, viewer))[box_id]
        assert "you know" not in tile
        assert '<span class="bb-unknown" aria-hidden="true">?</span>' in tile
        name = view["boxes"][box_id]["name"]
        assert f'title="Box {name} (Player{owner + 1})"' in tile
        assert f'<span class="bb-name">{name}</span>' in tile


def test_passing_is_two_buttons_on_each_passable_box_and_the_claim_follows_the_box() -> None:
    state = _set_up()
    turn = GAME.view(state, None)["turn"]["seat"]
    view = GAME.view(state, turn)
    page = board_html(GAME, state, turn)
    receiver = (turn + 1) % 3
    assert _prompt(page) == (
        f"Pass a box to Player{receiver + 1} (compulsory while your Start Line has boxes), saying gem or Boom."
    )
    tiles = _tiles(page)
    for box_id in view["seats"][turn]["start_line"]:
        assert buttons(tiles[box_id]) == [
            {"type": "pass", "box": box_id, "claim": "gem"},
            {"type": "pass", "box": box_id, "claim": "boom"},
        ]
    box_id = view["seats"][turn]["start_line"][0]
    name = view["boxes"][box_id]["name"]
    button = board_of(GAME, state, turn).action_for(type="pass", box=box_id, claim="boom")
    assert button is not None
    assert button.label == (
        f"Pass box {name} ({_content(state, box_id)}) to Player{receiver + 1}, saying it holds a Boom"
    )

    state = GAME.apply(state, turn, {"type": "pass", "box": box_id, "claim": "gem"})
    for viewer in range(3):
        tile = _tiles(board_html(GAME, state, viewer))[box_id]
        passer = "you" if viewer == turn else f"Player{turn + 1}"
        assert f"“Gem!” <small>{passer}</small>" in tile
    seats = _seats(board_html(GAME, state, receiver))
    assert box_id in seats["Your boxes"].split("Passed to you")[1]


def test_the_turn_bar_and_the_done_button() -> None:
    state = _play_until(lambda s: s.phase == "play" and {"type": "done"} in GAME.legal_actions(s, s.turn))
    turn = state.turn
    view = GAME.view(state, turn)
    assert presenter.label(view, {"type": "done"}) == "End your turn"
    page = board_html(GAME, state, turn)
    assert page.count('aria-label="End your turn">End your turn</button>') == 1
    assert "<strong>Your turn</strong>" in page
    assert "end your turn" in _prompt(page)
    other = board_html(GAME, state, (turn + 1) % 3)
    assert f"<strong>Player{turn + 1}&#x27;s turn</strong>" in other  # Django escapes the apostrophe
    assert _prompt(other) == f"Waiting for Player{turn + 1} to play."


def test_a_box_that_came_back_must_be_opened() -> None:
    state = _play_until(lambda s: s.phase == "play" and GAME.view(s, None)["turn"]["must_open"] is not None)
    turn = state.turn
    box_id = GAME.view(state, None)["turn"]["must_open"]
    page = board_html(GAME, state, turn)
    name = GAME.view(state, None)["boxes"][box_id]["name"]
    assert _prompt(page).startswith(f"Your own box {name} came back to you: you must open it")
    tile = _tiles(page)[box_id]
    assert "your box came back: open it" in tile
    assert buttons(tile) == [{"type": "open", "box": box_id}]
    assert presenter.label(GAME.view(state, turn), {"type": "open", "box": box_id}).startswith(
        f"Open box {name}, your own box that came back ("
    )


def test_a_boom_at_zero_gems_lets_its_owner_remove_one_of_the_openers_boxes() -> None:
    state = _play_until(lambda s: s.loss_chooser is not None, seed=5)
    view = GAME.view(state, None)
    loss = view["pending_loss"]
    chooser, opener = loss["chooser"], loss["opener"]
    page = board_html(GAME, state, chooser)
    assert _prompt(page).startswith("Your Boom went off and")
    assert sorted(action["box"] for action in buttons(page)) == sorted(loss["choices"])
    assert all(action["type"] == "remove" for action in buttons(page))
    tiles = _tiles(page)
    for box_id in loss["choices"]:
        assert buttons(tiles[box_id]) == [{"type": "remove", "box": box_id}]
    if opener != chooser:
        waiting = board_html(GAME, state, opener)
        assert _prompt(waiting) == (
            f"Waiting for Player{chooser + 1} to choose which of Player{opener + 1}'s boxes leaves the game."
        )
        button = board_of(GAME, state, chooser).action_for(type="remove", box=loss["choices"][0])
        assert button is not None
        name = view["boxes"][loss["choices"][0]]["name"]
        assert button.label.startswith(f"Remove box {name} ")
        assert button.label.endswith(f"from Player{opener + 1}'s boxes: it leaves the game unopened")


def test_the_final_board_shows_the_standings_and_every_opened_box() -> None:
    state = _play_until(lambda s: s.phase == "over", players=4, seed=5)
    result = GAME.result(state)
    assert result is not None
    view = GAME.view(state, None)
    winner = result["ranks"].index(1)
    for seat in (0, 1, None):
        page = board_html(GAME, state, seat)
        assert _prompt(page).startswith("The game is over: ")
        assert "Final standings" in page
        assert buttons(page) == []
        tiles = _tiles(page)
        for facts in view["seats"]:
            for box_id in facts["opened"]:
                assert "bb-box--" in tiles[box_id] and "is-open" in tiles[box_id]
    gems = result["scores"][winner]
    assert _prompt(board_html(GAME, state, None)) == (
        f"The game is over: Player{winner + 1} wins with {gems} gem{'s' if gems != 1 else ''}."
    )
