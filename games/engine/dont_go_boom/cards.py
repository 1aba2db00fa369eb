"""The 108 cards of Don't Go Boom, as a fixed table indexed 0..107.

A state moves card *indices* around; what an index is never changes (``VALUE``,
``KIND``). What players see is the card's opaque id (``state.ids[index]``), drawn
afresh every round, so an id never tells what a card is.
"""

from __future__ import annotations

from typing import Any, Final

NUMBER: Final = "number"
BOMB: Final = "bomb"
SWAP: Final = "swap"
PEEK: Final = "peek"
DRAW_AGAIN: Final = "draw_again"
ACTION_KINDS: Final = (SWAP, PEEK, DRAW_AGAIN)

BOMB_VALUE: Final = 15
COPIES_PER_NUMBER: Final = 8
CARD_COUNT: Final = 108
GRID_SIZE: Final = 9

# Five of the eight 3s are Draw Again, five of the eight 7s are Peek, all eight
# 10s are Swap (see the Ruling on the rulebook's "ten Swap cards").
_ACTION_COPIES: Final = {3: (DRAW_AGAIN, 5), 7: (PEEK, 5), 10: (SWAP, 8)}


def _build_table() -> tuple[tuple[int, ...], tuple[str, ...]]:
    values: list[int] = []
    kinds: list[str] = []
    for value in range(1, 14):
        action, action_copies = _ACTION_COPIES.get(value, (NUMBER, 0))
        for copy in range(COPIES_PER_NUMBER):
            values.append(value)
            kinds.append(action if copy < action_copies else NUMBER)
    for _ in range(4):
        values.append(BOMB_VALUE)
        kinds.append(BOMB)
    return tuple(values), tuple(kinds)


VALUE, KIND = _build_table()
assert len(VALUE) == CARD_COUNT
TOTAL_VALUE: Final = sum(VALUE)

ACTION_NAMES: Final = {SWAP: "Swap", PEEK: "Peek", DRAW_AGAIN: "Draw Again"}


def label(value: int, kind: str) -> str:
    """What is printed on a card: "9", "7 Peek", "Big Bad Bomb"."""
    if kind == BOMB:
        return "Big Bad Bomb"
    if kind in ACTION_NAMES:
        return f"{value} {ACTION_NAMES[kind]}"
    return str(value)


LABELS: Final = tuple(label(value, kind) for value, kind in zip(VALUE, KIND, strict=True))


def card_label(index: int) -> str:
    return LABELS[index]


def the_card(index: int) -> str:
    """The card as a log sentence names it: "the 9", "the 7 Peek", "a Big Bad Bomb"."""
    if KIND[index] == BOMB:
        return "a Big Bad Bomb"
    return f"the {card_label(index)}"


def card_data(index: int, card_id: str) -> dict[str, Any]:
    """A visible card, as views and log facts show it."""
    return {"id": card_id, "value": VALUE[index], "kind": KIND[index], "label": LABELS[index]}


def indices_by_type() -> dict[tuple[int, str], list[int]]:
    """Every card index, grouped by what the card is (value, kind)."""
    groups: dict[tuple[int, str], list[int]] = {}
    for index in range(CARD_COUNT):
        groups.setdefault((VALUE[index], KIND[index]), []).append(index)
    return groups


# A position's code, for programs (a view's ``name``), and its words, for people (log texts).
POSITION_NAMES: Final = tuple(f"r{row}c{column}" for row in range(3) for column in range(3))
POSITION_WORDS: Final = tuple(
    f"row {row + 1}, column {column + 1}" for row in range(3) for column in range(3)
)

# Rows, columns and both diagonals of a 3x3 minefield, as positions.
LINES: Final = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
LINE_NAMES: Final = (
    "top row",
    "middle row",
    "bottom row",
    "left column",
    "middle column",
    "right column",
    "main diagonal",
    "anti-diagonal",
)


def zero_lines(values: tuple[int, ...] | list[int]) -> list[int]:
    """Indexes into ``LINES`` of the lines of three equal numbers (bombs never defuse)."""
    return [
        number
        for number, (a, b, c) in enumerate(LINES)
        if values[a] == values[b] == values[c] and values[a] != BOMB_VALUE
    ]


def score_values(values: tuple[int, ...] | list[int]) -> int:
    """A minefield's score from its nine values (a bomb is 15)."""
    defused: set[int] = set()
    for number in zero_lines(values):
        defused.update(LINES[number])
    return sum(value for position, value in enumerate(values) if position not in defused)
