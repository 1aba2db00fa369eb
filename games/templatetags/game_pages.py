"""Template tags for the pages around a game: its how-to-play link, its options in
words, and the example pictures the how-to-play pages draw.

The pictures reuse the boards' own partials (a card, a box, a tile), which draw
from small dicts: ``{% example value=10 kind="swap" as card %}`` makes such a dict
in a template, and ``word_card`` / ``ka_blam_card`` make the word cards' from the
word list itself, so a swapped word list draws its own words and colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.urls import reverse

from games.boards import word_cards
from games.boards.its_a_bomb_scenarios import ScenarioSummary, scenario_summaries
from games.boards.option_words import option_described, options_in_words
from games.engine import Game
from games.engine.ka_blam import cards as ka_blam_cards
from games.engine.word_cards import WORDS, word_card_view
from games.how_to_play import has_how_to_play

register = template.Library()

_LEGEND = word_cards.legend({"colours": WORDS.legend()})
_EXAMPLE_ID = "example"


@register.simple_tag
def how_to_play_url(slug: str) -> str:
    """``{% how_to_play_url game.slug as url %}``: the game's how-to-play page, or ""
    when it has none (then no link is shown)."""
    return reverse("how_to_play", args=[slug]) if has_how_to_play(slug) else ""


@register.simple_tag
def match_options(game: Game[Any], options: Mapping[str, object]) -> list[dict[str, str]]:
    """``{% match_options match.engine match.options as shown %}``: ``{"label", "words"}`` each."""
    return options_in_words(game, options)


@register.simple_tag
def described_options(game: Game[Any]) -> list[dict[str, Any]]:
    """``{% described_options game as options %}``: every option of the game, in words."""
    return [option_described(game, option) for option in game.options]


@register.simple_tag
def example(**fields: Any) -> dict[str, Any]:
    """``{% example value=3 kind="number" as face %}``: a dict for a board partial to draw."""
    return fields


@register.filter
def split(text: str, separator: str = " ") -> list[str]:
    """``"2 2 2"|split`` -> ``["2", "2", "2"]``: a row of example cards written as one string."""
    return str(text).split(separator)


@register.simple_tag
def word_card(colour: str, number: int) -> dict[str, Any]:
    """``{% word_card "red" 1 as card %}``: the word card "cat", as ``_word_card_face.html`` draws it."""
    card = WORDS.card(WORDS.colour_keys.index(colour), int(number))
    return word_cards.face(word_card_view(card, _EXAMPLE_ID), _LEGEND)


@register.simple_tag
def word_colours() -> list[dict[str, str]]:
    """``{% word_colours as colours %}``: the word list's colours, each with its hex and sound pattern."""
    return WORDS.legend()


@register.simple_tag
def ka_blam_card(kind: str, colour: str = "") -> dict[str, Any]:
    """``{% ka_blam_card "pick_up_2" "blue" as card %}``, ``{% ka_blam_card "wild" as card %}``:
    one of Ka-Blam!'s action cards, as ``_word_card_face.html`` draws it."""
    if kind == ka_blam_cards.WILD:
        card = ka_blam_cards.FIRST_WILD
    elif kind == ka_blam_cards.EXPLODING:
        card = ka_blam_cards.EXPLODING_CARD
    else:
        card = ka_blam_cards.action_card(ka_blam_cards.COLOURS.index(colour), kind)
    ids = (_EXAMPLE_ID,) * ka_blam_cards.CARD_COUNT
    return word_cards.face(ka_blam_cards.card_view(card, ids), _LEGEND)


@register.simple_tag
def its_a_bomb_scenarios() -> list[ScenarioSummary]:
    """``{% its_a_bomb_scenarios as scenarios %}``: every scenario, by number."""
    return scenario_summaries()
