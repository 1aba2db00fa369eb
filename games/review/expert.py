"""The expert's opinion of one decision: what it would play from the player's view then,
and what the decision cost by its estimate.

It is the site's expert bot (``games/bots/search.py``: information-set MCTS from the
seat's view only, guided by the game's own policy, leaving it only when a duel says so),
with one difference: its budget is a fixed number of playouts rather than the bots'
one second. ``choose_action(..., "expert", rng)`` takes no budget and spends one second
of wall clock, so its answer would depend on the machine's load; with a playout count
and a generator seeded by the match and the ply, an opinion is the same every time it
is worked out, so a review's two runs write the same rows and a test can check one.

The cost (``appraisal``) is not read from the search's tree: there the played action
may have had a handful of visits, and every visit's value depends on what the tree
tried after it. Instead both actions are played out afresh on the same re-deals with
the same luck (``search.appraise``: common random numbers), ``APPRAISAL_ROUNDS`` each,
from a generator of their own seeded by the match and the ply: a fair estimate of each,
and a difference from which the deal's luck has cancelled out.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from games.bots import search
from games.engine import Game

# The budgets the expert's strength is measured at in bench/README.md ("Bots"): 300 playouts
# in every game but Booby-Trap, whose physics allows about 40 a second. On the 2-core
# machine, shared, that is 0.2 to 1.5 s a decision (Booby-Trap 1.5 to 4.5 s).
ITERATIONS = 300
ITERATIONS_BY_GAME = {"booby-trap": 40}


def iterations_for(game_slug: str) -> int:
    return ITERATIONS_BY_GAME.get(game_slug, ITERATIONS)


def appraisal_rounds(iterations: int) -> int:
    """Re-deals the appraisal plays each action on: a third of the search's budget
    (100 at the site's 300 playouts, 13 in Booby-Trap), at least 8. Measured in
    docs/site.md ("Post-game review", "How sure a grade is")."""
    return max(8, iterations // 3)


def opinion(
    game: Game[Any], view: dict[str, Any], seat: int, *, match_id: int, ply: int, iterations: int
) -> search.SearchResult:
    """The expert's choice for ``seat`` from ``view`` (the seat's own view: nothing it could
    not see), its re-deals drawn from a generator seeded by the match and the ply. The
    re-deals are a bot's, not the match's secret deal, so they may be reproducible."""
    rng = random.Random(f"review:{match_id}:{ply}")
    return search.search(game, view, seat, rng, max_iterations=iterations)


@dataclass(frozen=True)
class Appraisal:
    """The expert's estimate of the seat's worth (``search.reward``: 1 a win or sole
    first place, 0 a loss or sole last, linear between) after its own action and after
    the one played, and the standard error of their difference."""

    best: float
    played: float
    error: float
    rounds: int
    playouts: int


def appraisal(
    game: Game[Any],
    view: dict[str, Any],
    seat: int,
    *,
    best: dict[str, Any],
    played: dict[str, Any],
    match_id: int,
    ply: int,
    rounds: int,
) -> Appraisal:
    """What ``best`` (the expert's action) and ``played`` are worth to ``seat`` from
    ``view``, by ``rounds`` paired playouts each (one action's only, when they agree)."""
    rng = random.Random(f"review:{match_id}:{ply}:appraisal")
    if action_key(best) == action_key(played):
        (values,) = search.appraise(game, view, seat, [best], rng, rounds=rounds)
        mean = math.fsum(values) / rounds
        return Appraisal(best=mean, played=mean, error=0.0, rounds=rounds, playouts=rounds)
    with_best, with_played = search.appraise(game, view, seat, [best, played], rng, rounds=rounds)
    differences = [first - second for first, second in zip(with_best, with_played, strict=True)]
    mean = math.fsum(differences) / rounds
    variance = math.fsum((difference - mean) ** 2 for difference in differences) / max(1, rounds - 1)
    return Appraisal(
        best=math.fsum(with_best) / rounds,
        played=math.fsum(with_played) / rounds,
        error=math.sqrt(variance / rounds),
        rounds=rounds,
        playouts=2 * rounds,
    )


def action_key(action: dict[str, Any]) -> str:
    """The canonical JSON of an action: two actions agree when their keys are equal."""
    return search.action_key(action)
