"""Which module holds a game's bot strategy.

Every game has its own module, ``games/bots/<game.module_name>.py`` (found by that
name: adding a game edits no list here), exposing:

- ``basic(game, view, seat, rng) -> dict``: the game's rules of thumb, from the view;
- ``rollout(game, state, seat, rng) -> dict``: a fast policy for search playouts,
  on a full (sampled) state;
- optionally ``evaluate(game, state, seat) -> float`` in [0, 1]: how good an
  unfinished state is for ``seat``, so search can stop a playout early;
- optionally ``expert_prior(game, view, seat, rng) -> dict``: the expert's first
  choice at the root of its search, where the game has a better one than ``basic``
  (see ``games/bots/search.py``);
- optionally ``ROLLOUT_DEPTH: int``: how many actions a playout runs before
  ``evaluate`` is asked, and ``DECISIVE_Z: float``: how clear the search tree's own
  evidence must be to leave basic's move without a duel (see ``games/bots/search.py``).

Modules are imported on first use: ``games.bots`` then loads only the games a
worker actually plays, and a game whose module is missing fails alone, clearly.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from games.engine import Game

PACKAGE = "games.bots"


class NoStrategy(LookupError):
    """The game has no bot module (yet)."""


def module_path(game: Game[Any]) -> str:
    return f"{PACKAGE}.{game.module_name}"


def has_module(game: Game[Any]) -> bool:
    return importlib.util.find_spec(module_path(game)) is not None


def for_game(game: Game[Any]) -> ModuleType:
    path = module_path(game)
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        # Only the strategy module itself being absent means "no strategy"; a
        # module that exists but imports something missing is a bug to surface.
        if error.name != path:
            raise
        raise NoStrategy(f"The bot strategy for {game.slug!r} ({path}) does not exist.") from None
