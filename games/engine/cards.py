"""Decks and piles as immutable tuples of card ids (index 0 is the top).

Games keep what a card *is* in a table keyed by its id and move only ids around,
so that knowledge about a card (a peek, a claim) can follow it from pile to pile.
"""

from __future__ import annotations

from typing import TypeVar

from games.engine.rng import Rng

T = TypeVar("T")


def draw(pile: tuple[T, ...], count: int = 1) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """The top ``count`` items and the rest of the pile."""
    if count > len(pile):
        raise ValueError(f"cannot draw {count} from a pile of {len(pile)}")
    return pile[:count], pile[count:]


def deal(pile: tuple[T, ...], hands: int, size: int) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """Deal ``size`` items to each of ``hands`` hands, one at a time around the table."""
    needed = hands * size
    if needed > len(pile):
        raise ValueError(f"cannot deal {hands}x{size} from a pile of {len(pile)}")
    dealt = tuple(pile[hand:needed:hands] for hand in range(hands))
    return dealt, pile[needed:]


def reshuffle_under_top(discard: tuple[T, ...], rng: Rng) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """A new face-down deck from a discard pile, keeping its top item face up.

    Returns ``(new_deck, new_discard)`` where ``new_discard`` holds only the old top.
    """
    if not discard:
        return (), ()
    return rng.shuffled(discard[1:]), discard[:1]


def insert_at_random(pile: tuple[T, ...], item: T, rng: Rng) -> tuple[T, ...]:
    """``item`` placed at a uniformly random gap of ``pile`` (top and bottom included)."""
    position = rng.below(len(pile) + 1)
    return (*pile[:position], item, *pile[position:])


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``items`` with ``items[index]`` set to ``value``."""
    return (*items[:index], value, *items[index + 1 :])
