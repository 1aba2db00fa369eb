"""Everything revealed, drawn: for every game, the board built from ``game.reveal`` at
steps of a finished random match shows every hidden value the reveal fills in (every
face-down card's face, every hand, the piles in order, It's a Bomb!'s whole grid,
Booby-Trap's make-up and forces), marked as hidden during the game; the same state seen
by a seat shows none of it.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from games.boards import build_board, render_board
from games.boards import its_a_bomb as bomb_presenter
from games.engine import Game, all_games
from tests.games.boards.helpers import board_html, names_for, random_states

GAMES = {game.slug: game for game in all_games()}
SAMPLES = 8  # steps of each finished match looked at, the last one included


def finished_match(slug: str, players: int, seed: int, options: dict[str, Any] | None = None) -> list[Any]:
    """Some steps of one random match played to its end (its last state included)."""
    game = GAMES[slug]
    states = random_states(game, players, seed, steps=20_000, options=options)
    assert game.result(states[-1]) is not None, "the playout did not finish"
    picks = {round(index * (len(states) - 1) / (SAMPLES - 1)) for index in range(SAMPLES)}
    return [states[index] for index in sorted(picks)]


def revealed_page(game: Game[Any], state: Any) -> tuple[dict[str, Any], str]:
    """The reveal of ``state`` and the board drawn from it, as the replay draws it."""
    view = game.reveal(state)
    board = build_board(game, state, None, names_for(game.players(state)), 0, view=view)
    return view, render_board(board, {"match_id": 1, "csrf_token": "t"})


def seat_pages(game: Game[Any], state: Any) -> list[str]:
    """The same state on every seat's own board."""
    return [board_html(game, state, seat) for seat in range(game.players(state))]


def _section(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found is not None, pattern
    return found.group(1)


# -- Don't Go Boom ------------------------------------------------------------------

_CELL = re.compile(r'<div class="dgb-cell[^"]*">(.*?)\n      </div>', re.S)
_REVEALED_LABEL = re.compile(r'<span class="dgb-sr">Face down, revealed: ([^<]*)\. </span>')


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2)])
def test_dont_go_boom_revealed_board_draws_every_face_down_card_the_held_card_and_the_deck(
    players: int, seed: int
) -> None:
    game = GAMES["dont-go-boom"]
    names = names_for(players)
    face_down_seen = 0
    for state in finished_match("dont-go-boom", players, seed):
        view, page = revealed_page(game, state)
        for owner, minefield in enumerate(view["minefields"]):
            field = _section(page, rf'aria-label="{names[owner]}\'s minefield">(.*?)</section>')
            cells = _CELL.findall(field)
            assert len(cells) == 9
            for card, cell in zip(minefield["cards"], cells, strict=True):
                if card["face_up"]:
                    assert "dgb-card--was-down" not in cell
                    continue
                face_down_seen += 1
                assert "dgb-card--was-down" in cell
                assert "dgb-card__down" in cell  # the visible mark, not colour alone
                assert _REVEALED_LABEL.findall(cell) == [card["label"]]
        held = view["held"]
        if held is not None and held["from"] == "deck":
            hand = _section(page, r'<div class="dgb-pile dgb-hand[^"]*">(.*?)</div>')
            assert _REVEALED_LABEL.findall(hand) == [held["card"]["label"]]
        if view["deck"]["cards"]:
            deck = _section(page, r'<ol class="dgb-deck-order__cards"[^>]*>(.*?)</ol>')
            assert _REVEALED_LABEL.findall(deck) == [card["label"] for card in view["deck"]["cards"]]
        for seen in seat_pages(game, state):
            assert "dgb-card--was-down" not in seen
            assert "Face down, revealed" not in seen
            assert "dgb-deck-order" not in seen
    assert face_down_seen, "no step had a face-down card"


def test_dont_go_boom_revealed_board_shows_each_seats_first_pick_while_they_choose() -> None:
    game = GAMES["dont-go-boom"]
    state = game.new(3, 5, None)
    state = game.apply(state, 0, {"type": "choose", "position": 4})
    state = game.apply(state, 2, {"type": "choose", "position": 8})
    _, page = revealed_page(game, state)
    names = names_for(3)
    for owner, position in ((0, 4), (2, 8)):
        cells = _CELL.findall(_section(page, rf'aria-label="{names[owner]}\'s minefield">(.*?)</section>'))
        picked = [index for index, cell in enumerate(cells) if f"{names[owner]}&#x27;s pick" in cell]
        assert picked == [position]
    assert "Player2&#x27;s pick" not in page  # seat 1 has not chosen
    # Each seat sees its own pick only.
    assert "Player1&#x27;s pick" not in board_html(game, state, 2)
    assert "Player3&#x27;s pick" not in board_html(game, state, 0)


# -- Go Fox!, Ka-Blam!, Read and Grab: the word cards ---------------------------------

_SAID = re.compile(r'data-say="([^"]*)"')


def _row(page: str, label: str) -> list[str]:
    """The words of the revealed row of cards named ``label`` ("Player1's hand"), in order."""
    named = re.escape(html.escape(label))
    row = _section(page, rf'<ol class="wc-revealed" aria-label="{named}, [0-9]+ cards?">(.*?)</ol>')
    assert row.count('class="wc-was-hidden"') == len(_SAID.findall(row))
    return [html.unescape(said) for said in _SAID.findall(row)]


def _texts(cards: list[dict[str, Any]]) -> list[str]:
    """What each card says aloud: its word, or an action card's name."""
    return [card.get("label") or card.get("word") or "" for card in cards]


@pytest.mark.parametrize("slug", ["go-fox", "ka-blam"])
@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 4)])
def test_word_card_revealed_board_draws_every_hand_and_the_pile_in_order(
    slug: str, players: int, seed: int
) -> None:
    game = GAMES[slug]
    names = names_for(players)
    for state in finished_match(slug, players, seed):
        view, page = revealed_page(game, state)
        for seat, hand in enumerate(view["hands"]):
            assert _row(page, f"{names[seat]}'s hand") == _texts(hand)
        assert _row(page, "The pick-up pile, top first") == _texts(view["pile"])
        for seen in seat_pages(game, state):
            assert "wc-revealed" not in seen
            assert "wc-was-hidden" not in seen


def test_go_fox_seat_board_shows_no_card_of_another_hand_or_of_the_pile() -> None:
    # Every Go Fox! card is in one place at a time, and its word is its own.
    game = GAMES["go-fox"]
    for state in finished_match("go-fox", 3, 5):
        view, _ = revealed_page(game, state)
        for seat, seen in enumerate(seat_pages(game, state)):
            said = {html.unescape(word) for word in _SAID.findall(seen)}
            others = [card for other, hand in enumerate(view["hands"]) if other != seat for card in hand]
            assert said.isdisjoint(_texts(others + view["pile"]))


@pytest.mark.parametrize(("players", "seed"), [(2, 6), (5, 7)])
def test_read_and_grab_revealed_board_lays_out_the_middle_in_order(players: int, seed: int) -> None:
    game = GAMES["read-and-grab"]
    for state in finished_match("read-and-grab", players, seed):
        view, page = revealed_page(game, state)
        assert _row(page, "The middle, top first") == _texts(view["middle"])
        middle = set(_texts(view["middle"]))
        for seen in seat_pages(game, state):
            assert "wc-was-hidden" not in seen
            assert middle.isdisjoint(html.unescape(word) for word in _SAID.findall(seen))


# -- Bouldertroll Boom Box --------------------------------------------------------------

_CONTENT_WORDS = {"boom": "a Boom", "gem": "one gem", "two_gems": "two gems"}


def _tile(page: str, box_id: str) -> str | None:
    found = re.search(rf'<li class="bb-tile[^"]*" data-box="{box_id}">(.*?)</li>', page, re.S)
    return None if found is None else found.group(1)


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (4, 9)])
def test_boom_box_revealed_board_shows_every_unopened_box_and_every_set_aside_box(
    players: int, seed: int
) -> None:
    game = GAMES["boom-box"]
    hidden_seen = 0
    for state in finished_match("boom-box", players, seed):
        view, page = revealed_page(game, state)
        for box_id, box in view["boxes"].items():
            tile = _tile(page, box_id)
            assert tile is not None, (box_id, box["place"])
            if box["face_up"]:
                assert "is-was-hidden" not in tile
                continue
            hidden_seen += 1
            assert "is-was-hidden" in tile
            assert f"hidden during the game; it holds {_CONTENT_WORDS[box['content']]}" in tile
        for seat, seen in enumerate(seat_pages(game, state)):
            assert "is-was-hidden" not in seen
            for box_id, box in view["boxes"].items():
                if box["owner"] == seat or box["face_up"]:
                    continue
                tile = _tile(seen, box_id)
                if box["place"] in ("set_aside", "unchosen"):
                    assert tile is None  # not even its id reaches another seat
                elif tile is not None:
                    assert '<span class="bb-sr">Closed box</span>' in tile  # its content unsaid
    assert hidden_seen


# -- It's a Bomb! ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seed", "scenario"), [(2, 10, "training"), (3, 11, "twins"), (4, 12, "protocol-27bis")]
)
def test_its_a_bomb_revealed_board_shows_the_whole_grid_and_the_countdown_in_order(
    players: int, seed: int, scenario: str
) -> None:
    game = GAMES["its-a-bomb"]
    hidden_seen = 0
    for state in finished_match("its-a-bomb", players, seed, {"scenario": scenario}):
        view, page = revealed_page(game, state)
        tiles = [(grid["grid"], tile) for grid in view["grids"] for tile in grid["tiles"]]
        labels = _tile_labels(page)
        assert len(labels) == len(tiles)
        hidden_here = 0
        for grid, tile in tiles:
            said = labels[_place(view, grid, tile)]
            words = bomb_presenter.KIND_WORDS[tile["kind"]]
            if tile["revealed"]:
                assert said.startswith(f"{words}, cut")
            elif tile["colourist_kind"] is not None:
                assert said.startswith(f"face down, the Colourist showed {words}")
            else:
                hidden_here += 1
                assert said.startswith(f"face down, hidden during the game: {words}")
        assert page.count("iab-tile--was-hidden") == page.count("iab-hidden-corner") == hidden_here
        hidden_seen += hidden_here
        order = _section(page, r'<div class="iab-deck-order iab-deck-order--was-hidden">(.*?)</div>')
        titles = [html.unescape(title) for title in re.findall(r'title="([^"]*)"', order)]
        assert titles == [
            card["label"] if card["kind"] != "timer" else f"Timer {card['label']}"
            for card in view["countdown"]["cards"]
        ]
        for seat, seen in enumerate(seat_pages(game, state)):
            assert "iab-tile--was-hidden" not in seen
            assert "hidden during the game" not in seen
            if seat == 0:
                continue  # the Crisis Unit sees every tile ("only you see it")
            # An employee sees no face-down tile's kind, nor the Countdown's order.
            assert "iab-deck-order" not in seen
            seen_labels = _tile_labels(seen)
            for grid, tile in tiles:
                if not tile["revealed"] and tile["colourist_kind"] is None:
                    said = seen_labels[_place(view, grid, tile)]
                    assert said == "face down" or said.startswith("face down;"), said
    assert hidden_seen


_TILE_LABEL = re.compile(r'<div class="iab-tile-wrap"(?: role="img" aria-label="[^"]*")? title="([^"]*)">')


def _tile_labels(page: str) -> dict[str, str]:
    """Each tile's words by its place ("row 2, column 3" or "grid B, row 1, column 1")."""
    labels = {}
    for raw in _TILE_LABEL.findall(page):
        place, _, said = html.unescape(raw).partition(": ")
        labels[place] = said
    return labels


def _place(view: dict[str, Any], grid: int, tile: dict[str, Any]) -> str:
    place = f"row {tile['row'] + 1}, column {tile['column'] + 1}"
    return f"grid {'AB'[grid]}, {place}" if len(view["grids"]) > 1 else place


# -- Booby-Trap ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seed", "variant"), [(2, 13, "regular"), (3, 14, "no-pass"), (1, 15, "solitaire")]
)
def test_booby_trap_revealed_board_draws_readings_forces_and_hidden_make_up(
    players: int, seed: int, variant: str
) -> None:
    game = GAMES["booby-trap"]
    for state in finished_match("booby-trap", players, seed, {"variant": variant}):
        view, page = revealed_page(game, state)
        in_tray = [piece for piece in view["pieces"] if piece["where"] == "tray"]
        for number, piece in enumerate(view["pieces"], start=1):
            hidden = piece["hidden"]
            row = _section(page, rf'<tr data-piece="{piece["id"]}">(.*?)</tr>')
            cells = [html.unescape(cell) for cell in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
            assert cells[0] == f"#{number} ({piece['size']})"
            assert cells[3:] == [
                f"{hidden['radius']:.3f}",
                f"{hidden['friction']:.3f}",
                f"{hidden['load']:.3f}",
                f"{hidden['noise']:+.2f}",
                f"{hidden['x']:.3f}, {hidden['y']:.3f}",
            ]
        for piece in in_tray:
            reading = piece["reading"]
            assert f"A touch reads it {reading['feel']} ({reading['gauge']}/10)" in page
        assert page.count('<line class="bt-force"') == len(view["forces"])
        if in_tray:
            assert view["forces"], "a tray with pieces has contacts"
        for seen in seat_pages(game, state):
            assert "bt-force" not in seen
            assert "data-piece=" not in seen
            assert "A touch reads it" not in seen
            assert "Hidden during the game" not in seen
