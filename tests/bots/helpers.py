"""Shared pieces of the bot tests: canonical action keys and the states of a random game."""

from __future__ import annotations

import json
import random
from typing import Any, TypeVar

from games.engine import Game

S = TypeVar("S")


def key(action: dict[str, Any]) -> str:
    """An action as canonical text, for comparing sets of actions."""
    return json.dumps(action, sort_keys=True)


def random_game_states(
    game: Game[S], players: int, seed: int, options: dict[str, Any] | None = None
) -> list[S]:
    """Every state of one seeded random game (the first waiting seat acts each time)."""
    rng = random.Random(seed)
    state = game.new(players, seed, options)
    seen = [state]
    while game.to_act(state):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        seen.append(state)
    return seen
