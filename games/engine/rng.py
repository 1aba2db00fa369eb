"""Seeded randomness that lives inside a game state.

A game state carries one 64-bit integer; ``apply`` builds an ``Rng`` from it, draws
what it needs and stores ``rng.state`` back in the new state. splitmix64 is used
because its whole state is a single int: cheap to copy, to encode as JSON and to
compare, unlike ``random.Random`` whose state is 625 words. It is not
cryptographic; secrecy comes from the site never sending the seed or the state.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any int seed (negative or huge included) into a 64-bit generator state."""
    folded = 0
    value = abs(int(seed))
    while True:
        folded = _mix(folded ^ (value & _MASK))
        value >>= 64
        if not value:
            break
    return _mix(folded ^ (1 if seed < 0 else 0))


_SPAN = 1 << 64


def _mix(z: int) -> int:
    z = (z + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """A splitmix64 generator whose ``state`` is written back into the game state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in ``0..n-1`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n > 1 << 64:
            # One 64-bit draw cannot cover a bigger range; the rejection limit
            # below would be 0 and the loop would never end.
            raise ValueError("below() draws from 64 bits: the bound must be at most 2**64")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """A uniform int in ``low..high``, both included."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 bits of precision."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """``shuffle`` on a copy, with ``below`` and ``next64`` written out in the loop:
        bots deal thousands of sampled games, and two calls per card were a good part
        of it. Same draws, same final state (tests/engine/test_shared_pieces.py)."""
        pool = list(items)
        state = self.state
        for i in range(len(pool) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - (_SPAN % n)
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                value = z ^ (z >> 31)
                if value < limit:
                    break
            j = value % n
            pool[i], pool[j] = pool[j], pool[i]
        self.state = state
        return tuple(pool)

    def token(self) -> str:
        """An opaque 8-hex-digit id; callers that need uniqueness use ``unique_tokens``."""
        return f"{self.next64() >> 32:08x}"

    def unique_tokens(self, count: int) -> tuple[str, ...]:
        """``count`` distinct opaque ids, so that an id never tells what it names."""
        # ``token()`` written out in the loop, for the same reason as in ``shuffled``.
        state = self.state
        seen: set[str] = set()
        tokens: list[str] = []
        while len(tokens) < count:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            token = f"{(z ^ (z >> 31)) >> 32:08x}"
            if token not in seen:
                seen.add(token)
                tokens.append(token)
        self.state = state
        return tuple(tokens)
