"""The attack that recovered running matches' hidden state from the ids a seat sees,
run against the old generator (where it works: the control) and against new matches
of every game (where it must find nothing).

How it went: with splitmix64 an id was the top 32 bits of a generator output, and
the output mix is invertible. So for a seen id, each guess of the 32 missing bits
gives a candidate generator state; a candidate is confirmed when a nearby output
of it is another id the seat sees; stepping the confirmed state back to the start
and calling the game's setup gives the whole initial state: every hidden card and
every future draw. The real search tried all 2**32 guesses (15 to 84 s on one core);
here the attacker is told all but ``SEARCHED_BITS`` of them, so the test is fast.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from games.engine import Game, all_games, get
from games.engine.options import parse_options
from games.engine.rng import FastRng, fast_state
from tests.engine.playouts import play_on

SEARCHED_BITS = 10  # of the 32 missing bits of an output; the harness hints the rest
WINDOW = 120  # how many outputs on either side of a seen id the attacker tries

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_C1_INVERSE, _C2_INVERSE = pow(_C1, -1, 1 << 64), pow(_C2, -1, 1 << 64)
_ID = re.compile(r'"([0-9a-f]{8})"')


def mix(state: int) -> int:
    z = ((state ^ (state >> 30)) * _C1) & _MASK
    z = ((z ^ (z >> 27)) * _C2) & _MASK
    return z ^ (z >> 31)


def unmix(output: int) -> int:
    """The generator state whose output is ``output``: splitmix64's mix undone."""
    z = output ^ (output >> 31) ^ (output >> 62)
    z = (z * _C2_INVERSE) & _MASK
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * _C1_INVERSE) & _MASK
    return z ^ (z >> 30) ^ (z >> 60)


def seen_ids(game: Game[Any], start: Any, seat: int, plies: int = 12) -> list[str]:
    """Every id in what the seat receives (its view and a spectator's) over the first
    ``plies`` moves of a random game: Read and Grab shows none until cards are turned."""
    states = play_on(game, start, random.Random(1), stop_after=plies).states
    shown = [view for state in states for view in (game.view(state, seat), game.view(state, None))]
    return list(dict.fromkeys(_ID.findall(json.dumps(shown))))


def attack(
    game: Game[Any], players: int, seat: int, first_view: dict[str, Any], ids: list[str], hint: int
) -> Any:
    """The initial state rebuilt from seen ids, or None. ``hint`` is the part of the
    first id's missing bits the attacker is given (all but ``SEARCHED_BITS``)."""
    if len(ids) < 2:
        return None
    target, others = int(ids[0], 16), {int(token, 16) for token in ids[1:]}
    for guess in range(1 << SEARCHED_BITS):
        low = (hint << SEARCHED_BITS) | guess
        state = unmix((target << 32) | low)
        for step in range(-WINDOW, WINDOW + 1):
            if step and mix((state + step * _GOLDEN) & _MASK) >> 32 in others:
                found = _rebuild(game, players, seat, first_view, state)
                if found is not None:
                    return found
    return None


def _rebuild(game: Game[Any], players: int, seat: int, first_view: dict[str, Any], state: int) -> Any:
    """Step a confirmed generator state back to where setup began, and set up."""
    options = parse_options(game.options, {})
    for drawn in range(1, 4 * WINDOW):
        start = (state - drawn * _GOLDEN) & _MASK
        candidate = game.setup(players, start, options)
        if game.view(candidate, seat) == first_view:
            return candidate
    return None


def hint_from_the_old_generator(seed: int, token: str) -> int:
    """What the harness tells the attacker against splitmix64: the output behind the
    id, less the bits it must search."""
    rng = FastRng(fast_state(seed))
    for _ in range(10_000):
        output = rng.next64()
        if f"{output >> 32:08x}" == token:
            return (output & 0xFFFFFFFF) >> SEARCHED_BITS
    raise AssertionError("the id is no output of the old generator")


def test_the_attack_recovers_a_match_dealt_by_the_old_generator() -> None:
    """The control: against splitmix64 the method rebuilds every hidden card."""
    game, players, seat, seed = get("go-fox"), 2, 0, 4242
    truth = game.new(players, seed, generator="splitmix64")
    ids = seen_ids(game, truth, seat)
    recovered = attack(
        game, players, seat, game.view(truth, seat), ids, hint_from_the_old_generator(seed, ids[0])
    )
    assert recovered is not None
    assert game.encode(recovered) == game.encode(truth)  # the other hand and the whole pile


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_the_attack_finds_nothing_in_a_new_match(game: Game[Any]) -> None:
    """With the keyed generator no output lies behind an id (an id is a keyed hash
    from its own stream), so no hint can be given; the attacker gets arbitrary bits
    of the right width, and every guess is tried against every seen id."""
    players, seat = min(max(2, game.min_players), game.max_players), 0
    truth = game.new(players, 8_675_309)
    ids = seen_ids(game, truth, seat)
    for hint in (0, (1 << (32 - SEARCHED_BITS)) - 1, 0x2A5F3):
        assert attack(game, players, seat, game.view(truth, seat), ids, hint) is None
    if game.slug != "its-a-bomb":  # It's a Bomb! shows no ids at all
        assert len(ids) >= 2
