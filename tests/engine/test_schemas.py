"""The published JSON Schemas of views and actions (games.engine.schemas): valid draft
2020-12 schemas for every registered game, closed, described, and strict enough to
refuse what the engine never sends. That every real view matches them is checked
along the conformance suite's playouts (conformance/schemas.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from games.engine import Game, IllegalAction, all_games
from games.engine.schemas import action_schema, view_schema
from tests.engine.playouts import random_game

every_game = pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)


@every_game
def test_every_game_publishes_valid_draft_2020_12_schemas(game: Game[Any]) -> None:
    for schema in (view_schema(game.slug), action_schema(game.slug)):
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)
        assert schema["title"].startswith(game.name)


@every_game
def test_every_object_is_closed_and_every_field_described(game: Game[Any]) -> None:
    """Closed where the view is: a key the schema does not name is refused. Every
    property says what it means (the API's per-game pages print these)."""
    undescribed: list[str] = []
    open_objects: list[str] = []

    def described(part: Any, defs: dict[str, Any]) -> bool:
        if not isinstance(part, dict):
            return False
        if part.get("description"):
            return True
        # A bare reference reads as what it names ("card": "A card seen face up.").
        return "$ref" in part and bool(defs[part["$ref"].removeprefix("#/$defs/")].get("description"))

    def walk(schema: Any, path: str) -> None:
        if isinstance(schema, dict):
            if schema.get("type") == "object" and "properties" in schema:
                if schema.get("additionalProperties") is not False:
                    open_objects.append(path)
                for name, part in schema["properties"].items():
                    if not described(part, defs):
                        undescribed.append(f"{path}.{name}")
            for key, part in schema.items():
                walk(part, f"{path}/{key}")
        elif isinstance(schema, list):
            for index, part in enumerate(schema):
                walk(part, f"{path}[{index}]")

    for schema in (view_schema(game.slug), action_schema(game.slug)):
        defs = schema["$defs"]
        walk(schema, "")
    assert not undescribed, f"{game.slug}: fields without a description: {undescribed}"
    # The log entries' dispatcher names only `event`: each event's own schema is closed.
    assert all(path.endswith("items") for path in open_objects), f"{game.slug}: open objects: {open_objects}"


def _a_view_with_a_log(game: Game[Any]) -> tuple[dict[str, Any], Draft202012Validator]:
    played = random_game(game, game.min_players if game.min_players > 1 else 2, 7, stop_after=6)
    shown = game.view(played.final, 0)
    validator = Draft202012Validator(view_schema(game.slug))
    assert validator.is_valid(shown)
    assert shown["log"], "the log has entries"
    return shown, validator


@every_game
def test_a_view_with_a_made_up_key_or_a_wrong_type_is_refused(game: Game[Any]) -> None:
    shown, validator = _a_view_with_a_log(game)

    made_up = {**copy.deepcopy(shown), "secret_deck": []}
    assert not validator.is_valid(made_up)

    wrong_type = copy.deepcopy(shown)
    wrong_type["players"] = str(wrong_type["players"])
    assert not validator.is_valid(wrong_type)

    unknown_phase = copy.deepcopy(shown)
    unknown_phase["game"] = "another-game"
    assert not validator.is_valid(unknown_phase)

    missing = copy.deepcopy(shown)
    del missing["seat"]
    assert not validator.is_valid(missing)

    entry_with_a_made_up_fact = copy.deepcopy(shown)
    entry_with_a_made_up_fact["log"][-1]["hidden_card"] = 7
    assert not validator.is_valid(entry_with_a_made_up_fact)

    unknown_event = copy.deepcopy(shown)
    unknown_event["log"][-1]["event"] = "teleported"
    assert not validator.is_valid(unknown_event)


@every_game
def test_actions_outside_the_schema_are_refused_by_the_schema_and_the_engine(game: Game[Any]) -> None:
    """The action schema is built from the fields the engine checks, so it refuses what
    ``apply`` refuses for its shape: an unknown type, a made-up field, a missing one."""
    validator = Draft202012Validator(action_schema(game.slug))
    state = game.new(max(game.min_players, 2), 3)
    seat = game.to_act(state)[0]
    action = game.legal_actions(state, seat)[0]
    assert validator.is_valid(action)
    for bad in (
        {"type": "teleport"},
        {**action, "extra": 1},
        {key: value for key, value in action.items() if key != "type"},
    ):
        assert not validator.is_valid(bad), bad
        with pytest.raises(IllegalAction):
            game.apply(state, seat, bad)


def test_an_unknown_slug_is_no_such_game() -> None:
    with pytest.raises(IllegalAction) as refused:
        view_schema("chess")
    assert refused.value.code == "no_such_game"


def test_callers_get_copies() -> None:
    first = view_schema("go-fox")
    first["title"] = "changed"
    assert view_schema("go-fox")["title"] != "changed"
