"""Shared helpers for board tests: states from random play, boards rendered as the page does."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from typing import Any

from games.boards import Board, build_board, render_board
from games.engine import Game

_DATA_ACTION = re.compile(r'<button[^>]*\bdata-action="([^"]*)"')
_ACTION_ID = re.compile(r'name="action_id" value="[0-9a-f-]+"')


def names_for(players: int) -> list[str]:
    return [f"Player{seat + 1}" for seat in range(players)]


def random_states(
    game: Game[Any], players: int, seed: int, *, steps: int = 400, options: dict[str, Any] | None = None
) -> Iterator[Any]:
    """Every state of one random legal playout (the first state included)."""
    rng = random.Random(seed)
    state = game.new(players, seed, options)
    yield state
    for _ in range(steps):
        waiting = game.to_act(state)
        if not waiting:
            return
        seat = rng.choice(waiting)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        yield state


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
