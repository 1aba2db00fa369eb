"""Booby-Trap bots: read the touches, take what feels loose and is worth the most.

Rules and engine: docs/games/booby-trap.md. Every take runs the physics (about
10 ms), so nothing here simulates: the bots estimate the chance that taking a piece
trips the bar from two cheap things.

- **The geometry** of the public picture (positions to 1/20 inch, nominal radii). A
  piece can only carry the bar's push if it is held from opposite sides: with
  friction 0.8 a force may lean about 39 degrees off its contact's normal, so the
  contacts holding a loaded piece spread over more than 180 - 2 * 39 degrees. A
  piece touched by fewer than two things, or only from one side, carries nothing:
  such takes tripped the bar 0.2% of the time (782 takes), against 36% for the others.
- **The reading** of a piece the seat touched in the current arrangement (gauge
  0-10): ``TRIP_BY_GAUGE`` is the share of takes of a held piece that tripped the
  bar, per size and gauge.

The figures come from 6,340 takes simulated on seeded trays of 2-4 player games at
every stage (each piece of the tray taken in turn from the same state).

A take is worth ``(1 - p) * value - p * penalty``. The basic bot touches the piece it
would most like to take (one it knows is safe enough, else the untried piece most
likely to be worth taking), takes it when the estimate is good enough or it must,
and passes otherwise. Solitaire counts pieces, not points, and a trip costs one of
three lives, so there every piece is worth 1 and a trip counts as 3.
"""

from __future__ import annotations

import itertools
import math
import random
from statistics import NormalDist
from typing import Any

from games.engine import Game
from games.engine.booby_trap import physics, rules
from games.engine.booby_trap.physics import TRAY_WIDTH
from games.engine.booby_trap.state import (
    IN_TRAY,
    NO_PASS,
    SIZE_NAMES,
    SOLITAIRE,
    SOLITAIRE_TRIPS_ALLOWED,
    BoobyTrapState,
)

# Measured share of takes that tripped the bar, for a piece held from opposite
# sides, by size and by the gauge its touch read (0..10), smoothed to rise with the
# gauge. Large pieces trip more at the same reading: they hold more of the pack.
TRIP_BY_GAUGE: dict[str, tuple[float, ...]] = {
    "small": (0.02, 0.07, 0.13, 0.22, 0.3, 0.33, 0.38, 0.4, 0.42, 0.5, 0.52),
    "medium": (0.03, 0.12, 0.24, 0.31, 0.38, 0.45, 0.52, 0.59, 0.62, 0.7, 0.72),
    "large": (0.03, 0.24, 0.33, 0.46, 0.52, 0.61, 0.72, 0.74, 0.8, 0.8, 0.84),
}
# A held piece that has not been touched: the share of such takes that tripped.
TRIP_IF_HELD: dict[str, float] = {"small": 0.18, "medium": 0.34, "large": 0.57}
# A piece the geometry says cannot be holding anything (measured 0.2%; kept a
# little above, since a rounded picture can hide a contact).
TRIP_IF_FREE = 0.005
# A held piece reads loose (gauge 0 or 1) this often, and a loose reading trips
# this often: what touching an untried piece is likely to find.
LOOSE_READING_SHARE: dict[str, float] = {"small": 0.45, "medium": 0.31, "large": 0.2}
TRIP_IF_READ_LOOSE: dict[str, float] = {"small": 0.035, "medium": 0.06, "large": 0.12}

# Two centres closer than the sum of the nominal radii plus this are in contact:
# positions are rounded to 1/20 inch and radii vary by 2%. (0.04 misses contacts,
# 0.08 adds false ones; 0.06 separated free from held pieces best.)
CONTACT_TOLERANCE = 0.06
HOLDING_SPREAD = math.pi - 2.0 * math.atan(physics.PHYSICS.friction)

# Take a piece when the take's expected points are at least this share of its value
# (large: trip chance up to 25%, medium 17%, small 10%; solitaire 12.5%).
TAKE_SHARE = 0.5
# Solitaire: a piece scores 1; a trip is a third of the game's lives.
SOLITAIRE_TRIP_COST = 3.0


# -- Estimates from the public picture ------------------------------------------------


def contact_directions(discs: list[tuple[str, float, float, float]], bar_y: float) -> dict[str, list[float]]:
    """For each (id, x, y, nominal radius) in the tray, the directions (radians) of
    what it touches: other pieces, the side walls, the far wall and the bar."""
    directions: dict[str, list[float]] = {}
    for piece_id, x, y, radius in discs:
        angles = []
        for other_id, other_x, other_y, other_radius in discs:
            if other_id == piece_id:
                continue
            dx, dy = other_x - x, other_y - y
            reach = radius + other_radius + CONTACT_TOLERANCE
            if dx * dx + dy * dy <= reach * reach:
                angles.append(math.atan2(dy, dx))
        if x - radius <= CONTACT_TOLERANCE:
            angles.append(math.pi)  # the left wall
        if TRAY_WIDTH - x - radius <= CONTACT_TOLERANCE:
            angles.append(0.0)  # the right wall
        if y - radius <= CONTACT_TOLERANCE:
            angles.append(-math.pi / 2)  # the far wall
        if bar_y - y - radius <= CONTACT_TOLERANCE:
            angles.append(math.pi / 2)  # the bar
        directions[piece_id] = angles
    return directions


def spread(angles: list[float]) -> float:
    """The smallest arc (radians) holding every direction: 0 for fewer than two."""
    if len(angles) < 2:
        return 0.0
    ordered = sorted(angle % math.tau for angle in angles)
    gaps = [later - earlier for earlier, later in itertools.pairwise(ordered)]
    gaps.append(ordered[0] + math.tau - ordered[-1])
    return math.tau - max(gaps)


def free_pieces(discs: list[tuple[str, float, float, float]], bar_y: float) -> set[str]:
    """Ids of the pieces that cannot be carrying any of the bar's push."""
    directions = contact_directions(discs, bar_y)
    return {piece_id for piece_id, angles in directions.items() if spread(angles) < HOLDING_SPREAD}


def trip_chance(size: str, free: bool, gauge: int | None) -> float:
    if free:
        return TRIP_IF_FREE
    if gauge is None:
        return TRIP_IF_HELD[size]
    return TRIP_BY_GAUGE[size][gauge]


def worth(chance: float, value: float, penalty: float) -> float:
    """Expected points of a take: keep the piece, or lose the penalty."""
    return (1.0 - chance) * value - chance * penalty


def stakes(
    variant: str, values: tuple[float, float, float], penalty: float
) -> tuple[tuple[float, float, float], float]:
    """(value per size, trip cost) the bots weigh: solitaire scores pieces, not points."""
    if variant == SOLITAIRE:
        return (1.0, 1.0, 1.0), SOLITAIRE_TRIP_COST
    return values, penalty


# -- The basic bot ----------------------------------------------------------------------


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Decide from the view alone (its legal actions are read from the view too:
    the touchable flags, the touched piece and ``can_pass``)."""
    values, penalty = stakes(
        view["variant"],
        (view["values"]["small"], view["values"]["medium"], view["values"]["large"]),
        view["penalty"],
    )
    in_tray = [piece for piece in view["pieces"] if piece["where"] == IN_TRAY]
    free = free_pieces([(p["id"], p["x"], p["y"], p["radius"]) for p in in_tray], view["tray"]["bar_y"])

    def value(piece: dict[str, Any]) -> float:
        return values[SIZE_NAMES.index(piece["size"])]

    def chance(piece: dict[str, Any]) -> float:
        reading = piece["reading"]
        return trip_chance(piece["size"], piece["id"] in free, None if reading is None else reading["gauge"])

    def gain(piece: dict[str, Any]) -> float:
        return worth(chance(piece), value(piece), penalty)

    def good_enough(piece: dict[str, Any]) -> bool:
        return gain(piece) >= TAKE_SHARE * value(piece)

    def best(pieces: list[dict[str, Any]], score: Any) -> dict[str, Any]:
        # Ties (same size and estimate) are broken at random, not by list order.
        return max(pieces, key=lambda piece: (score(piece), rng.random()))

    if view["phase"] == "decide":
        piece_id = view["touched"]["piece"]
        touched = next(piece for piece in in_tray if piece["id"] == piece_id)
        if not view["can_pass"] or good_enough(touched):
            return {"type": "take", "piece": piece_id}
        return {"type": "pass"}

    touchable = [piece for piece in in_tray if piece["touchable"]]
    if view["variant"] == NO_PASS:
        # No touch, no reading: the best expected take from the picture alone.
        return {"type": "take", "piece": best(touchable, gain)["id"]}
    wanted = [piece for piece in touchable if good_enough(piece)]
    untried = [piece for piece in touchable if piece["reading"] is None]
    if wanted:
        # A piece known to be safe enough (free, or read loose): touch it to take it.
        choice = best(wanted, gain)
    elif view["must_take"]:
        # This touch will be taken whatever it reads: the best expected take.
        choice = best(touchable, gain)
    elif untried:
        # Explore: the untried piece most likely to read loose, times what it is
        # worth then.
        choice = best(untried, lambda piece: explore_worth(piece["size"], value(piece), penalty))
    else:
        choice = best(touchable, gain)
    return {"type": "touch", "piece": choice["id"]}


def explore_worth(size: str, value: float, penalty: float) -> float:
    """What touching an untried held piece is expected to find worth taking."""
    return LOOSE_READING_SHARE[size] * worth(TRIP_IF_READ_LOOSE[size], value, penalty)


# -- The rollout policy (search playouts, on a full sampled state) ----------------------

# How many pieces a rollout player has "felt" this turn: it looks at the readings of
# this many pieces (what touches would read) and touches the best, standing in for
# the readings a real player gathers over a lap of passes.
ROLLOUT_FEEL = 3
# Playouts stop after this many actions and ask ``evaluate``: each take runs ~10 ms
# of physics (a full two-player playout is ~65 actions, ~30 takes: about 6 playouts
# a second), and a turn is two actions, so 6 actions is about three turns: the
# decision's own take (whose simulated outcome is what search learns most from) and
# the replies. Measured on one core: 34 such playouts/s (sample included), 2 and 4
# players alike.
ROLLOUT_DEPTH = 6
# The expert has no duel here and trusts its tree's own evidence when it is this
# clear (search.py's DEFAULT_DECISIVE_Z): physics allows about 40 playouts a second,
# too few to split between a tree and a duel, and the gaps here are large (a take
# that trips the bar against a pass). Measured, expert vs basic, two players, 40
# iterations, the same first 20 seeded games: 72.5% with the tree deciding at 1.3
# standard errors; 47.5% with the duel alone; 45% (first 10) with 70% of the
# playouts for the tree and a duel for the rest.
DECISIVE_Z = 1.3


def rollout(game: Game[Any], state: BoobyTrapState, seat: int, rng: random.Random) -> dict[str, Any]:
    """Cheap: no view, no geometry. The player reads what a touch would read."""
    values, penalty = stakes(state.variant, state.values, state.penalty)
    if state.touched is not None:
        piece = state.pieces[state.touched]
        gauge = physics.gauge(piece.load, piece.noise)
        chance = TRIP_BY_GAUGE[SIZE_NAMES[piece.size]][gauge]
        value = values[piece.size]
        if rules.must_take(state) or worth(chance, value, penalty) >= TAKE_SHARE * value:
            return {"type": "take", "piece": piece.id}
        return {"type": "pass"}
    touchable = rules.touchable(state)
    felt = rng.sample(touchable, min(ROLLOUT_FEEL, len(touchable)))
    if state.variant == NO_PASS:
        # No readings: the prior for a held piece, by size.
        choice = max(
            felt,
            key=lambda i: worth(
                TRIP_IF_HELD[SIZE_NAMES[state.pieces[i].size]], values[state.pieces[i].size], penalty
            ),
        )
        return {"type": "take", "piece": state.pieces[choice].id}

    def gain(index: int) -> float:
        piece = state.pieces[index]
        gauge = physics.gauge(piece.load, piece.noise)
        return worth(TRIP_BY_GAUGE[SIZE_NAMES[piece.size]][gauge], values[piece.size], penalty)

    return {"type": "touch", "piece": state.pieces[max(felt, key=gain)].id}


# -- Evaluation of an unfinished state -----------------------------------------------

_NORMAL = NormalDist()
# Spread of one take's points, in units of the trip penalty (a safe large piece is
# +1, a trip -1, most takes in between): the final margin's uncertainty grows with
# the square root of the takes left.
TAKE_SPREAD = 0.6
# Solitaire: the share of takes a careful player trips on (bench/booby_trap.py's
# listener: 26%; reading the geometry helps, so a little lower).
SOLITAIRE_TRIP_RATE = 0.2


def evaluate(game: Game[Any], state: BoobyTrapState, seat: int) -> float:
    """The estimated share of the other players ``seat`` finishes ahead of (two
    players: the chance to win), or in solitaire the chance to win."""
    totals = rules.scores(state)
    left = max(0, rules.in_tray_count(state) - rules.pieces_to_end(state))
    if state.variant == SOLITAIRE:
        lives = SOLITAIRE_TRIPS_ALLOWED - state.trips[0]
        return _binomial_cdf(lives, left, SOLITAIRE_TRIP_RATE)
    if state.players == 1:
        return 1.0
    # Each player takes about left / players more pieces.
    spread_per_player = TAKE_SPREAD * state.penalty * math.sqrt(left / state.players + 1.0)
    margin_spread = spread_per_player * math.sqrt(2.0)
    beaten = 0.0
    for other in range(state.players):
        if other != seat:
            beaten += _NORMAL.cdf((totals[seat] - totals[other]) / margin_spread)
    return beaten / (state.players - 1)


def _binomial_cdf(most: int, trials: int, chance: float) -> float:
    """P(at most ``most`` successes in ``trials``); 0 when ``most`` < 0."""
    if most < 0:
        return 0.0
    if most >= trials:
        return 1.0  # the sum below can round to just over 1
    return sum(
        math.comb(trials, k) * chance**k * (1.0 - chance) ** (trials - k)
        for k in range(min(most, trials) + 1)
    )
