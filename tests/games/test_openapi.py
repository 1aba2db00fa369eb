"""Issue 35, item 6: ``/api/openapi.json``, the API described for programs, built from
the code (``games/openapi.py``, ``games/openapi_document.py``). It cannot drift from the
code or the guide: it validates as OpenAPI 3.1, lists every endpoint docs/api.md's table
names with the same method and scope, covers every address under ``/api/``, and real
answers match the schemas it declares."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from accounts.models import User
from games.live.routing import http_urlpatterns
from games.models import Match
from games.openapi import operations_of, schema_of
from games.services import chat_post, match_resign
from games.social import services as social_services
from tests.games.helpers import api, token_for
from tests.games.sockets import run
from tests.games.streams import Stream

pytestmark = pytest.mark.django_db

# Addresses under /api/ that are pages for people or this description, not endpoints.
# Documentation, not endpoints: the guide and its pages, this description, the per-game
# JSON Schemas the description points to, and the example bot's source.
NOT_ENDPOINTS = {
    "api/",
    "api/openapi.json",
    "api/exports/",
    "api/games/<slug:slug>/",
    "api/schemas/<slug:slug>/view.json",
    "api/schemas/<slug:slug>/action.json",
    "api/examples/<str:name>",
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    # secure: a module's fixture comes before tests/conftest.py's site_defaults, which
    # turns the HTTPS redirect off (it is on in CI's settings).
    answer = Client().get("/api/openapi.json", secure=True)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    assert "public" in answer["Cache-Control"] and "max-age=3600" in answer["Cache-Control"]
    document: dict[str, Any] = answer.json()
    return document


def test_the_document_is_valid_openapi_3_1_with_no_token(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    validate(document)  # raises on an invalid document (and on a $ref that leads nowhere)
    assert document["servers"] == [{"url": settings.SITE_URL}]
    assert document["components"]["securitySchemes"]["token"]["scheme"] == "bearer"


def _normal(path: str) -> str:
    """``/api/matches/<id>`` and ``/api/matches/{match_id}`` alike."""
    return re.sub(r"<[^>]*>|\{[^}]*\}", "{}", path)


def _table_of_api_md() -> set[tuple[str, str, str]]:
    """docs/api.md's endpoint table: (method, path, scope) per address."""
    text = (Path(settings.BASE_DIR) / "docs" / "api.md").read_text(encoding="utf-8")
    rows: set[tuple[str, str, str]] = set()
    for line in text.splitlines():
        if not line.startswith(("| `GET`", "| `POST`")):
            continue
        row = re.fullmatch(r"\| `(GET|POST)` \| (.+?) \| (play|read|export) \| .* \|", line)
        assert row is not None, f"a row of the endpoint table this test cannot read: {line}"
        method, paths, scope = row.groups()
        previous = ""
        for path in re.findall(r"`([^`]+)`", paths):
            if path.startswith(".../"):  # ".../decline": the path before, another last step
                path = previous.rsplit("/", 1)[0] + path[3:]
            rows.add((method, _normal(path), scope))
            previous = path
    return rows


def test_every_endpoint_of_the_guides_table_is_described_with_its_method_and_scope(
    document: dict[str, Any],
) -> None:
    table = _table_of_api_md()
    assert len(table) >= 19
    described = {
        (method.upper(), _normal(path), operation["security"][0]["token"][0])
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if operation["security"]
    }
    assert table - described == set(), "in docs/api.md's table, not described (or with another scope)"
    assert described - table == set(), "described, but not in docs/api.md's table"
    # The scope is said the OpenAPI way (the token's security requirement) and plainly.
    for operations in document["paths"].values():
        for operation in operations.values():
            if operation["security"]:
                assert operation["x-scope"] == operation["security"][0]["token"][0]


def _routes(patterns: list[Any], prefix: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            found.append((prefix + str(pattern.pattern), pattern.callback))
    return found


def test_every_address_under_api_is_described(document: dict[str, Any]) -> None:
    routes = _routes([*get_resolver().url_patterns, *http_urlpatterns])
    api_routes = [(route, view) for route, view in routes if route.startswith("api/")]
    assert len(api_routes) >= 16
    undeclared = [
        route for route, view in api_routes if not operations_of(view) and route not in NOT_ENDPOINTS
    ]
    assert undeclared == [], "an endpoint under /api/ with no games.openapi.endpoint declaration"
    paths = {_normal(path) for path in document["paths"]}
    for route, _ in api_routes:
        if route not in NOT_ENDPOINTS or route == "api/openapi.json":  # it describes itself
            assert _normal("/" + route) in paths


def _validator(
    document: dict[str, Any], path: str, method: str, status: int, media_type: str = "application/json"
) -> Draft202012Validator:
    """A validator of the answer ``document`` declares for this operation and status."""
    response = document["paths"][path][method]["responses"][str(status)]
    schema = response["content"][media_type]["schema"]
    # Its $refs point into the document's components: validate from a root that holds them.
    return Draft202012Validator({"allOf": [schema], "components": document["components"]})


def _assert_valid(validator: Draft202012Validator, answer: Any) -> None:
    _assert_valid_json(validator, answer.json())


def _assert_valid_json(validator: Draft202012Validator, data: Any) -> None:
    errors = [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(data)]
    assert errors == [], data


def test_real_answers_match_the_declared_schemas(document: dict[str, Any], ann: User, bob: User) -> None:
    token = token_for(ann)
    games = api("GET", "/api/games", token)
    assert games.status_code == 200
    _assert_valid(_validator(document, "/api/games", "get", 200), games)

    created = api("POST", "/api/matches", token, {"game": "go-fox", "seats": ["me", "bot-basic"]})
    assert created.status_code == 201, created.json()
    _assert_valid(_validator(document, "/api/matches", "post", 201), created)
    invitation = api("POST", "/api/matches", token, {"game": "ka-blam", "seats": ["me", {"invite": "bob"}]})
    _assert_valid(_validator(document, "/api/matches", "post", 201), invitation)

    match_id = created.json()["match"]["id"]
    seen = api("GET", f"/api/matches/{match_id}", token)
    assert seen.status_code == 200 and seen.json()["view"] is not None
    _assert_valid(_validator(document, "/api/matches/{match_id}", "get", 200), seen)
    waiting = api("GET", f"/api/matches/{invitation.json()['match']['id']}", token)
    _assert_valid(_validator(document, "/api/matches/{match_id}", "get", 200), waiting)

    mine = api("GET", "/api/matches", token)
    _assert_valid(_validator(document, "/api/matches", "get", 200), mine)
    invited = api("GET", "/api/challenges", token_for(bob))
    assert invited.json()["to_me"]
    _assert_valid(_validator(document, "/api/challenges", "get", 200), invited)

    lobby = api("GET", "/api/lobby", token_for(bob))
    _assert_valid(_validator(document, "/api/lobby", "get", 200), lobby)
    said = api("POST", f"/api/matches/{match_id}/chat", token, {"text": "good luck"})
    assert said.status_code == 201
    _assert_valid(_validator(document, "/api/matches/{match_id}/chat", "post", 201), said)

    # Resigning against a bot ends the match: a result with its resigned seats, in the history.
    resigned = api("POST", f"/api/matches/{match_id}/resign", token)
    assert resigned.status_code == 200 and resigned.json()["match"]["status"] == "finished"
    _assert_valid(_validator(document, "/api/matches/{match_id}/resign", "post", 200), resigned)
    ended = api("GET", f"/api/matches/{match_id}", token)
    assert ended.json()["result"]["resigned"] == [0]
    _assert_valid(_validator(document, "/api/matches/{match_id}", "get", 200), ended)
    history = api("GET", "/api/history", token)
    assert [row["id"] for row in history.json()["matches"]] == [match_id]
    _assert_valid(_validator(document, "/api/history", "get", 200), history)

    # A refusal is the declared error document, with a code its status lists.
    missing = api("GET", "/api/matches/999999", token)
    assert missing.status_code == 404
    _assert_valid(_validator(document, "/api/matches/{match_id}", "get", 404), missing)
    declared = document["paths"]["/api/matches/{match_id}"]["get"]["responses"]["404"]["x-error-codes"]
    assert missing.json()["error"]["code"] in declared


@pytest.mark.django_db(transaction=True)
def test_the_streams_lines_match_the_declared_schemas(
    document: dict[str, Any], duel: Match, ann: User, bob: User
) -> None:
    ndjson = "application/x-ndjson"
    match_lines = _validator(document, "/api/matches/{match_id}/stream", "get", 200, ndjson)
    event_lines = _validator(document, "/api/stream/events", "get", 200, ndjson)
    social_services.challenge(
        challenger=bob, challenged=ann, game_slug="ka-blam", options=None, turn_limit=None
    )
    token = token_for(ann)

    async def scenario() -> None:
        events = Stream("/api/stream/events", token)
        assert await events.open() == 200
        opening = await events.lines_until_quiet()
        assert {"invitation", "match_started"} <= {line["type"] for line in opening}
        stream = Stream(f"/api/matches/{duel.pk}/stream", token)
        assert await stream.open() == 200
        seen = [await stream.next_of("state")]
        await database_sync_to_async(chat_post)(match_id=duel.pk, user=bob, text="good luck")
        seen.append(await stream.next_of("chat"))
        await database_sync_to_async(match_resign)(match_id=duel.pk, user=ann)
        while (line := await stream.line()) is not None:
            seen.append(line)
        assert [line["type"] for line in seen][-2:] == ["state", "end"]
        for line in seen:
            _assert_valid_json(match_lines, line)
        closing = await events.lines_until_quiet()
        assert "match_finished" in {line["type"] for line in closing}
        for line in opening + closing:
            _assert_valid_json(event_lines, line)
        await stream.close()
        await events.close()

    run(scenario)


class Inner(TypedDict):
    when: str | None


class Outer(TypedDict):
    """An example."""

    name: str
    count: NotRequired[int]
    kind: Literal["a", "b"]
    inner: list[Inner]
    extra: dict[str, Any]
    either: int | Inner


def test_a_shape_is_read_from_its_typeddict() -> None:
    """What a changed TypedDict changes in the document: fields, required ones, nesting."""

    shapes: dict[str, Any] = {}
    assert schema_of(Outer, shapes) == {"$ref": "#/components/schemas/Outer"}
    assert shapes["Outer"] == {
        "type": "object",
        "description": "An example.",
        "properties": {
            "name": {"type": "string"},
            "count": {"type": "integer"},
            "kind": {"type": "string", "enum": ["a", "b"]},
            "inner": {"type": "array", "items": {"$ref": "#/components/schemas/Inner"}},
            "extra": {"type": "object", "additionalProperties": True},
            "either": {"anyOf": [{"type": "integer"}, {"$ref": "#/components/schemas/Inner"}]},
        },
        "required": ["name", "kind", "inner", "extra", "either"],
        "additionalProperties": False,
    }
    assert shapes["Inner"]["properties"] == {"when": {"type": ["string", "null"]}}
