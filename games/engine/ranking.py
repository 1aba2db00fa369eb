"""Ranks from scores: rank 1 is best, equal keys share a rank (1, 2, 2, 4)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def competition_ranks(keys: Sequence[Hashable], *, higher_is_better: bool = True) -> list[int]:
    """Standard competition ranking of ``keys`` (tuples compare element by element)."""
    ordered = sorted(keys, reverse=higher_is_better)  # type: ignore[type-var]
    first_place: dict[Hashable, int] = {}
    for position, key in enumerate(ordered, start=1):
        first_place.setdefault(key, position)
    return [first_place[key] for key in keys]
