"""The API's documentation, served: the reference (docs/api.md rendered to HTML), a page
per game on its view and actions, and the JSON Schemas those pages are written from.

The per-game pages and the schemas come from the engine (``games.engine.schemas``),
whose views the conformance suite checks against them, so what a bot author reads is
what the API sends. Everything here is public: no token, no session needed.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.engine import IllegalAction, get
from games.engine.base import Game
from games.engine.schemas import action_schema, has_schemas, view_schema
from games.errors import ErrorCode, http_status
from games.how_to_play import has_how_to_play

# Schemas change only with a deployment; an hour's cache spares clients that fetch
# them on every start.
SCHEMA_MAX_AGE = 3600


# -- the reference ----------------------------------------------------------------------


@dataclass(frozen=True)
class Rendered:
    html: SafeString
    toc: list[dict[str, Any]]  # Python-Markdown's toc_tokens: level, id, name, children


@functools.cache
def rendered_reference(name: str = "api.md") -> Rendered:
    """A page of docs/ (the API's reference, the exports' format) as HTML, once per
    process (the files change only with a deployment)."""
    text = (Path(settings.BASE_DIR) / "docs" / name).read_text(encoding="utf-8")
    return render_markdown(text)


def render_markdown(text: str) -> Rendered:
    """Markdown to HTML with tables, fenced code and ids on headings (for the table of
    contents). Raw HTML in the text is shown as text, never passed through: the text is
    ours, but a page that can run nothing it was not written to run stays that way."""
    converter = markdown.Markdown(
        extensions=["tables", "fenced_code", "toc"],
        extension_configs={"toc": {"toc_depth": "2-3"}},
        output_format="html",
    )
    converter.preprocessors.deregister("html_block")
    converter.inlinePatterns.deregister("html")
    page = converter.convert(text)
    # Code and tables may be wider than a phone: they scroll sideways, and so must take
    # the keyboard's focus. (No "<pre>" or "<table>" of the text's own can be here: its
    # raw HTML came out escaped.)
    page = page.replace("<pre>", '<pre tabindex="0">')
    page = page.replace(
        "<table>", '<div class="table-scroll" tabindex="0" role="region" aria-label="Table">\n<table>'
    )
    page = page.replace("</table>", "</table>\n</div>")
    return Rendered(html=mark_safe(page), toc=list(converter.toc_tokens))  # type: ignore[attr-defined]


@require_GET
def docs(request: HttpRequest) -> HttpResponse:
    """The API reference: programs' authors find it from the account page."""
    return _reference_page(request, "api.md")


@require_GET
def export_docs(request: HttpRequest) -> HttpResponse:
    """The exports' format (docs/export.md), linked from the reference."""
    return _reference_page(request, "export.md")


def _reference_page(request: HttpRequest, name: str) -> HttpResponse:
    reference = rendered_reference(name)
    return render(
        request,
        "games/api_docs.html",
        {"reference": reference.html, "toc": _toc(reference.toc), "games": _documented_games()},
    )


# The example bots the reference teaches with, served as the text a programmer saves.
EXAMPLES = {"stream_bot.py": "docs/examples/stream_bot.py"}


@require_GET
def example(request: HttpRequest, name: str) -> HttpResponse:
    """One of ``EXAMPLES``, as plain text (UTF-8), to read or save and run."""
    path = EXAMPLES.get(name)
    if path is None:
        raise Http404("No such example.")
    text = (Path(settings.BASE_DIR) / path).read_text(encoding="utf-8")
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def _toc(tokens: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reference's sections (its title, the one h1, is the page's own)."""
    sections: list[dict[str, Any]] = []
    for token in tokens:
        if token["level"] == 1:
            sections.extend(_toc(token["children"]))
        else:
            # Its name comes HTML-escaped; the template escapes it again.
            sections.append(
                {**token, "name": html.unescape(token["name"]), "children": _toc(token["children"])}
            )
    return sections


def _documented_games() -> list[Game[object]]:
    from games.engine import all_games

    return [game for game in all_games() if has_schemas(game.slug)]


# -- a game's page ------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One row of a table: a key (a dotted path inside its object), its type and meaning."""

    path: str
    type: SafeString
    description: SafeString
    optional: bool = False


@dataclass(frozen=True)
class Section:
    name: str  # the $defs name, the anchor
    title: str
    description: SafeString
    fields: list[Field]


@require_GET
def game_docs(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's view and actions, written from its JSON Schemas' descriptions."""
    game = _game_or_404(slug)
    view = view_schema(game.slug)
    actions = action_schema(game.slug)
    defs = view["$defs"]
    log_names = [name for name in defs if name.startswith("log_")]
    return render(
        request,
        "games/api_game_docs.html",
        {
            "game": game,
            "view_description": _text(view["description"]),
            "view_fields": _fields(view, view),
            "types": [
                Section(name, name, _text(defs[name].get("description", "")), _fields(defs[name], view))
                for name in defs
                if not name.startswith("log_")
            ],
            "events": [
                Section(
                    name,
                    defs[name]["title"],
                    _text(defs[name]["description"]),
                    [
                        field
                        for field in _fields(defs[name], view)
                        if field.path not in ("event", "seat", "text", "words")
                    ],
                )
                for name in log_names
            ],
            "actions": [_action(actions["$defs"][kind], actions) for kind in actions["$defs"]],
            "options": [_option(option) for option in game.options],
            "log_has_words": any("words" in defs[name]["properties"] for name in log_names),
            "has_how_to_play": has_how_to_play(game.slug),
        },
    )


def _game_or_404(slug: str) -> Game[object]:
    try:
        game = get(slug)
    except IllegalAction:
        raise Http404("No such game.") from None
    if not has_schemas(game.slug):
        raise Http404("This game's view is not documented yet.")
    return game


@dataclass(frozen=True)
class Action:
    type: str
    description: SafeString
    fields: list[Field]
    example: str


def _action(schema: dict[str, Any], document: dict[str, Any]) -> Action:
    kind = schema["properties"]["type"]["const"]
    example: dict[str, Any] = {"type": kind}
    for name, field in schema["properties"].items():
        if name == "type":
            continue
        if "enum" in field:
            example[name] = field["enum"][0]
        elif field.get("type") == "integer":
            example[name] = field.get("minimum", 0)
        else:
            example[name] = "9f171275"  # an id, as views show them
    fields = [field for field in _fields(schema, document) if field.path != "type"]
    return Action(kind, _text(schema["description"]), fields, json.dumps(example))


def _option(option: Any) -> dict[str, Any]:
    if option.kind == "choice":
        values = ", ".join(f"`{choice}`" for choice in option.choices)
    elif option.kind == "int":
        values = f"a whole number from {option.minimum} to {option.maximum}"
    else:
        values = "`true` or `false`"
    return {
        "name": option.name,
        "label": option.label,
        "default": json.dumps(option.default),
        "values": _text(values),
        "help": option.help,
    }


def _fields(schema: dict[str, Any], document: dict[str, Any], prefix: str = "") -> list[Field]:
    """The rows for an object's properties; an object written in place (not a named
    type) has its own properties listed below it, as ``outer.inner``."""
    rows: list[Field] = []
    required = set(schema.get("required", ()))
    for name, part in schema.get("properties", {}).items():
        path = f"{prefix}{name}"
        rows.append(
            Field(path, _type(part), _text(_description(part, document)), optional=name not in required)
        )
        inner = _inline_object(part)
        if inner is not None:
            rows.extend(_fields(inner, document, f"{path}{_suffix(part)}."))
    return rows


def _inline_object(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The object written in place inside ``schema`` (through null-or and lists), if any."""
    for option in schema.get("anyOf", ()):
        if option.get("type") != "null":
            return _inline_object(option)
    if schema.get("type") == "array":
        return _inline_object(schema["items"])
    if schema.get("type") == "object" and "properties" in schema:
        return schema
    return None


def _suffix(schema: dict[str, Any]) -> str:
    for option in schema.get("anyOf", ()):
        if option.get("type") != "null":
            return _suffix(option)
    if schema.get("type") == "array":
        return "[]" + _suffix(schema["items"])
    return ""


def _description(schema: dict[str, Any], document: dict[str, Any]) -> str:
    if schema.get("description"):
        return str(schema["description"])
    if "$ref" in schema:
        return str(document["$defs"][_ref_name(schema)].get("description", ""))
    return ""


def _ref_name(schema: dict[str, Any]) -> str:
    return str(schema["$ref"]).removeprefix("#/$defs/")


def _type(schema: dict[str, Any]) -> SafeString:
    """A schema's type in words, with links to the named types on the page."""
    if "$ref" in schema:
        name = escape(_ref_name(schema))
        return mark_safe(f'<a href="#type-{name}">{name}</a>')
    if "const" in schema:
        return mark_safe(f"<code>{escape(json.dumps(schema['const']))}</code>")
    options = schema.get("anyOf")
    if options:
        parts = [_type(option) for option in options]
        return mark_safe(" or ".join(parts))
    kind = schema.get("type")
    if kind == "null":
        return mark_safe("<code>null</code>")
    if "enum" in schema:
        values = ", ".join(f"<code>{escape(json.dumps(value))}</code>" for value in schema["enum"])
        return mark_safe(f"one of {values}" if len(schema["enum"]) > 1 else values)
    if kind == "array":
        return mark_safe(f"list of {_type(schema['items'])}")
    if kind == "object":
        if "properties" in schema:
            return mark_safe("object")
        each = schema.get("additionalProperties")
        if isinstance(each, dict):
            return mark_safe(f"object: key → {_type(each)}")
        return mark_safe("object")
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return mark_safe(f"integer {low} to {high}")
        if low is not None:
            return mark_safe(f"integer ≥ {low}")
        return mark_safe("integer")
    if kind == "string" and "pattern" in schema:
        return mark_safe(f"string <code>{escape(schema['pattern'])}</code>")
    return mark_safe(escape(str(kind or "any")))


_CODE = re.compile(r"`([^`]+)`")


def _text(text: str) -> SafeString:
    """A description: plain text with `code` marked as in Markdown."""
    return mark_safe(_CODE.sub(r"<code>\1</code>", str(escape(text))))


# -- the schemas themselves -------------------------------------------------------------------


@require_GET
@cache_control(public=True, max_age=SCHEMA_MAX_AGE)
def view_schema_json(request: HttpRequest, slug: str) -> HttpResponse:
    """``GET /api/schemas/<game>/view.json``: what ``view`` holds in the game's documents."""
    return _schema_response(request, slug, view_schema)


@require_GET
@cache_control(public=True, max_age=SCHEMA_MAX_AGE)
def action_schema_json(request: HttpRequest, slug: str) -> HttpResponse:
    """``GET /api/schemas/<game>/action.json``: one action, as ``legal_actions`` lists them."""
    return _schema_response(request, slug, action_schema)


def _schema_response(request: HttpRequest, slug: str, schema_of: Any) -> HttpResponse:
    try:
        game = get(slug)
    except IllegalAction:
        game = None
    if game is None or not has_schemas(game.slug):
        return JsonResponse(
            {"error": {"code": ErrorCode.NO_SUCH_GAME, "message": f"There is no game {slug[:40]!r}."}},
            status=http_status(ErrorCode.NO_SUCH_GAME),
        )
    schema: dict[str, Any] = schema_of(game.slug)
    document = {"$id": request.build_absolute_uri(request.path), **schema}
    body = json.dumps(document, indent=1, ensure_ascii=False).encode()
    response = HttpResponse(body, content_type="application/schema+json")
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    response["ETag"] = etag
    return get_conditional_response(request, etag=etag, response=response) or response
