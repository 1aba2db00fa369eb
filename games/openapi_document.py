"""``GET /api/openapi.json``: the API described for programs, as an OpenAPI 3.1 document
(issue 35, item 6; docs/api.md).

Built from the code, never written beside it: the URL patterns are walked (Django's,
and the streams' routed in ``boomsite/asgi.py``), and each view's declared operations
(``games.openapi.endpoint``) become the document's paths; the bodies and answers are
their ``TypedDict``s as JSON Schema; the error codes' statuses are ``games.errors``'.
Walking the resolver at request time is how the core describes the features' endpoints
without importing them. The document is built once per process: the code it describes
changes only with a deploy.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from games.errors import ErrorCode, http_status
from games.live.routing import http_urlpatterns
from games.openapi import REF_PREFIX, JsonSchema, Operation, endpoint, operations_of, schema_of

# The statuses of the codes made around the views, not listed in games/errors.py
# (``boomsite/api_errors.py``).
_STATUS_OF_UNLISTED = {"server_error": 500, "not_found": 404, "forbidden": 403, "bad_request": 400}
# What every endpoint with a token may answer before it reads anything (``games.api.token_caller``),
# and a fault or an overload of ours.
_TOKEN_ERRORS = (
    ErrorCode.UNAUTHORISED,
    ErrorCode.MISSING_SCOPE,
    ErrorCode.METHOD_NOT_ALLOWED,
    ErrorCode.RATE_LIMITED,
    ErrorCode.BUSY,
    "server_error",
)
# What reading a body may answer (``games.api.read_json_object``).
_BODY_ERRORS = (ErrorCode.TOO_LARGE, ErrorCode.MALFORMED_JSON, ErrorCode.UNEXPECTED_FIELD)
_RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")
# A path parameter's schema, by its URL converter.
_CONVERTERS: dict[str, JsonSchema] = {
    "int": {"type": "integer", "minimum": 0},
    "str": {"type": "string"},
    "slug": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"},
}
_PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")

ERROR_SCHEMA: JsonSchema = {
    "type": "object",
    "description": "Every refusal: a stable code for programs, a message for people. Nothing was changed.",
    "properties": {
        "error": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            "required": ["code", "message"],
            "additionalProperties": False,
        }
    },
    "required": ["error"],
    "additionalProperties": False,
}

DESCRIPTION = """Programs (a bot, a script, another client) play on Boomsite through this API.
The guide, with examples and every decision explained: /api/.

Every request sends a personal token (`Authorization: Bearer bst_...`, made on the account page)
holding the scope the operation needs (`play`, `read`, `export`). Every answer is JSON, errors
included: `{"error": {"code", "message"}}`; the streams are newline-delimited JSON. Every answer
to a request with a valid token carries the `RateLimit-*` header fields: at most 60 requests
every 20 seconds per token."""

SCOPES = {
    "play": "create, join, leave matches; move, resign, chat; challenge, accept, decline",
    "read": "read your matches, their views, your history and your challenges; the games and the lobby",
    "export": "download finished matches, private ones included (their format: /api/exports/)",
}


def document() -> dict[str, Any]:
    """The OpenAPI document, built once per process."""
    return _built(settings.SITE_URL)


@functools.cache
def _built(site_url: str) -> dict[str, Any]:
    shapes: dict[str, JsonSchema] = {"Error": ERROR_SCHEMA}
    paths: dict[str, dict[str, Any]] = {}
    for route, view in _routes([*get_resolver().url_patterns, *http_urlpatterns]):
        for operation in operations_of(view):
            path, parameters = _path_of(route)
            paths.setdefault(path, {})[operation.method.lower()] = _operation(operation, parameters, shapes)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Boomsite API", "version": "1", "description": DESCRIPTION},
        "servers": [{"url": site_url}],
        "externalDocs": {"description": "The API's guide", "url": f"{site_url}/api/"},
        "paths": {path: dict(sorted(paths[path].items())) for path in sorted(paths)},
        "components": {
            "schemas": dict(sorted(shapes.items())),
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A personal API token, made on the account page (Account, API tokens). "
                    "Each operation names the scope its token needs: "
                    + "; ".join(f"`{scope}`: {what}" for scope, what in SCOPES.items())
                    + ". A token without it: 403 missing_scope.",
                },
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": settings.SESSION_COOKIE_NAME,
                    "description": "The website's session: the downloads only, for a person in a browser.",
                },
            },
            "headers": _headers(),
        },
    }


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every URL pattern's full route and view, included ones too."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.callback


def _path_of(route: str) -> tuple[str, list[JsonSchema]]:
    """``api/matches/<int:match_id>`` as ``/api/matches/{match_id}``, with its parameters."""
    parameters = [
        {
            "name": found["name"],
            "in": "path",
            "required": True,
            "schema": _CONVERTERS.get(found["converter"] or "str", {"type": "string"}),
        }
        for found in _PARAMETER.finditer(route)
    ]
    return "/" + _PARAMETER.sub(r"{\g<name>}", route), parameters


def _operation(
    operation: Operation, parameters: list[JsonSchema], shapes: dict[str, JsonSchema]
) -> JsonSchema:
    described: JsonSchema = {
        "operationId": operation.operation_id,
        "summary": operation.summary,
        "description": operation.description,
        "security": _security(operation),
        "responses": _responses(operation, shapes),
    }
    if operation.scope is not None:
        described["x-scope"] = operation.scope
    query = [
        {
            "name": each.name,
            "in": "query",
            "required": False,
            "description": each.description,
            "schema": each.schema,
        }
        for each in operation.query
    ]
    if parameters or query:
        described["parameters"] = [*parameters, *query]
    if operation.body is not None:
        described["requestBody"] = {
            "required": operation.body_required,
            "content": {"application/json": {"schema": schema_of(operation.body, shapes)}},
        }
    return described


def _security(operation: Operation) -> list[dict[str, list[str]]]:
    if operation.scope is None:
        return []
    ways: list[dict[str, list[str]]] = [{"token": [operation.scope]}]
    if operation.session:
        ways += [{"session": []}, {}]  # a public match's download needs neither
    return ways


def _responses(operation: Operation, shapes: dict[str, JsonSchema]) -> dict[str, Any]:
    counted = operation.scope is not None  # a request with a token: the RateLimit fields
    success: JsonSchema = {"description": operation.summary}
    if counted:
        success["headers"] = {name: {"$ref": f"#/components/headers/{name}"} for name in _RATE_LIMIT_HEADERS}
    if operation.answer is not None:
        success["content"] = {operation.media_type: {"schema": _answer_schema(operation.answer, shapes)}}
    responses: dict[str, Any] = {str(operation.status): success}
    for status, when in operation.other_successes.items():
        responses[str(status)] = {**success, "description": when}
    codes = list(operation.errors)
    if counted:
        codes += _TOKEN_ERRORS
    if operation.body is not None:
        codes += _BODY_ERRORS
    by_status: dict[int, list[str]] = {}
    for code in codes:
        status = _STATUS_OF_UNLISTED.get(code) or http_status(code)
        if code not in by_status.setdefault(status, []):
            by_status[status].append(code)
    for status, listed in sorted(by_status.items()):
        responses[str(status)] = _error_response(status, listed, counted)
    return responses


def _answer_schema(answer: Any, shapes: dict[str, JsonSchema]) -> JsonSchema:
    return dict(answer) if isinstance(answer, dict) else schema_of(answer, shapes)


def _error_response(status: int, codes: list[str], counted: bool) -> JsonSchema:
    headers: dict[str, Any] = {}
    if counted and status != 401:  # no valid token, no budget to show
        headers = {name: {"$ref": f"#/components/headers/{name}"} for name in _RATE_LIMIT_HEADERS}
    if status in (429, 503):
        headers["Retry-After"] = {"$ref": "#/components/headers/Retry-After"}
    if status == 401:
        headers["WWW-Authenticate"] = {"$ref": "#/components/headers/WWW-Authenticate"}
    if status == 405:
        headers["Allow"] = {"$ref": "#/components/headers/Allow"}
    response: JsonSchema = {
        "description": "Refused, nothing changed: " + ", ".join(f"`{code}`" for code in codes),
        "content": {"application/json": {"schema": {"$ref": REF_PREFIX + "Error"}}},
        "x-error-codes": codes,
    }
    if headers:
        response["headers"] = headers
    return response


def _headers() -> dict[str, Any]:
    def integer(description: str) -> JsonSchema:
        return {"description": description, "schema": {"type": "integer", "minimum": 0}}

    return {
        "RateLimit-Limit": integer("Requests allowed in a window (60)."),
        "RateLimit-Remaining": integer("Requests left in this window after this one."),
        "RateLimit-Reset": integer("Whole seconds until the window ends and the count starts again."),
        "RateLimit-Policy": {
            "description": "The limit and its window: `60;w=20`.",
            "schema": {"type": "string"},
        },
        "Retry-After": integer("Whole seconds to wait before trying again."),
        "WWW-Authenticate": {
            "description": 'The scheme to use: `Bearer realm="boomsite"`.',
            "schema": {"type": "string"},
        },
        "Allow": {"description": "The method this address takes.", "schema": {"type": "string"}},
    }


@endpoint(
    "GET",
    scope=None,
    summary="This description of the API, as an OpenAPI 3.1 document",
    answer={"type": "object", "description": "An OpenAPI 3.1 document: https://spec.openapis.org/oas/v3.1.0"},
    errors=[ErrorCode.METHOD_NOT_ALLOWED],
    operation_id="get_openapi",
)
@require_GET
def openapi_json(request: HttpRequest) -> JsonResponse:
    """No token needed, and cacheable: it changes only when the site's code does."""
    response = JsonResponse(document())
    patch_cache_control(response, public=True, max_age=3600)
    return response
