"""``ItsABomb``: the game object the registry lists (see docs/games/its-a-bomb.md)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.engine.actions import ActionSchemas, ChoiceField, IntField
from games.engine.base import Game
from games.engine.its_a_bomb import rules
from games.engine.its_a_bomb.board import team_score
from games.engine.its_a_bomb.sample import sample
from games.engine.its_a_bomb.scenarios import (
    ALL_CONSULTANTS,
    DEFAULT_SCENARIO,
    MAX_COLUMNS,
    MAX_GRIDS,
    MAX_ROWS,
    SCENARIO_SLUGS,
)
from games.engine.its_a_bomb.state import LINE_KINDS, State
from games.engine.its_a_bomb.view import reveal, view
from games.engine.options import Option, OptionValue, choice_option
from games.engine.rng import RngState

_GRID = IntField(0, MAX_GRIDS - 1)
_ROW = IntField(0, MAX_ROWS - 1)
_COLUMN = IntField(0, MAX_COLUMNS - 1)
_LINE = ChoiceField(LINE_KINDS)
_INDEX = IntField(0, max(MAX_ROWS, MAX_COLUMNS) - 1)
_CONSULTANT = ChoiceField(ALL_CONSULTANTS)


class ItsABomb(Game[State]):
    slug = "its-a-bomb"
    name = "It's a Bomb!"
    min_players = 2
    max_players = 6
    is_cooperative = True
    is_rated = False
    state_type = State
    options: ClassVar[tuple[Option, ...]] = (
        choice_option(
            "scenario",
            "Scenario",
            DEFAULT_SCENARIO,
            SCENARIO_SLUGS,
            help="Which bomb to defuse: the grid, the tiles, the time, the special cards and the "
            "Crisis Unit's Consultants. Training is the place to start.",
        ),
    )
    action_schemas: ClassVar[ActionSchemas] = {
        # The active employee.
        "ask": {"grid": _GRID, "line": _LINE, "index": _INDEX},
        "cut": {"grid": _GRID, "row": _ROW, "column": _COLUMN},
        # The Crisis Unit, at a moment when it owes a decision.
        "use": {"consultant": _CONSULTANT},
        "use_on_line": {"consultant": _CONSULTANT, "grid": _GRID, "line": _LINE, "index": _INDEX},
        "use_on_tile": {"consultant": _CONSULTANT, "grid": _GRID, "row": _ROW, "column": _COLUMN},
        "pass": {},
        "standing_pass": {"consultant": _CONSULTANT},
    }

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> State:
        return rules.setup(players, rng_state, str(options["scenario"]))

    def players(self, state: State) -> int:
        return state.players

    def to_act(self, state: State) -> list[int]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def play(self, state: State, seat: int, kind: str, fields: dict[str, Any]) -> State:
        return rules.play(state, seat, kind, fields)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        return reveal(state)

    def result(self, state: State) -> dict[str, Any] | None:
        if not state.outcome:
            return None
        won = state.outcome == "won"
        # Cooperative: every seat shares the team score and the rank.
        score = team_score(state) if won else 0
        return {"won": won, "scores": [score] * state.players, "ranks": [1] * state.players}

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> State:
        return sample(view, seat, rng)
