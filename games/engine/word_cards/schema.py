"""Schema parts the three word-card games share: a word card and the colour legend."""

from __future__ import annotations

from games.engine.json_schema import Schema, an_id, array, const, integer, obj, string
from games.engine.word_cards.word_list import COLOUR_COUNT, NUMBERS, WORDS

COLOURS = WORDS.colour_keys


def card_number(description: str = "A card number.") -> Schema:
    """A number card's number, as every word-card game deals them."""
    return integer(description, NUMBERS[0], NUMBERS[-1])


def colour(description: str) -> Schema:
    return string(description, enum=COLOURS)


def word_card() -> Schema:
    return obj(
        "A word card.",
        {
            "id": an_id("The card's id; it tells nothing about the card."),
            "kind": const("word", "Always `word`."),
            "colour": colour("Its colour."),
            "number": integer("Its number.", NUMBERS[0], NUMBERS[-1]),
            "word": string("The word printed on it, to read aloud."),
        },
    )


def legend() -> Schema:
    return array(
        obj(
            "One colour of the word list.",
            {
                "colour": colour("The colour's name, as cards give it."),
                "hex": string("How to draw it: #rrggbb.", pattern="^#[0-9a-fA-F]{6}$"),
                "pattern": string('The sound its words share ("short a").'),
            },
        ),
        "The word list's colours, to draw and name them.",
        min_items=COLOUR_COUNT,
        max_items=COLOUR_COUNT,
    )


def words(description: str = "The words read aloud with this entry (none for most).") -> Schema:
    return array(string("A word."), description)
