"""The two generators of games/engine/rng.py: the keyed one that deals real matches,
and splitmix64, which bots' re-deals and the matches from before still use."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import Game, all_games, get
from games.engine.codec import decode, encode
from games.engine.errors import IllegalAction
from games.engine.rng import FastRng, KeyedRng, KeyedRngState, keyed_state, resume, start
from tests.engine.playouts import play_on

# -- the keyed generator ----------------------------------------------------------------


def test_keyed_generator_is_deterministic_and_differs_by_seed() -> None:
    first, again, other = KeyedRng(keyed_state(7)), KeyedRng(keyed_state(7)), KeyedRng(keyed_state(8))
    draws = [first.next64() for _ in range(20)]
    assert draws == [again.next64() for _ in range(20)]
    assert draws != [other.next64() for _ in range(20)]
    assert first.state == again.state == KeyedRngState(key=keyed_state(7).key, drawn=20, minted=0)


def test_keyed_key_is_256_bits_and_separates_negative_huge_and_nearby_seeds() -> None:
    seeds = [0, 1, -1, 2, 2**64, 2**64 + 1, -(2**64), 2**255, 10**70, -(10**70)]
    keys = [keyed_state(seed).key for seed in seeds]
    assert len(set(keys)) == len(seeds)
    assert all(len(key) == 64 and int(key, 16) >= 0 for key in keys)


@pytest.mark.parametrize("stop", [0, 1, 7, 8, 9, 31])
def test_keyed_generator_resumed_from_its_state_draws_on_as_if_never_stopped(stop: int) -> None:
    whole = KeyedRng(keyed_state(2026))
    expected = [whole.next64() for _ in range(40)]
    part = KeyedRng(keyed_state(2026))
    head = [part.next64() for _ in range(stop)]
    stored = decode(KeyedRngState, json.loads(json.dumps(encode(part.state))))
    resumed = resume(stored)
    assert head + [resumed.next64() for _ in range(40 - stop)] == expected


def test_ids_come_from_their_own_stream_not_from_the_one_that_deals() -> None:
    """Drawing cards never moves the ids, and minting ids never moves the cards: an id
    is no output of the stream that shuffles."""
    quiet = KeyedRng(keyed_state(5))
    busy = KeyedRng(keyed_state(5))
    for _ in range(1000):
        busy.next64()
    assert quiet.unique_tokens(50) == busy.unique_tokens(50)

    dealer = KeyedRng(keyed_state(5))
    minter = KeyedRng(keyed_state(5))
    minter.unique_tokens(300)
    assert [dealer.next64() for _ in range(30)] == [minter.next64() for _ in range(30)]
    assert minter.state.drawn == 30 and minter.state.minted >= 300


def test_keyed_tokens_are_distinct_hex_and_resume_where_they_stopped() -> None:
    rng = KeyedRng(keyed_state(12))
    tokens = rng.unique_tokens(500)
    assert len(set(tokens)) == 500 and all(len(token) == 8 and int(token, 16) >= 0 for token in tokens)
    head = KeyedRng(keyed_state(12))
    first = head.unique_tokens(17)
    assert first + resume(head.state).unique_tokens(483) == tokens


def test_resume_picks_the_generator_a_state_belongs_to() -> None:
    assert isinstance(resume(5), FastRng)
    assert isinstance(resume(keyed_state(5)), KeyedRng)
    with pytest.raises(TypeError):
        resume("5")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        start(5, "mersenne")


def test_new_refuses_an_unknown_generator() -> None:
    with pytest.raises(IllegalAction) as caught:
        get("go-fox").new(2, 1, generator="mersenne")
    assert caught.value.code == "bad_generator"


# -- uniform: shuffles, draws and ids -----------------------------------------------------
#
# Fixed seeds, so these are deterministic: each statistic is compared with the chi-square
# quantile at p = 0.001 for its degrees of freedom (a sound generator passes 999 times in 1000;
# these seeds are one such run, and a biased shuffle or id fails by far).


def chi_square(counts: Counter[Any], cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in range(cells)) + (
        0 if len(counts) <= cells else float("inf")
    )


def test_keyed_shuffles_give_every_order_equally_often() -> None:
    orders = list(itertools.permutations(range(5)))
    index = {order: number for number, order in enumerate(orders)}
    seeds = 6000
    counts = Counter(index[KeyedRng(keyed_state(seed)).shuffled(range(5))] for seed in range(seeds))
    assert chi_square(counts, len(orders), seeds) < 173.6  # 119 degrees of freedom


def test_keyed_below_is_uniform_for_a_bound_that_does_not_divide_two_to_the_64() -> None:
    rng = KeyedRng(keyed_state(99))
    draws = 14_000
    counts = Counter(rng.below(7) for _ in range(draws))
    assert chi_square(counts, 7, draws) < 22.46  # 6 degrees of freedom


def test_keyed_ids_are_uniform_in_every_hex_digit() -> None:
    within = KeyedRng(keyed_state(3)).unique_tokens(16_000)  # many ids of one match
    across = [KeyedRng(keyed_state(seed)).token() for seed in range(4_000)]  # first ids of many
    for tokens in (within, across):
        for position in range(8):
            counts = Counter(int(token[position], 16) for token in tokens)
            assert chi_square(counts, 16, len(tokens)) < 37.7  # 15 degrees of freedom


def test_a_dealt_card_is_uniform_over_new_matches() -> None:
    """Through a real game's setup: which card is first in Read and Grab's middle pile."""
    game: Game[Any] = get("read-and-grab")
    matches = 3_000
    first = Counter(game.new(2, seed).middle[0] for seed in range(matches))
    cells = len(game.new(2, 0).middle)
    assert chi_square(first, cells, matches) < _quantile(cells - 1)


def _quantile(degrees: int) -> float:
    """The chi-square quantile at p = 0.001 (Wilson-Hilferty), for many degrees of freedom."""
    z = 3.090232
    return degrees * (1 - 2 / (9 * degrees) + z * (2 / (9 * degrees)) ** 0.5) ** 3


# -- matches from before the keyed generator ----------------------------------------------

# sha256 (first 16 hex digits) of each game's encoded state after 40 random actions
# (6 for Booby-Trap) from ``new(players, 20261125 + players)`` on splitmix64, recorded
# with the engine as it was before the keyed generator came. Matches started then
# store an int generator state and are rebuilt with ``generator="splitmix64"``: they
# must play on exactly as they began. (Boom Box and Don't Go Boom re-recorded when their
# log texts began naming boxes by letter and places in words: states that differ in log
# texts only, everything else checked equal to the old engine's.)
SPLITMIX64_PLAYOUTS = {
    "booby-trap/1": "d3d462f185027640",
    "booby-trap/4": "9a5a03eb9e6060d5",
    "boom-box/2": "3c74c0d8485e6781",
    "boom-box/4": "d95f6ea9ac822144",
    "dont-go-boom/2": "4d0b6b3b9f8e9388",
    "dont-go-boom/4": "865f820af7a7d490",
    "go-fox/2": "0829ab8fe7e9578f",
    "go-fox/4": "481800095b7e48fb",
    "its-a-bomb/2": "69f926c6134193c8",
    "its-a-bomb/4": "4c2d4f2266671ed1",
    "ka-blam/2": "e9e0a3ec931950af",
    "ka-blam/4": "1142e2cf0efbb80a",
    "read-and-grab/2": "4f34d8ecb07c08c6",
    "read-and-grab/4": "9eb583d8b0160a8c",
}


def played(slug: str, players: int, generator: str) -> tuple[Any, str]:
    game = get(slug)
    seed = 20261125 + players
    first = game.new(players, seed, generator=generator)
    state = play_on(game, first, random.Random(seed), stop_after=6 if slug == "booby-trap" else 40).final
    text = json.dumps(game.encode(state), sort_keys=True, separators=(",", ":"))
    return state, hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("case", sorted(SPLITMIX64_PLAYOUTS))
def test_matches_started_on_splitmix64_play_on_exactly_as_before(case: str) -> None:
    slug, players = case.split("/")
    state, fingerprint = played(slug, int(players), "splitmix64")
    assert fingerprint == SPLITMIX64_PLAYOUTS[case]
    assert type(state.rng) is int  # and they stay on it


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_new_matches_are_dealt_by_the_keyed_generator(game: Any) -> None:
    state = game.new(game.min_players, 20261125)
    assert isinstance(state.rng, KeyedRngState)
    assert state != game.new(game.min_players, 20261125, generator="splitmix64")
