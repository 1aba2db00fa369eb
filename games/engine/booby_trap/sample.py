"""Sampling a full Booby-Trap state from what one seat (or a spectator) can see.

Public: the pieces' ids, sizes, places and positions (to 1/20 inch), the bar's
position, the scores and the log's public facts. Re-drawn at random: every
piece's true radius and friction, its load and its fingertip noise draw, the
other seats' readings and the generator state.

Facts the viewer has seen are kept: a piece the viewer touched in the current
arrangement gets a (load, noise) pair drawn from the posterior given its reading,
so that touching it in the sampled state reads exactly what the viewer was told.
Readings of earlier arrangements are about loads the tray no longer has; they stay
in the log as they are. Sampling never simulates: the sampled positions are the
rounded public ones and the loads come from a prior, so the picture is plausible
rather than at rest; a take on a sampled state re-seats the tray first (see
``physics.take``), so its bar travel is still measured from rest.
"""

from __future__ import annotations

import random
from statistics import NormalDist
from typing import Any

from games.engine.log import LogEntry, entry

from . import physics
from .physics import LOAD_DECIMALS, PHYSICS, PIECE_SIZES, POSITION_DECIMALS, RADIUS_JITTER
from .rules import touch_entry
from .state import IN_TRAY, SIZE_NAMES, BoobyTrapState, Piece

# The prior on a piece's load, from bench/booby_trap.py over many seeded trays: about
# a third of the pieces of a fresh tray carry almost nothing; the others carry up to
# about one bar-push (median ~0.4, 90th percentile ~0.9), taken as evenly spread.
LOOSE_SHARE = 0.35
LOADED_RANGE = (physics.PHYSICS.almost_no_load, 1.0)

_NORMAL = NormalDist()
_TRIES = 400


def sample_state(view: dict[str, Any], seat: int | None, rng: random.Random) -> BoobyTrapState:
    arrangement = view["arrangement"]
    pieces: list[Piece] = []
    for shown in view["pieces"]:
        size = SIZE_NAMES.index(shown["size"])
        nominal = PIECE_SIZES[size][0]
        on_board = shown["where"] == IN_TRAY
        if on_board and shown["reading"] is not None:
            load, noise = _posterior(shown["reading"]["gauge"], rng)
        elif on_board:
            load, noise = _prior_load(rng), _normal(rng)
        else:
            load, noise = 0.0, 0.0
        pieces.append(
            Piece(
                id=shown["id"],
                size=size,
                where=shown["where"],
                keeper=shown["keeper"],
                x=shown["x"] if on_board else 0.0,
                y=shown["y"] if on_board else 0.0,
                radius=round(nominal * (1.0 + RADIUS_JITTER * rng.uniform(-1.0, 1.0)), POSITION_DECIMALS),
                friction=round(
                    PHYSICS.friction * (1.0 + PHYSICS.friction_spread * rng.uniform(-1.0, 1.0)), LOAD_DECIMALS
                ),
                load=load,
                noise=noise,
            )
        )
    index_of = {piece.id: index for index, piece in enumerate(pieces)}
    touched = view["touched"]
    scores = view["scores"]
    return BoobyTrapState(
        players=view["players"],
        variant=view["variant"],
        values=(view["values"]["small"], view["values"]["medium"], view["values"]["large"]),
        rng=rng.getrandbits(64),
        pieces=tuple(pieces),
        bar_y=view["tray"]["bar_y"],
        arrangement=arrangement,
        # Whose turn it would be is hidden from nobody, and meaningless once over.
        turn=view["turn"] if view["turn"] is not None else 0,
        touched=index_of[touched["piece"]] if touched is not None else None,
        passes=view["passes_in_a_row"],
        penalties=tuple(player["penalties"] for player in scores),
        trips=tuple(player["trips"] for player in scores),
        is_over=view["phase"] == "over",
        log=tuple(_log_entry(item, seat, pieces, index_of, arrangement, rng) for item in view["log"]),
    )


def _log_entry(
    item: dict[str, Any],
    seat: int | None,
    pieces: list[Piece],
    index_of: dict[str, int],
    arrangement: int,
    rng: random.Random,
) -> LogEntry:
    facts = {key: value for key, value in item.items() if key not in ("event", "seat", "text")}
    if item["event"] != "touch":
        return entry(item["event"], item["seat"], item["text"], facts)
    toucher = item["seat"]
    if toucher == seat:
        gauge_value, word = facts["gauge"], facts["feel"]
    else:
        # Someone else's reading: what the sampled piece reads if it is the same
        # arrangement, otherwise a reading of a load drawn from the prior.
        piece = pieces[index_of[facts["piece"]]]
        if facts["arrangement"] == arrangement and piece.where == IN_TRAY:
            gauge_value = physics.gauge(piece.load, piece.noise)
        else:
            gauge_value = physics.gauge(_prior_load(rng), _normal(rng))
        word = physics.feel(gauge_value)
    return touch_entry(toucher, facts["piece"], facts["size"], facts["arrangement"], gauge_value, word)


def _normal(rng: random.Random) -> float:
    return round(rng.gauss(0.0, 1.0), LOAD_DECIMALS)


def _prior_load(rng: random.Random) -> float:
    if rng.random() < LOOSE_SHARE:
        return 0.0
    return round(rng.uniform(*LOADED_RANGE), LOAD_DECIMALS)


def _posterior(gauge_value: int, rng: random.Random) -> tuple[float, float]:
    """A (load, noise) pair drawn given that a touch read ``gauge_value``.

    Rejection sampling: a load from the prior is kept with the probability that
    it reads ``gauge_value``; the noise is then drawn from the normal truncated to
    the readings that show that gauge.
    """
    scale = PHYSICS.gauge_full_scale / 10
    low = -float("inf") if gauge_value == 0 else (gauge_value - 0.5) * scale
    high = float("inf") if gauge_value == 10 else (gauge_value + 0.5) * scale
    for _ in range(_TRIES):
        load = _prior_load(rng)
        z_low = _NORMAL.cdf((low - load) / PHYSICS.reading_noise) if low > -float("inf") else 0.0
        z_high = _NORMAL.cdf((high - load) / PHYSICS.reading_noise) if high < float("inf") else 1.0
        if rng.random() >= z_high - z_low:
            continue
        uniform = z_low + rng.random() * (z_high - z_low)
        uniform = min(max(uniform, 1e-12), 1.0 - 1e-12)
        noise = round(_NORMAL.inv_cdf(uniform), LOAD_DECIMALS)
        if physics.gauge(load, noise) == gauge_value:  # rounding can cross an edge
            return load, noise
    # Unreachable in practice; a load that reads the gauge exactly with no noise.
    return round(gauge_value * scale, LOAD_DECIMALS), 0.0
