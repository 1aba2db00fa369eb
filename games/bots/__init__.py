"""Bot strategies: pure functions of a seat's view (no Django, no true state).

``choose_action(game, view, seat, level, rng)`` is the one entry point (its name is
binding, see ../shared/design/engine-contract.md). A bot never sees the state: it
re-deals the hidden parts with ``game.sample`` and reads its legal actions there.
Those are the same in every state the view allows, since a seat's options depend
only on what it knows (tests/games/boards checks this for every game).

Levels:
- ``random``: a legal action at random;
- ``basic``: the game's own rules of thumb (``games/bots/<game>.py``, ``basic``);
- ``expert``: information-set Monte Carlo tree search over sampled states
  (``games/bots/search.py``), with the game's ``rollout`` policy in its playouts.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Game

LEVELS = ("random", "basic", "expert")
# The levels a match can seat: a level is offered once it plays every game.
AVAILABLE_LEVELS: tuple[str, ...] = LEVELS


class UnknownLevel(ValueError):
    pass


def levels_for(game: Game[Any]) -> tuple[str, ...]:
    """The levels that play ``game``: the random bot plays any game; basic and expert
    need the game's own bot module (``games/bots/<module_name>.py``)."""
    from games.bots import strategies

    if strategies.has_module(game):
        return AVAILABLE_LEVELS
    return tuple(level for level in AVAILABLE_LEVELS if level == "random")


def legal_actions_from_view(
    game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random
) -> list[dict[str, Any]]:
    return game.legal_actions(game.sample(view, seat, rng), seat)


def choose_action(
    game: Game[Any], view: dict[str, Any], seat: int, level: str, rng: random.Random
) -> dict[str, Any]:
    if level not in LEVELS:
        raise UnknownLevel(f"No bot plays at level {level!r}.")
    if level == "random":
        actions = legal_actions_from_view(game, view, seat, rng)
        if not actions:
            raise ValueError(f"Seat {seat} has no legal action in this view.")
        return rng.choice(actions)
    from games.bots import strategies

    if level == "basic":
        return strategies.for_game(game).basic(game, view, seat, rng)
    from games.bots import search

    return search.choose(game, view, seat, rng)
