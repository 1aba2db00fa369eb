"""The 89 Ka-Blam! cards: the 66 word cards, 18 coloured action cards, 4 Wilds, 1 Exploding.

Cards are ints (their place in the box, below) and everything about them is in
tables built once, so that the rules only index tuples. Views show a card as a
dict with its opaque id, kind, colour, number, word and a ``label`` to show big
and say aloud.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engine.word_cards import CARD_COUNT as WORD_CARD_COUNT
from games.engine.word_cards import WORDS
from games.engine.word_cards.facts import card_json as _card_json
from games.engine.word_cards.facts import face_members, json_text

COLOURS = WORDS.colour_keys
WORD = "word"
MISS_A_TURN = "miss_a_turn"
PICK_UP_2 = "pick_up_2"
REVERSE = "reverse"
WILD = "wild"
EXPLODING = "exploding"
ACTION_POINTS = 10

# Per colour, one of each coloured action card, in this order.
COLOURED_ACTIONS = (MISS_A_TURN, PICK_UP_2, REVERSE)
_LABELS = {
    MISS_A_TURN: "Miss a Turn",
    PICK_UP_2: "Pick Up 2",
    REVERSE: "Reverse",
    WILD: "Wild",
    EXPLODING: "KA-BLAM!",
}

FIRST_WILD = WORD_CARD_COUNT + len(COLOURS) * len(COLOURED_ACTIONS)  # 84
WILD_COUNT = 4
EXPLODING_CARD = FIRST_WILD + WILD_COUNT  # 88
CARD_COUNT = EXPLODING_CARD + 1  # 89
WILD_CARDS = tuple(range(FIRST_WILD, EXPLODING_CARD))


def _describe(card: int) -> tuple[str, int, int, str | None]:
    """(kind, colour index or -1, number or 0, word or None) of a card."""
    if card < WORD_CARD_COUNT:
        face = WORDS.cards[card]
        return WORD, face.colour_index, face.number, face.word
    if card < FIRST_WILD:
        colour, action = divmod(card - WORD_CARD_COUNT, len(COLOURED_ACTIONS))
        return COLOURED_ACTIONS[action], colour, 0, None
    if card < EXPLODING_CARD:
        return WILD, -1, 0, None
    return EXPLODING, -1, 0, None


KIND: tuple[str, ...] = tuple(_describe(card)[0] for card in range(CARD_COUNT))
COLOUR: tuple[int, ...] = tuple(_describe(card)[1] for card in range(CARD_COUNT))
NUMBER: tuple[int, ...] = tuple(_describe(card)[2] for card in range(CARD_COUNT))
POINTS: tuple[int, ...] = tuple(
    NUMBER[card] if KIND[card] == WORD else ACTION_POINTS for card in range(CARD_COUNT)
)
IS_WORD: tuple[bool, ...] = tuple(kind == WORD for kind in KIND)


def action_card(colour: int, kind: str) -> int:
    return WORD_CARD_COUNT + colour * len(COLOURED_ACTIONS) + COLOURED_ACTIONS.index(kind)


def matches(card: int, top: int, colour: int) -> bool:
    """Whether ``card`` may be played on ``top`` when ``colour`` is the colour to follow.

    A word card matches by colour or number, a coloured action card by colour or
    the same action, a Wild matches anything. ``colour`` is the top card's colour,
    or the colour named with a Wild.
    """
    kind = KIND[card]
    if kind == WILD:
        return True
    if COLOUR[card] == colour:
        return True
    if kind == WORD:
        return KIND[top] == WORD and NUMBER[top] == NUMBER[card]
    return KIND[top] == kind


@cache
def playable_on(top: int, colour: int) -> frozenset[int]:
    """Every card that may be played on ``top`` with ``colour`` to follow."""
    return frozenset(
        card for card in range(CARD_COUNT) if KIND[card] != EXPLODING and matches(card, top, colour)
    )


def hand_value(hand: tuple[int, ...]) -> int:
    return sum(POINTS[card] for card in hand)


def _face(card: int) -> dict[str, Any]:
    kind, colour, number, word = _describe(card)
    return {
        "kind": kind,
        "colour": COLOURS[colour] if colour >= 0 else None,
        "number": number or None,
        "word": word,
        "label": word if word is not None else _LABELS[kind],
        "points": POINTS[card],
    }


_FACES = tuple(_face(card) for card in range(CARD_COUNT))
_FACE_MEMBERS = tuple(face_members(face) for face in _FACES)


def card_view(card: int, ids: tuple[str, ...]) -> dict[str, Any]:
    return {"id": ids[card], **_FACES[card]}


def card_json(card: int, ids: tuple[str, ...]) -> str:
    """``card_view`` as JSON text, for log entries."""
    return _card_json(ids[card], _FACE_MEMBERS[card])


def words_json(card: int) -> str:
    """The ``words`` a log entry about ``card`` reads aloud, as JSON text."""
    return _WORDS_JSON[card]


def card_text(card: int) -> str:
    """How a log sentence names a card: ``"jam" (red 5)``, ``red Miss a Turn``, ``a Wild``."""
    kind = KIND[card]
    if kind == WORD:
        return WORDS.cards[card].label
    if kind == WILD:
        return "a Wild"
    if kind == EXPLODING:
        return "the Exploding card"
    return f"{COLOURS[COLOUR[card]]} {_LABELS[kind]}"


def spoken(card: int) -> str:
    """What the board reads aloud for a card: its word, or the action's name."""
    label = _FACES[card]["label"]
    assert isinstance(label, str)
    return label


_WORDS_JSON = tuple(json_text([_FACES[card]["label"]]) for card in range(CARD_COUNT))


def card_of_view(card: dict[str, Any]) -> int:
    """The card a view dict shows (for a Wild: the first Wild; callers spread them)."""
    kind = card["kind"]
    if kind == WORD:
        return WORDS.card(COLOURS.index(card["colour"]), card["number"]).index
    if kind == WILD:
        return FIRST_WILD
    if kind == EXPLODING:
        return EXPLODING_CARD
    return action_card(COLOURS.index(card["colour"]), kind)
