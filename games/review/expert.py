"""The expert's opinion of one decision: what it would play from the player's view then.

It is the site's expert bot (``games/bots/search.py``: information-set MCTS from the
seat's view only, guided by the game's own policy, leaving it only when a duel says so),
with one difference: its budget is a fixed number of playouts rather than the bots'
one second. ``choose_action(..., "expert", rng)`` takes no budget and spends one second
of wall clock, so its answer would depend on the machine's load; with a playout count
and a generator seeded by the match and the ply, an opinion is the same every time it
is worked out, so a review's two runs write the same rows and a test can check one.
"""

from __future__ import annotations

import random
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


def opinion(
    game: Game[Any], view: dict[str, Any], seat: int, *, match_id: int, ply: int, iterations: int
) -> search.SearchResult:
    """The expert's choice for ``seat`` from ``view`` (the seat's own view: nothing it could
    not see), its re-deals drawn from a generator seeded by the match and the ply. The
    re-deals are a bot's, not the match's secret deal, so they may be reproducible."""
    rng = random.Random(f"review:{match_id}:{ply}")
    return search.search(game, view, seat, rng, max_iterations=iterations)


def action_key(action: dict[str, Any]) -> str:
    """The canonical JSON of an action: two actions agree when their keys are equal."""
    return search.action_key(action)
