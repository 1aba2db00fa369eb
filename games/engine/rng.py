"""Randomness that lives inside a game state: two generators for two jobs.

A game state carries its generator's state (``RngState``); ``apply`` resumes the
generator from it with ``resume``, draws what it needs and stores ``rng.state`` back
in the new state. Both generators draw the same way (``below``, ``shuffled``, ...)
and both states are small JSON-ready values, so a game does not care which it has.

- ``KeyedRng`` is for everything that decides hidden information in a real match:
  deals, shuffles, draws, Booby-Trap's hidden make-up, It's a Bomb!'s grid and
  Countdown. It is a keyed BLAKE2b stream (a key of 256 bits from the match seed,
  and a counter), so its outputs, however many are seen, say nothing usable about
  other outputs or about the key. ``Game.new`` starts it. Opaque ids (``token``,
  ``unique_tokens``) come from a second stream under the same key with its own
  personalisation and counter, never from the stream that deals: every id a player
  sees tells nothing about any card, nor about where the deal is going.
- ``FastRng`` is splitmix64: one int of state, a few arithmetic steps per draw, and
  **not secret** (an output reveals the state up to 2**32 guesses). It is for what a
  bot deals itself: a sampled state's future draws in its search (the samplers store
  ``rng.getrandbits(64)``), where nothing is hidden from anyone and speed counts. It
  also keeps playing the matches that were started with it before the keyed
  generator existed (their stored state holds an int), so they finish as they began.

The secrecy of a match rests on its seed: the site draws 256 bits from ``secrets``
(a small seed such as a test's ``7`` is a small key space, fine for tests only).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SPAN = 1 << 64

# The generators a match can be started on, by the name ``Match.generator`` stores.
GENERATORS = ("keyed", "splitmix64")


@dataclass(frozen=True)
class KeyedRngState:
    """The keyed generator's whole state: its key and how far each stream has gone."""

    key: str  # 64 hex digits: 256 bits, from the match seed (never shown to anyone)
    drawn: int  # 64-bit words drawn from the dealing stream so far
    minted: int  # ids taken from the id stream so far


# An int is a FastRng's state; a KeyedRngState a KeyedRng's.
RngState = int | KeyedRngState


def start(seed: int, generator: str = "keyed") -> RngState:
    """The generator state a game starts from, for a match seed.

    ``"splitmix64"`` rebuilds matches created before the keyed generator (their rows
    say so); everything new is ``"keyed"``."""
    if generator == "keyed":
        return keyed_state(seed)
    if generator == "splitmix64":
        return fast_state(seed)
    raise ValueError(f"no generator named {generator!r}")


def resume(state: RngState) -> Rng:
    """The generator a stored state belongs to, ready to draw on from where it stopped."""
    if type(state) is int:
        return FastRng(state)
    if isinstance(state, KeyedRngState):
        return KeyedRng(state)
    raise TypeError(f"not a generator state: {type(state).__name__}")


def _seed_bytes(seed: int) -> bytes:
    """Any int as bytes, sign included, so that no two seeds give the same bytes."""
    magnitude = abs(int(seed))
    return (b"-" if seed < 0 else b"+") + magnitude.to_bytes((magnitude.bit_length() + 7) // 8 or 1, "big")


def keyed_state(seed: int) -> KeyedRngState:
    """A fresh keyed generator for ``seed``: the key is BLAKE2b of the seed."""
    key = hashlib.blake2b(_seed_bytes(seed), digest_size=32, person=b"boomsite-seed").hexdigest()
    return KeyedRngState(key=key, drawn=0, minted=0)


def fast_state(seed: int) -> int:
    """Turn any int seed (negative or huge included) into a 64-bit splitmix64 state."""
    folded = 0
    value = abs(int(seed))
    while True:
        folded = _mix(folded ^ (value & _MASK))
        value >>= 64
        if not value:
            break
    return _mix(folded ^ (1 if seed < 0 else 0))


def _mix(z: int) -> int:
    z = (z + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """What both generators offer. A subclass supplies ``next64``, ``state`` and the
    id stream (``token``, ``unique_tokens``); the rest is drawn from ``next64``."""

    __slots__ = ()

    @property
    def state(self) -> RngState:
        raise NotImplementedError

    def next64(self) -> int:
        raise NotImplementedError

    def token(self) -> str:
        """An opaque 8-hex-digit id; callers that need uniqueness use ``unique_tokens``."""
        raise NotImplementedError

    def unique_tokens(self, count: int) -> tuple[str, ...]:
        """``count`` distinct opaque ids, so that an id never tells what it names."""
        seen: set[str] = set()
        tokens: list[str] = []
        while len(tokens) < count:
            token = self.token()
            if token not in seen:
                seen.add(token)
                tokens.append(token)
        return tuple(tokens)

    def below(self, n: int) -> int:
        """A uniform int in ``0..n-1`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n > _SPAN:
            # One 64-bit draw cannot cover a bigger range; the rejection limit
            # below would be 0 and the loop would never end.
            raise ValueError("below() draws from 64 bits: the bound must be at most 2**64")
        limit = _SPAN - (_SPAN % n)
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
        """``shuffle`` on a copy."""
        pool = list(items)
        self.shuffle(pool)
        return tuple(pool)


# -- the keyed generator: for real matches ------------------------------------------

_DEAL = b"deal"  # BLAKE2b personalisations: the two streams never share an input
_IDS = b"ids"
_EIGHT_WORDS = struct.Struct("<8Q").unpack  # one 64-byte BLAKE2b output = eight 64-bit words
_TOKENS_PER_BLOCK = 16  # ... or sixteen 32-bit ids


def _block(key: bytes, stream: bytes, index: int) -> bytes:
    return hashlib.blake2b(index.to_bytes(8, "little"), key=key, person=stream).digest()


class KeyedRng(Rng):
    """BLAKE2b in counter mode: word ``i`` of the dealing stream is word ``i % 8`` of
    BLAKE2b(key, "deal", i // 8), and id ``j`` is 4 bytes of BLAKE2b(key, "ids", j // 16).
    A keyed hash's outputs are unpredictable without the key, so no number of them
    tells another; the counters make the stream a pure function of the state."""

    __slots__ = ("_drawn", "_hex_key", "_ids", "_ids_index", "_key", "_minted", "_words", "_words_index")

    def __init__(self, state: KeyedRngState) -> None:
        self._hex_key = state.key
        self._key = bytes.fromhex(state.key)
        self._drawn = state.drawn
        self._minted = state.minted
        self._words: tuple[int, ...] = ()
        self._words_index = -1
        self._ids = b""
        self._ids_index = -1

    @property
    def state(self) -> KeyedRngState:
        return KeyedRngState(key=self._hex_key, drawn=self._drawn, minted=self._minted)

    def next64(self) -> int:
        drawn = self._drawn
        self._drawn = drawn + 1
        index = drawn >> 3  # _WORDS_PER_BLOCK is 8
        if index != self._words_index:
            self._words = _EIGHT_WORDS(_block(self._key, _DEAL, index))
            self._words_index = index
        return self._words[drawn & 7]

    def token(self) -> str:
        minted = self._minted
        index, offset = divmod(minted, _TOKENS_PER_BLOCK)
        if index != self._ids_index:
            self._ids = _block(self._key, _IDS, index)
            self._ids_index = index
        self._minted = minted + 1
        return self._ids[offset * 4 : offset * 4 + 4].hex()


# -- the fast generator: for bots' own re-deals (and matches from before) ------------


class FastRng(Rng):
    """splitmix64, whose whole state is one int. Not secret: see the module's docstring."""

    __slots__ = ("_state",)

    def __init__(self, state: int) -> None:
        self._state = state & _MASK

    @property
    def state(self) -> int:
        return self._state

    def next64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """``shuffle`` on a copy, with ``below`` and ``next64`` written out in the loop:
        bots deal thousands of sampled games, and two calls per card were a good part
        of it. Same draws, same final state (tests/engine/test_shared_pieces.py)."""
        pool = list(items)
        state = self._state
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
        self._state = state
        return tuple(pool)

    def token(self) -> str:
        # The top half of a draw from the same stream: fine for a bot's own re-deal,
        # and exactly what matches started on this generator minted before.
        return f"{self.next64() >> 32:08x}"

    def unique_tokens(self, count: int) -> tuple[str, ...]:
        # ``token()`` written out in the loop, for the same reason as in ``shuffled``.
        state = self._state
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
        self._state = state
        return tuple(tokens)
