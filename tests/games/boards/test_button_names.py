"""A move's button says in its name what it shows (issue 34, item 1): the words a button
shows are part of its accessible name (its ``aria-label``, the action's label), so a
person who speaks to their computer ("click Discard") names a button by what they see,
and a screen reader says what the eye reads. axe-core's ``label-content-name-mismatch``,
checked here on every game's boards over random playouts, where the browser sweep
(tests/browser/test_every_page.py) sees one position per game.

Compared as axe compares them: lower case, punctuation and symbols dropped, spaces
collapsed; words hidden from screen readers (``aria-hidden``) are not the button's
words, a picture's ``alt`` or ``aria-label`` is."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from games.boards import render_board
from games.engine import all_games
from tests.games.boards.helpers import board_of, random_states

GAMES = {game.slug: game for game in all_games()}
VOID = {"img", "input", "br", "hr", "meta", "link", "source", "wbr", "area", "col", "embed", "track"}
# What axe drops before it compares (its punctuation, and the symbols of its "non-BMP" set:
# arrows, shapes, dingbats, "✓"...); a middle dot "·" it keeps.
_DROPPED = re.compile(
    "[\u2000-\u206f\u2e00-\u2e7f\\\\'!\"#$%&\xa3\xa2\xa5\xa7\u20ac()*+,\\-./:;<=>?@\\[\\]^_`{|}~\xb1"
    "\u1d00-\u1dff\u20a0-\u23ff\u2400-\u27bf\ue000-\uf8ff\U00010000-\U0010ffff]"
)
# Elements whose words are never drawn: the browser does not show them.
UNSHOWN = {"title", "desc", "style", "script", "template"}


def curated(text: str) -> str:
    """As axe's ``curateString``: its punctuation and symbols dropped, spaces collapsed, lower case."""
    return " ".join(_DROPPED.sub("", text).lower().split())


def interpretable(text: str) -> bool:
    """As axe's ``isHumanInterpretable``: not a lone letter or sign, not only punctuation."""
    shown = " ".join(text.split())
    return bool(curated(shown)) and not (len(shown) == 1 and not shown.isdigit())


class _Buttons(HTMLParser):
    """Each button's accessible name and the words it shows, as axe reads them: every
    text the screen draws inside the button (``aria-hidden`` words too: they are seen),
    elements joined with nothing between them, as axe joins them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self.name: str | None = None  # the open button's aria-label
        self.words: list[str] = []
        self.depth = 0  # elements open inside the button
        self.unshown_from: int | None = None  # the depth from which nothing is drawn

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "button":
            self.name, self.words, self.depth, self.unshown_from = (
                attributes.get("aria-label") or "",
                [],
                0,
                None,
            )
            return
        if self.name is None or tag in VOID:
            return
        self.depth += 1
        classes = (attributes.get("class") or "").split()
        unshown = tag in UNSHOWN or "hidden" in attributes or "visually-hidden" in classes
        if unshown and self.unshown_from is None:
            self.unshown_from = self.depth

    def handle_endtag(self, tag: str) -> None:
        if self.name is None:
            return
        if tag == "button":
            self.found.append((self.name, "".join(self.words)))
            self.name = None
            return
        if tag in VOID:
            return
        if self.unshown_from == self.depth:
            self.unshown_from = None
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.name is not None and self.unshown_from is None:
            self.words.append(data)


def mismatched(page: str) -> list[tuple[str, str]]:
    parser = _Buttons()
    parser.feed(page)
    return [
        (name, " ".join(words.split()))
        for name, words in parser.found
        if name and interpretable(words) and curated(words) not in curated(name)
    ]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_move_button_shows_words_that_are_in_its_name(slug: str) -> None:
    game = GAMES[slug]
    players = max(2, game.min_players)
    found: set[tuple[str, str]] = set()
    for seed in (1, 2):
        # Every third position: neighbours show the same buttons.
        for state in random_states(game, players, seed=seed * 34 + players, steps=300)[::3]:
            for seat in game.to_act(state):
                page = render_board(board_of(game, state, seat), {"match_id": 1, "csrf_token": "t"})
                found.update(mismatched(page))
    # The distinct wordings, not every occurrence: one fix in a template mends them all.
    shown = sorted({(re.sub(r"\d+", "N", name), re.sub(r"\d+", "N", words)) for name, words in found})
    assert shown == [], shown[:60]


def test_the_check_compares_as_axe_does() -> None:
    page = (
        '<button aria-label="Pass box C to Bob, saying it holds a gem">a gem</button>'
        '<button aria-label="Discard the 7">Discard it</button>'
        # Seen, so compared, though hidden from screen readers; a lone sign is left alone.
        '<button aria-label="Play the red 7"><span aria-hidden="true">7</span> red <span>7</span></button>'
        '<button aria-label="Draw"><span class="visually-hidden">x</span>+</button>'
        # Drawn text inside a picture counts; its title is never drawn.
        '<button aria-label="Open box C">Open <svg><title>The box</title><text>box C!</text></svg></button>'
        '<button aria-label="Touch #3: snug 4">#3 · snug 4</button>'
    )
    assert mismatched(page) == [
        ("Discard the 7", "Discard it"),
        ("Play the red 7", "7 red 7"),
        ("Touch #3: snug 4", "#3 · snug 4"),
    ]
