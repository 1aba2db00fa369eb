"""Views and actions against each game's published JSON Schemas (games.engine.schemas).

The schemas are the API's documentation of every game's view; checking every view of
every seat and every legal action along the suite's playouts keeps them true.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from games.engine import Game, all_games
from games.engine.schemas import action_schema, has_schemas, view_schema
from tests.engine.playouts import Playout, seats_and_spectator


def has_published_schemas(game: Game[Any]) -> bool:
    """Every registered game must have them; a game still outside the registry (the toy
    game, ENGINE_CONFORMANCE_EXTRA) may not yet."""
    registered = any(known is game for known in all_games())
    assert has_schemas(game.slug) or not registered, (
        f"{game.slug} has no schemas: add games/engine/{game.module_name}/schema.py "
        "and its line in games/engine/schemas.py"
    )
    return has_schemas(game.slug)


class Validators:
    """A game's validators: the view without its log, one log entry, one action.

    A view's log is a list whose entries are checked one by one (``items``), so
    checking each distinct entry once is checking every view's log, and the entries
    of a playout's views are mostly the same ones, over and over."""

    def __init__(self, slug: str) -> None:
        schema = view_schema(slug)
        Draft202012Validator.check_schema(schema)
        log = schema["properties"]["log"]
        assert set(log) <= {"type", "description", "items"}, f"{slug}: the log's schema is not a plain list"
        self.view = Draft202012Validator(schema)
        self.entry = Draft202012Validator({"$defs": schema["$defs"], **log["items"]})
        actions = action_schema(slug)
        Draft202012Validator.check_schema(actions)
        self.action = Draft202012Validator(actions)


@cache
def validators(slug: str) -> Validators:
    return Validators(slug)


def check_views_and_actions_match_schemas(playout: Playout, steps: list[int]) -> None:
    game = playout.game
    if not has_published_schemas(game):
        return
    checks = validators(game.slug)
    entries_seen: set[str] = set()
    for step in steps:
        state = playout.states[step]
        label = playout.describe(step)
        waiting = game.to_act(state)
        for viewer in seats_and_spectator(game.players(state)):
            shown = game.view(state, viewer)
            log = shown.get("log")
            if isinstance(log, list):
                shown["log"] = []
            _assert_valid(checks.view, shown, f"{label}: view({viewer})")
            for item in log if isinstance(log, list) else []:
                text = json.dumps(item, sort_keys=True)
                if text not in entries_seen:
                    entries_seen.add(text)
                    _assert_valid(checks.entry, item, f"{label}: view({viewer}), the log entry {text[:200]}")
            if viewer in waiting:
                for action in game.legal_actions(state, viewer):
                    _assert_valid(checks.action, action, f"{label}: seat {viewer}'s legal action")


def _assert_valid(validator: Draft202012Validator, instance: Any, label: str) -> None:
    error = best_match(validator.iter_errors(instance))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise AssertionError(f"{label} does not match the published schema at {where}: {error.message[:400]}")
