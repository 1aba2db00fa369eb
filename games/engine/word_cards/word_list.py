"""The 66 word cards of the Ka-Blam! box, read from a data file.

The box holds six colour sets numbered 1 to 11, one decodable word per card. The
words live in ``words.json`` beside this module so that a teacher can swap in
another list (another reading level, another language) without touching code;
``parse_word_list`` checks any such list before a game uses it.

A card's ``index`` (``colour_index * 11 + number - 1``) is its place in the box.
Game states move these small ints around and keep a per-game tuple of opaque ids
(drawn from the seed) beside them, so that an id in a view never tells what a
hidden card is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLOUR_COUNT = 6
NUMBERS = tuple(range(1, 12))
CARD_COUNT = COLOUR_COUNT * len(NUMBERS)

_COLOUR_KEY = re.compile(r"^[a-z][a-z_-]{0,19}$")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_MAX_TEXT = 40


class WordListError(ValueError):
    """The word list file does not describe a box of 6 x 11 word cards."""


@dataclass(frozen=True, slots=True)
class Colour:
    key: str  # "red": what views and actions name the colour by
    hex: str  # "#d7263d": how a board draws it
    pattern: str  # "short a": the sound pattern the set practises

    def as_data(self) -> dict[str, str]:
        return {"colour": self.key, "hex": self.hex, "pattern": self.pattern}


@dataclass(frozen=True, slots=True)
class WordCard:
    index: int
    colour_index: int
    colour: str
    number: int
    word: str

    @property
    def label(self) -> str:
        """How a log sentence names the card: ``"cat" (red 1)``."""
        return f'"{self.word}" ({self.colour} {self.number})'


@dataclass(frozen=True, slots=True)
class WordList:
    name: str
    language: str
    colours: tuple[Colour, ...]
    cards: tuple[WordCard, ...]  # by index

    @property
    def colour_keys(self) -> tuple[str, ...]:
        return tuple(colour.key for colour in self.colours)

    def card(self, colour_index: int, number: int) -> WordCard:
        return self.cards[card_index(colour_index, number)]

    def legend(self) -> list[dict[str, str]]:
        """The colours with their hex and sound pattern, once per view."""
        return [colour.as_data() for colour in self.colours]


def card_index(colour_index: int, number: int) -> int:
    return colour_index * len(NUMBERS) + number - 1


def parse_word_list(data: object) -> WordList:
    """A checked ``WordList`` from decoded JSON, or ``WordListError`` saying what is wrong."""
    if not isinstance(data, dict):
        raise WordListError("A word list is a JSON object.")
    name = _text(data.get("name"), "name")
    language = _text(data.get("language"), "language")
    colours_data = data.get("colours")
    if not isinstance(colours_data, list) or len(colours_data) != COLOUR_COUNT:
        raise WordListError(f"A word list has exactly {COLOUR_COUNT} colours.")
    colours: list[Colour] = []
    cards: list[WordCard] = []
    for colour_index, entry in enumerate(colours_data):
        if not isinstance(entry, dict):
            raise WordListError(f"Colour {colour_index + 1} is not an object.")
        key = entry.get("colour")
        if not isinstance(key, str) or not _COLOUR_KEY.match(key):
            raise WordListError(f"Colour {colour_index + 1} needs a short lowercase name, not {key!r}.")
        hex_code = entry.get("hex")
        if not isinstance(hex_code, str) or not _HEX.match(hex_code):
            raise WordListError(f"The colour {key!r} needs a hex code like #d7263d.")
        pattern = _text(entry.get("pattern"), f"{key} pattern")
        words = entry.get("words")
        if not isinstance(words, list) or len(words) != len(NUMBERS):
            raise WordListError(f"The colour {key!r} needs exactly {len(NUMBERS)} words.")
        colours.append(Colour(key, hex_code, pattern))
        for number, word in zip(NUMBERS, words, strict=True):
            cards.append(WordCard(len(cards), colour_index, key, number, _text(word, f"{key} {number}")))
    keys = [colour.key for colour in colours]
    if len(set(keys)) != len(keys):
        raise WordListError("Colour names must differ.")
    return WordList(name, language, tuple(colours), tuple(cards))


def load_word_list(text: str) -> WordList:
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise WordListError(f"The word list is not valid JSON: {error}.") from error
    return parse_word_list(data)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > _MAX_TEXT:
        raise WordListError(f"The {what} must be a non-empty text of at most {_MAX_TEXT} characters.")
    return value


# Read once when the engine is imported, never while a game is played.
WORDS: WordList = load_word_list(
    resources.files(__package__).joinpath("words.json").read_text(encoding="utf-8")
)
