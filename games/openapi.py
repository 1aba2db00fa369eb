"""How an API endpoint declares itself for the machine-readable description
(``/api/openapi.json``, built by ``games/openapi_document.py``; docs/site.md, "The API's
description").

Each endpoint's view (a function, or a stream's consumer class) carries what a program
needs to call it, attached by ``endpoint(...)``: the method, the scope, a summary, the
body and the answer as ``TypedDict``s (or a JSON Schema for a shape not typed), the
status of a success and the error codes it may answer. The document is built by walking
the URL patterns and reading what each view carries, so the core never imports a
feature: a feature's view declares itself where it is written. The bodies and answers
become JSON Schema by introspection (``schema_of``): a changed ``TypedDict`` changes the
document.

Nothing here imports a view, a model or Django: the API modules import it.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, NotRequired, Required, TypeVar, get_args, get_origin, is_typeddict

JsonSchema = dict[str, Any]
# Where a view keeps its declared operations (one per method: ``/api/matches`` has two).
ATTRIBUTE = "openapi_operations"
# The prefix of a schema's ``$ref`` to a shape named in the document's components.
REF_PREFIX = "#/components/schemas/"

Declared = TypeVar("Declared")


@dataclass(frozen=True)
class Query:
    """A query-string parameter (always optional here: each is a filter)."""

    name: str
    description: str
    schema: JsonSchema = field(default_factory=lambda: {"type": "string"})


@dataclass(frozen=True)
class Operation:
    """One method of one endpoint, as a program sees it."""

    method: str  # "GET", "POST"
    scope: str | None  # the token's scope it needs; None: no token (the description itself)
    summary: str
    description: str
    answer: Any  # a TypedDict, or a JSON Schema (a dict), or None for no JSON answer
    status: int  # of a success
    body: Any = None  # a TypedDict, or None for no body
    body_required: bool = True  # False: the body may be left out (join, leave, resign)
    errors: tuple[str, ...] = ()  # the error codes the endpoint itself answers
    query: tuple[Query, ...] = ()
    media_type: str = "application/json"  # of the success: streams and downloads differ
    other_successes: dict[int, str] = field(default_factory=dict)  # another status, and when
    session: bool = False  # the website's session is accepted too (the downloads)
    operation_id: str = ""


def endpoint(
    method: str,
    *,
    scope: str | None,
    summary: str,
    answer: Any,
    status: int = 200,
    body: Any = None,
    body_required: bool = True,
    errors: Iterable[str] = (),
    query: Iterable[Query] = (),
    media_type: str = "application/json",
    other_successes: dict[int, str] | None = None,
    session: bool = False,
    description: str | None = None,
    operation_id: str = "",
) -> Callable[[Declared], Declared]:
    """Declare one method of the decorated view (a function, or a consumer class). Its
    ``description`` is the view's docstring unless given: the words beside the code."""

    def declare(view: Declared) -> Declared:
        operation = Operation(
            method=method,
            scope=scope,
            summary=summary,
            description=description if description is not None else inspect.cleandoc(view.__doc__ or ""),
            answer=answer,
            status=status,
            body=body,
            body_required=body_required,
            errors=tuple(str(code) for code in errors),
            query=tuple(query),
            media_type=media_type,
            other_successes=dict(other_successes or {}),
            session=session,
            operation_id=operation_id or f"{method.lower()}_{getattr(view, '__name__', 'view')}",
        )
        setattr(view, ATTRIBUTE, (*operations_of(view), operation))
        return view

    return declare


def operations_of(view: Any) -> tuple[Operation, ...]:
    """What ``view`` declared: a view function, a wrapper of one (``functools.wraps``
    copies the attribute), or the ASGI app of a consumer declared on its class."""
    declared = getattr(view, ATTRIBUTE, None)
    if declared is None and hasattr(view, "consumer_class"):
        declared = getattr(view.consumer_class, ATTRIBUTE, None)
    return tuple(declared or ())


# -- TypedDicts as JSON Schema ---------------------------------------------------------


def schema_of(annotation: Any, shapes: dict[str, JsonSchema]) -> JsonSchema:
    """The JSON Schema of a type: a ``TypedDict`` becomes a ``$ref`` to its schema, which
    is added to ``shapes`` (the document's ``components/schemas``), its nested ones too.

    A ``TypedDict`` is closed (``additionalProperties: false``): a body's unknown field
    is refused (``unexpected_field``), and an answer holds exactly its declared fields,
    which the tests check against real answers."""
    if is_typeddict(annotation):
        return _shape_ref(annotation, shapes)
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is typing.Annotated:
        described = schema_of(args[0], shapes)
        notes = [note for note in args[1:] if isinstance(note, str)]
        return {**described, "description": " ".join(notes)} if notes else described
    if origin in (NotRequired, Required):
        return schema_of(args[0], shapes)
    if origin is Literal:
        values = [value.value if isinstance(value, Enum) else value for value in args]
        return (
            {"type": "string", "enum": values}
            if all(isinstance(v, str) for v in values)
            else {"enum": values}
        )
    if origin in (typing.Union, types.UnionType):
        return _union([schema_of(member, shapes) for member in args])
    if origin in (list, tuple) or annotation in (list, tuple):
        items = schema_of(args[0], shapes) if args else {}
        return {"type": "array", "items": items} if items else {"type": "array"}
    if origin is dict or annotation is dict:
        each = schema_of(args[1], shapes) if len(args) == 2 else {}
        return {"type": "object", "additionalProperties": each or True}
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return {"enum": [member.value for member in annotation]}
    return _plain(annotation)


_PLAIN: dict[Any, JsonSchema] = {
    str: {"type": "string"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    None: {"type": "null"},
    type(None): {"type": "null"},
    Any: {},
    object: {},
}


def _plain(annotation: Any) -> JsonSchema:
    try:
        return dict(_PLAIN[annotation])
    except (KeyError, TypeError):
        raise TypeError(f"No JSON Schema for {annotation!r}: declare the shape with a TypedDict") from None


def _union(members: list[JsonSchema]) -> JsonSchema:
    """``int | None`` as ``{"type": ["integer", "null"]}``; anything richer as ``anyOf``."""
    if all(set(member) == {"type"} for member in members):
        kinds: list[str] = []
        for member in members:
            for kind in member["type"] if isinstance(member["type"], list) else [member["type"]]:
                if kind not in kinds:
                    kinds.append(kind)
        return {"type": kinds}
    return {"anyOf": members}


def _shape_ref(shape: Any, shapes: dict[str, JsonSchema]) -> JsonSchema:
    name = shape.__name__
    ref = {"$ref": REF_PREFIX + name}
    if name in shapes:
        return ref
    shapes[name] = {}  # claimed first: a shape may hold itself
    hints = typing.get_type_hints(shape, include_extras=True)
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    for key, hint in hints.items():
        origin = get_origin(hint)
        if origin is Required or (origin is not NotRequired and key in shape.__required_keys__):
            required.append(key)
        properties[key] = schema_of(hint, shapes)
    schema: JsonSchema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    doc = inspect.cleandoc(shape.__doc__ or "")
    if doc and not doc.startswith(f"{name}("):  # not the class's generated signature
        schema["description"] = doc
    shapes[name] = schema
    return ref
