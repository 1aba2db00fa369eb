"""The field: how many places a tournament has, how many of them bots fill, and whether
a field of that size fills every table.

Bots fill the empty places up to the field size (the organiser's "maximum entrants"),
so the organiser picks the field; a field that leaves tables short or gives byes is
allowed (the formats play it), and ``field_warning`` says so in words, with the nearest
sizes that fill every table.
"""

from __future__ import annotations

from collections import Counter

from games.tournaments.formats.api import next_round
from games.tournaments.formats.model import SINGLE_ELIMINATION, Settings, State
from games.tournaments.formats.validation import validate


def bot_places(*, field_size: int, entrants: int, filling: bool) -> int:
    """How many places bots take at the start beside ``entrants`` people: every empty
    place up to the field size when the organiser chose a bot level, else none."""
    return max(0, field_size - entrants) if filling else 0


def is_full(settings: Settings, field: int) -> bool:
    """Whether a field of ``field`` fills every table of every round and, in single
    elimination, gives nobody a bye."""
    size = settings.table_size
    if field < size:
        return False
    if settings.format != SINGLE_ELIMINATION:
        return field % size == 0
    while field > size:
        if field % size:
            return False
        field = field // size * settings.advance
    return field == size


def full_field(settings: Settings, entrants: int, limit: int) -> int | None:
    """The smallest full field (``is_full``) of at least ``entrants`` and at most
    ``limit``; None when there is none."""
    return next((field for field in range(entrants, limit + 1) if is_full(settings, field)), None)


def full_field_below(settings: Settings, entrants: int) -> int | None:
    """The largest full field below ``entrants``; None when there is none."""
    return next((field for field in range(entrants - 1, 1, -1) if is_full(settings, field)), None)


def field_warning(settings: Settings, field: int, limit: int) -> str:
    """Words for the organiser when a field of ``field`` leaves a table short or gives
    byes in round 1 (with the nearest full fields, up to ``limit``); "" when every
    table is full, or when the settings do not make a tournament (``validate`` says why)."""
    if is_full(settings, field) or validate(settings, field):
        return ""
    planned = next_round(State(settings=settings, seeds=tuple(range(1, field + 1))))
    if planned is None:
        return ""
    sizes = Counter(len(table.entrants) for table in planned.tables)
    parts = [_count(count, f"table of {size}", f"tables of {size}") for size, count in sorted(sizes.items())]
    if planned.byes:
        parts.append(_count(len(planned.byes), "bye", "byes"))
    shape = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
    words = f"With {field} places, round 1 has {shape}."
    if settings.format != SINGLE_ELIMINATION and settings.table_size == 2:
        words += " Someone sits out with a bye every round."
    nearest = [
        size for size in (full_field_below(settings, field), full_field(settings, field, limit)) if size
    ]
    if nearest:
        words += f" {' or '.join(str(size) for size in nearest)} places fill every table with no byes."
    return words


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
