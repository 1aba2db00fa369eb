"""Checking the shape of an action before a game looks at its meaning.

Every game declares, per action type, the fields it takes and what each may hold.
``parse_action`` turns any input at all (a dict from a WebSocket, junk from a fuzzer)
into ``(type, fields)`` or raises ``IllegalAction``; the game then checks what the
values mean in the current state. The same declarations document the API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class IntField:
    minimum: int
    maximum: int

    def parse(self, name: str, value: object) -> int:
        # bool is an int subclass in Python; true is not a seat or a position.
        if type(value) is not int:
            raise IllegalAction("bad_field", f"The field {name!r} must be a whole number.")
        if not self.minimum <= value <= self.maximum:
            raise IllegalAction(
                "out_of_range",
                f"The field {name!r} must be between {self.minimum} and {self.maximum}.",
            )
        return value


@dataclass(frozen=True, slots=True)
class ChoiceField:
    choices: tuple[str, ...]

    def parse(self, name: str, value: object) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise IllegalAction("bad_field", f"The field {name!r} must be one of: {', '.join(self.choices)}.")
        return value


@dataclass(frozen=True, slots=True)
class TokenField:
    """An opaque id such as a card or box id (checked against the state by the game)."""

    max_length: int = 32

    def parse(self, name: str, value: object) -> str:
        if not isinstance(value, str) or not 0 < len(value) <= self.max_length:
            raise IllegalAction("bad_field", f"The field {name!r} must be an id.")
        return value


Field = IntField | ChoiceField | TokenField
ActionSchemas = Mapping[str, Mapping[str, Field]]


def parse_action(action: object, schemas: ActionSchemas) -> tuple[str, dict[str, Any]]:
    if not isinstance(action, Mapping):
        raise IllegalAction("malformed_action", "An action must be a JSON object.")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("malformed_action", 'An action needs a "type".')
    schema = schemas.get(kind)
    if schema is None:
        raise IllegalAction("unknown_action", f"There is no action {kind[:40]!r} in this game.")
    extra = [str(key)[:40] for key in action if key != "type" and key not in schema]
    if extra:
        raise IllegalAction("unexpected_field", f"The action {kind!r} takes no field {', '.join(extra)}.")
    fields: dict[str, Any] = {}
    for name, field in schema.items():
        if name not in action:
            raise IllegalAction("missing_field", f"The action {kind!r} needs the field {name!r}.")
        fields[name] = field.parse(name, action[name])
    return kind, fields


def describe_schemas(schemas: ActionSchemas) -> dict[str, dict[str, str]]:
    """A readable summary of every action's fields, for docs and API clients."""
    described: dict[str, dict[str, str]] = {}
    for kind, schema in schemas.items():
        described[kind] = {}
        for name, field in schema.items():
            if isinstance(field, IntField):
                described[kind][name] = f"int {field.minimum}..{field.maximum}"
            elif isinstance(field, ChoiceField):
                described[kind][name] = " | ".join(field.choices)
            else:
                described[kind][name] = "id"
    return described
