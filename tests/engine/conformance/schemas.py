"""Views and actions against each game's published JSON Schemas (games.engine.schemas).

The schemas are the API's documentation of every game's view; checking every view of
every seat and every legal action along the suite's playouts keeps them true.
"""

from __future__ import annotations

import hashlib
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
    """A game's validators, one per top-level key of the view, one per log entry, one
    for an action; and the view's keys, required and allowed.

    The view's schema is a closed object of named keys, so a view matches it exactly
    when its keys are the right ones and each value matches its key's schema: each is
    checked on its own, and a value met before (the scenario, another seat's equal hand,
    a step that changed nothing there) is not checked again. The log is a list whose
    entries are checked one by one (``items``), so each distinct entry is checked once,
    and a playout's views repeat most of them over and over."""

    def __init__(self, slug: str) -> None:
        schema = view_schema(slug)
        Draft202012Validator.check_schema(schema)
        assert set(schema) <= _TOP_LEVEL_KEYWORDS, (
            f"{slug}: the view's schema has {set(schema) - _TOP_LEVEL_KEYWORDS}"
        )
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        defs = schema["$defs"]
        log = schema["properties"]["log"]
        assert set(log) <= {"type", "description", "items"}, f"{slug}: the log's schema is not a plain list"
        self.required = set(schema["required"])
        self.values = {
            key: Draft202012Validator({"$defs": defs, **part}) for key, part in schema["properties"].items()
        }
        self.entry = Draft202012Validator({"$defs": defs, **log["items"]})
        actions = action_schema(slug)
        Draft202012Validator.check_schema(actions)
        self.action = Draft202012Validator(actions)
        self.seen: set[tuple[str, bytes]] = set()  # (key, digest of the value as JSON) found valid

    def check_view(self, shown: dict[str, Any], label: str) -> None:
        assert self.required <= shown.keys() <= self.values.keys(), (
            f"{label} does not match the published schema: missing {sorted(self.required - shown.keys())}, "
            f"not in it {sorted(shown.keys() - self.values.keys())}"
        )
        for key, value in shown.items():
            parts = value if key == "log" and isinstance(value, list) else None
            if parts is None:
                self._check(key, self.values[key], value, f"{label}, its {key}")
                continue
            self._check(key, self.values[key], [], f"{label}, its {key}")
            for item in parts:
                self._check("log[]", self.entry, item, f"{label}, the log entry")

    def _check(self, key: str, validator: Draft202012Validator, value: Any, label: str) -> None:
        text = json.dumps(value, sort_keys=True)
        digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        if (key, digest) in self.seen:
            return
        _assert_valid(validator, value, f"{label} {text[:200]}")
        self.seen.add((key, digest))


_TOP_LEVEL_KEYWORDS = {
    "$schema", "title", "description", "type", "properties", "required", "additionalProperties", "$defs",
}  # fmt: skip


@cache
def validators(slug: str) -> Validators:
    return Validators(slug)


def check_views_and_actions_match_schemas(playout: Playout, steps: list[int]) -> None:
    game = playout.game
    if not has_published_schemas(game):
        return
    checks = validators(game.slug)
    for step in steps:
        state = playout.states[step]
        label = playout.describe(step)
        waiting = game.to_act(state)
        for viewer in seats_and_spectator(game.players(state)):
            checks.check_view(game.view(state, viewer), f"{label}: view({viewer})")
            if viewer in waiting:
                for action in game.legal_actions(state, viewer):
                    _assert_valid(checks.action, action, f"{label}: seat {viewer}'s legal action")


def _assert_valid(validator: Draft202012Validator, instance: Any, label: str) -> None:
    error = best_match(validator.iter_errors(instance))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise AssertionError(f"{label} does not match the published schema at {where}: {error.message[:400]}")
