"""What a game declares about itself, and the shape of its states."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from games.engine import Game
from games.engine.actions import ChoiceField, IntField, TokenField
from games.engine.options import Option
from tests.engine.conformance.common import SLUG, SNAKE_CASE, is_json_ready


def check_declared_facts(game: Game[Any]) -> None:
    assert isinstance(game.slug, str), f"slug {game.slug!r}"
    assert SLUG.fullmatch(game.slug), f"slug {game.slug!r} is not kebab-case"
    assert isinstance(game.name, str), f"{game.slug}: name {game.name!r}"
    assert game.name.strip(), f"{game.slug}: the name is blank"
    assert type(game.min_players) is int, f"{game.slug}: min_players {game.min_players!r}"
    assert type(game.max_players) is int, f"{game.slug}: max_players {game.max_players!r}"
    assert 1 <= game.min_players <= game.max_players, f"{game.slug}: {game.min_players}..{game.max_players}"
    assert type(game.is_cooperative) is bool, f"{game.slug}: is_cooperative {game.is_cooperative!r}"
    assert type(game.is_rated) is bool, f"{game.slug}: is_rated {game.is_rated!r}"
    assert not (game.is_cooperative and game.is_rated), f"{game.slug}: a cooperative game cannot be rated"
    assert game.is_solitaire_capable == (game.min_players == 1), f"{game.slug}: solitaire vs min_players"
    assert isinstance(game.options, tuple), f"{game.slug}: options must be a tuple"
    assert all(isinstance(option, Option) for option in game.options), f"{game.slug}: options must be Options"
    names = [option.name for option in game.options]
    assert len(set(names)) == len(names), f"{game.slug}: options repeat a name: {names}"
    for option in game.options:
        assert option.parse(option.default) == option.default, (
            f"{game.slug}: option {option.name} default refused"
        )
        assert is_json_ready(option.as_data()), (
            f"{game.slug}: option {option.name} as_data() is not JSON-ready"
        )
        if option.kind == "int":
            bounds = (option.minimum, option.maximum)
            assert None not in bounds, f"{game.slug}: int option {option.name} needs both bounds for the form"
    for kind, schema in game.action_schemas.items():
        assert isinstance(kind, str), f"{game.slug}: action type {kind!r}"
        assert SNAKE_CASE.fullmatch(kind), f"{game.slug}: action type {kind!r} is not snake_case"
        assert "type" not in schema, f"{game.slug}: action {kind} declares a field named 'type'"
        for name, field in schema.items():
            assert isinstance(name, str), f"{game.slug}: action {kind} has a field named {name!r}"
            assert isinstance(field, IntField | ChoiceField | TokenField), (
                f"{game.slug}: {kind}.{name} is {field!r}"
            )
    state_type = game.state_type
    assert dataclasses.is_dataclass(state_type), f"{game.slug}: state_type is not a dataclass"
    assert state_type.__dataclass_params__.frozen, f"{game.slug}: {state_type.__name__} is not frozen"  # type: ignore[attr-defined]
    assert hasattr(state_type, "__slots__"), f"{game.slug}: {state_type.__name__} is not slots=True"
    problems = mutable_parts(state_type)
    assert not problems, (
        f"{game.slug}: a state may hold only frozen dataclasses, tuples and scalars: {problems}"
    )


def mutable_parts(hint: Any, path: str = "state", seen: set[type] | None = None) -> list[str]:
    """Where a state type's hints allow something other than frozen dataclasses,
    tuples, scalars and None (checked once per type, not per state)."""
    seen = set() if seen is None else seen
    if hint in (type(None), bool, int, float, str, Any):
        return []
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) or origin is tuple:
        return [
            problem
            for index, argument in enumerate(arguments)
            if argument is not Ellipsis
            for problem in mutable_parts(argument, f"{path}[{index}]" if origin is tuple else path, seen)
        ]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in seen:
            return []
        seen.add(hint)
        if not hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{path} ({hint.__name__}) is not frozen"]
        hints = typing.get_type_hints(hint)
        return [
            problem
            for field in dataclasses.fields(hint)
            for problem in mutable_parts(hints[field.name], f"{path}.{field.name}", seen)
        ]
    return [f"{path} is {hint!r}"]


def check_state_is_immutable_data(game: Game[Any], state: Any, label: str) -> None:
    """A state holds only frozen dataclasses, tuples and scalars (no dicts, lists or sets)."""

    def walk(value: Any, path: str) -> None:
        if value is None or isinstance(value, bool | int | float | str):
            return
        if isinstance(value, tuple):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
            return
        is_instance = dataclasses.is_dataclass(value) and not isinstance(value, type)
        assert is_instance, f"{label}: {path} is a {type(value).__name__}, which a state may not hold"
        is_frozen = type(value).__dataclass_params__.frozen
        assert is_frozen, f"{label}: {path} ({type(value).__name__}) is not frozen"
        for field in dataclasses.fields(value):
            walk(getattr(value, field.name), f"{path}.{field.name}")

    assert type(state) is game.state_type, (
        f"{label}: a {type(state).__name__}, not a {game.state_type.__name__}"
    )
    walk(state, "state")
