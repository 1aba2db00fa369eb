"""Boards name things as people read them, never by the labels programs use (issue 21,
items 8 and 9): no opaque id (a box's ``529c2dbe``), no ``r0c0``, no "Seat 2" in
anything a board shows, for every game over random playouts.

"Shows" is what a person reads or hears: the text, the buttons' labels (their
``title`` and ``aria-label``), the log. Ids may stay in data attributes and in the
actions the buttons post, which programs read.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from games.boards import Board, render_board
from games.engine import Game, all_games
from tests.games.boards.helpers import board_of, random_states

GAMES = {game.slug: game for game in all_games()}

# What programs read: an opaque id (every game's ids are 8 hex digits), a grid cell's
# code ("r0c2"), a seat by its number.
PROGRAM_WORDS = re.compile(r"\b[0-9a-f]{8}\b|\br\dc\d\b|\bseat \d", re.IGNORECASE)
# The attributes a person reads or a screen reader says; data-* and form values are for programs.
SPOKEN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")


class _Readable(HTMLParser):
    """The words of a page a person reads or hears: text and spoken attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts.extend(value for name, value in attrs if name in SPOKEN_ATTRIBUTES and value)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def readable(page: str) -> list[str]:
    parser = _Readable()
    parser.feed(page)
    return [" ".join(part.split()) for part in parser.parts if part.strip()]


def _ids(node: Any, found: set[str]) -> set[str]:
    """Every opaque id in a view: the values of its "id" and "box" fields, and box keys."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("id", "box", "boom") and isinstance(value, str):
                found.add(value)
            _ids(value, found)
    elif isinstance(node, list):
        for value in node:
            _ids(value, found)
    return found


def program_words(board: Board) -> list[str]:
    """Whatever on this board (page, log, buttons) a person would read as a program's label."""
    page = render_board(board, {"match_id": 1, "csrf_token": "t"})
    texts = (
        readable(page) + [entry["text"] for entry in board.log] + [button.label for button in board.actions]
    )
    ids = _ids(board.view, set())
    # Every game's ids are 8 hex digits today; a game with other ids is checked as well.
    any_id = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(ids))) + r")\b") if ids else None
    return [text for text in texts if PROGRAM_WORDS.search(text) or (any_id and any_id.search(text))]


def _player_counts(game: Game[Any]) -> list[int]:
    return sorted({game.min_players, min(game.max_players, 4)})


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_no_board_shows_an_id_a_cell_code_or_a_seat_number(slug: str) -> None:
    game = GAMES[slug]
    for players in _player_counts(game):
        for seed in (1, 2):
            for index, state in enumerate(random_states(game, players, seed=seed * 53 + players, steps=600)):
                if index % 4:
                    continue
                for seat in [*range(players), None]:
                    found = program_words(board_of(game, state, seat))
                    assert not found, (slug, players, seed, index, seat, found[:5])


def test_the_check_finds_what_it_looks_for() -> None:
    page = '<p title="Box 529c2dbe">Keep it in r0c1</p><button aria-label="Grab Seat 2&#x27;s 3s" data-x="9">ok</button>'
    # Data attributes are for programs: their values are not read.
    assert readable(page) == ["Box 529c2dbe", "Keep it in r0c1", "Grab Seat 2's 3s", "ok"]
    assert all(PROGRAM_WORDS.search(text) for text in readable(page)[:3])
