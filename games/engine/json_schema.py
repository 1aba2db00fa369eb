"""Small builders for the JSON Schemas (draft 2020-12) of views and actions.

Each game describes its view in ``games/engine/<game>/schema.py`` with these, as
plain data: what a program gets as ``view`` and may send as an action, with a
description of every field written for the people who write bots (the API's
per-game pages are generated from them). The conformance suite validates every
view and legal action of its random playouts against them, so they cannot drift
from the engine. ``games.engine.schemas`` looks them up by slug.

Objects are closed (``additionalProperties: false``) unless a builder says
otherwise: a key the schema does not name is a key the engine must not send.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine.actions import ActionSchemas, ChoiceField, IntField, TokenField

Schema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# An opaque id in a view: 8 hex digits drawn from the secret seed (a card, a box, a piece).
ID_PATTERN = "^[0-9a-f]{8}$"


def obj(
    description: str,
    properties: Mapping[str, Schema],
    *,
    optional: Iterable[str] = (),
) -> Schema:
    """A closed object: every property required except those named ``optional``."""
    left_out = set(optional)
    unknown = left_out - set(properties)
    assert not unknown, f"optional names no property: {sorted(unknown)}"
    return {
        "type": "object",
        "description": description,
        "properties": dict(properties),
        "required": [name for name in properties if name not in left_out],
        "additionalProperties": False,
    }


def map_of(description: str, values: Schema, *, keys: str = ID_PATTERN) -> Schema:
    """An object used as a map: keys matching ``keys``, each value ``values``."""
    return {
        "type": "object",
        "description": description,
        "propertyNames": {"pattern": keys},
        "additionalProperties": values,
    }


def integer(description: str, minimum: int | None = None, maximum: int | None = None) -> Schema:
    schema: Schema = {"type": "integer", "description": description}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def number(description: str, minimum: float | None = None) -> Schema:
    schema: Schema = {"type": "number", "description": description}
    if minimum is not None:
        schema["minimum"] = minimum
    return schema


def string(description: str, *, enum: Sequence[str] | None = None, pattern: str | None = None) -> Schema:
    schema: Schema = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = list(enum)
    if pattern is not None:
        schema["pattern"] = pattern
    return schema


def boolean(description: str) -> Schema:
    return {"type": "boolean", "description": description}


def const(value: Any, description: str) -> Schema:
    return {"const": value, "description": description}


def an_id(description: str) -> Schema:
    return string(description, pattern=ID_PATTERN)


def array(
    items: Schema,
    description: str,
    *,
    min_items: int | None = None,
    max_items: int | None = None,
) -> Schema:
    schema: Schema = {"type": "array", "description": description, "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    return schema


def nullable(schema: Schema, description: str | None = None) -> Schema:
    """``schema`` or null; the description (what null means too) moves to the top."""
    inner = {key: value for key, value in schema.items() if key != "description"}
    return {
        "description": description if description is not None else schema.get("description", ""),
        "anyOf": [inner, {"type": "null"}],
    }


def ref(name: str, description: str | None = None) -> Schema:
    schema: Schema = {"$ref": f"#/$defs/{name}"}
    if description is not None:
        schema["description"] = description
    return schema


def seat(max_players: int, description: str) -> Schema:
    return integer(description, 0, max_players - 1)


def seats(max_players: int, description: str) -> Schema:
    return array(seat(max_players, "A seat."), description, max_items=max_players)


def per_seat(items: Schema, max_players: int, description: str, *, min_players: int = 1) -> Schema:
    """A list with one item per seat, in seat order."""
    return array(items, description, min_items=min_players, max_items=max_players)


def result(max_players: int, description: str, extra: Mapping[str, Schema] | None = None) -> Schema:
    """The engine's result: null while the game runs, then scores and ranks per seat."""
    properties: dict[str, Schema] = {
        "scores": per_seat(
            integer("A seat's score."), max_players, "The final score of each seat, in seat order."
        ),
        "ranks": per_seat(
            integer("A seat's place: 1 is best; tied seats share a place.", 1, max_players),
            max_players,
            "The place of each seat, in seat order.",
        ),
    }
    optional = []
    for name, schema in (extra or {}).items():
        properties[name] = schema
        optional.append(name)
    return nullable(obj("How the game ended.", properties, optional=optional), description)


# -- the log ----------------------------------------------------------------------------


def log_event(
    event: str,
    description: str,
    facts: Mapping[str, Schema] | None = None,
    *,
    optional: Iterable[str] = (),
    seat_schema: Schema,
    common: Mapping[str, Schema] | None = None,
) -> Schema:
    """One kind of log entry: ``event``, ``seat`` and ``text``, then its facts."""
    properties: dict[str, Schema] = {
        "event": const(event, description),
        "seat": seat_schema,
        "text": string(
            "What happened, for people: players appear as {s0}, {s1}, ... (their seats), "
            "to be replaced by their names."
        ),
        **(common or {}),
        **(facts or {}),
    }
    entry = obj(description, properties, optional=optional)
    entry["title"] = event
    return entry


def log_events(defs: dict[str, Schema], events: Sequence[Schema]) -> Schema:
    """Add each event's schema to ``defs`` (as ``log_<event>``) and return the log's schema."""
    # Each entry is checked against its own event's schema only (if/then on `event`):
    # a oneOf would try them all, and logs run to hundreds of entries.
    branches = []
    for event in events:
        name = f"log_{event['title']}"
        assert name not in defs, name
        defs[name] = event
        branches.append(
            {
                "if": {"properties": {"event": {"const": event["title"]}}},
                "then": ref(name),
            }
        )
    entry = {
        "type": "object",
        "description": "One thing that happened: its `event` says which, and so which facts it has.",
        "properties": {
            "event": string("What happened.", enum=[event["title"] for event in events]),
        },
        "required": ["event"],
        "allOf": branches,
    }
    return array(
        entry,
        "What has happened so far, oldest first, as this viewer may know it: each entry is one "
        "of the log events below, told by its `event`.",
    )


# -- whole documents ------------------------------------------------------------------------


def view_document(
    slug: str,
    name: str,
    description: str,
    properties: Mapping[str, Schema],
    defs: Mapping[str, Schema],
    *,
    optional: Iterable[str] = (),
) -> Schema:
    document = obj(description, properties, optional=optional)
    return {
        "$schema": DRAFT,
        "title": f"{name}: a seat's view",
        **document,
        "$defs": dict(defs),
    }


ActionNotes = Mapping[str, tuple[str, Mapping[str, str]]]


def action_document(slug: str, name: str, schemas: ActionSchemas, notes: ActionNotes) -> Schema:
    """The actions a game accepts, from the fields it declares (``Game.action_schemas``,
    what ``parse_action`` checks) and ``notes``: per action type, what it does and what
    each field means."""
    missing = set(schemas) ^ set(notes)
    assert not missing, f"{slug}: actions and their notes differ: {sorted(missing)}"
    defs: dict[str, Schema] = {}
    for kind, fields in schemas.items():
        what, field_notes = notes[kind]
        assert set(field_notes) == set(fields), f"{slug} {kind}: fields and notes differ"
        properties: dict[str, Schema] = {"type": const(kind, what)}
        for field_name, field in fields.items():
            properties[field_name] = _field(field, field_notes[field_name])
        action = obj(what, properties)
        action["title"] = kind
        defs[kind] = action
    return {
        "$schema": DRAFT,
        "title": f"{name}: an action",
        "description": (
            "One move, as a program sends it in `action` (and finds it in `legal_actions`): "
            "an object with a `type` and that type's fields, no other key."
        ),
        "oneOf": [ref(kind) for kind in schemas],
        "$defs": defs,
    }


def _field(field: IntField | ChoiceField | TokenField, description: str) -> Schema:
    if isinstance(field, IntField):
        return integer(description, field.minimum, field.maximum)
    if isinstance(field, ChoiceField):
        return string(description, enum=field.choices)
    return {"type": "string", "description": description, "minLength": 1, "maxLength": field.max_length}


def no_seat() -> Schema:
    """The ``seat`` of a log entry about the game itself (a deal, the end)."""
    return {"type": "null", "description": "No seat: the game itself."}
