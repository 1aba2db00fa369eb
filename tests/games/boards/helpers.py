"""Shared helpers for board tests: states from random play, boards rendered as the page does."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

from games.boards import Board, build_board, render_board
from games.engine import Game
from tests.engine.playouts import random_game

_DATA_ACTION = re.compile(r'<button[^>]*\bdata-action="([^"]*)"')
_ACTION_ID = re.compile(r'name="action_id" value="[0-9a-f-]+"')


def names_for(players: int) -> list[str]:
    return [f"Player{seat + 1}" for seat in range(players)]


def random_states(
    game: Game[Any], players: int, seed: int, *, steps: int = 400, options: dict[str, Any] | None = None
) -> tuple[Any, ...]:
    """Every state of one random legal playout (the first state included), at most
    ``steps`` moves long: ``tests/engine/playouts.py``'s ``random_game``."""
    return random_game(game, players, seed, options, stop_after=steps).states


def find_state(
    game: Game[Any],
    players: int,
    wanted: Callable[[Any], bool],
    *,
    seeds: range = range(1, 60),
    steps: int = 3000,
    options: dict[str, Any] | None = None,
) -> Any:
    """The first state of random legal playouts (seed by seed) for which ``wanted`` holds."""
    for seed in seeds:
        for state in random_states(game, players, seed, steps=steps, options=options):
            if wanted(state):
                return state
    raise AssertionError("no random playout reached the wanted state")


def final_state(game: Game[Any], players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
    """The last state of a random legal playout, which must be the end of the game."""
    state = random_states(game, players, seed, steps=20_000, options=options)[-1]
    assert game.result(state) is not None
    return state


def board_of(game: Game[Any], state: Any, seat: int | None, ply: int = 0) -> Board:
    return build_board(game, state, seat, names_for(game.players(state)), ply)


def board_html(game: Game[Any], state: Any, seat: int | None, ply: int = 0) -> str:
    return render_board(board_of(game, state, seat, ply), {"match_id": 1, "csrf_token": "t"})


def buttons(page: str) -> list[dict[str, Any]]:
    """The actions of every action button on a rendered board, in page order."""
    return [json.loads(html.unescape(raw)) for raw in _DATA_ACTION.findall(page)]


def without_action_ids(page: str) -> str:
    """A rendered board with its per-rendering action ids blanked, for comparisons."""
    return _ACTION_ID.sub('name="action_id" value=""', page)
