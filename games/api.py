"""The JSON API for programs, documented in docs/api.md.

Authentication is a personal token only (``Authorization: Bearer <token>``, made on
the account page), never the session cookie: so these endpoints need no CSRF
token and a browser cannot be tricked into calling them. Errors are
``{"error": {"code", "message"}}`` with a fitting HTTP status.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from accounts.services import api_token_user
from boomsite import rate_limit
from games import selectors, services
from games.errors import ErrorCode, http_status
from games.inputs import BadInput, parse_json

MAX_BODY_BYTES = 16 * 1024
# Per token (**Decision**): a program polling every second and playing as fast as a
# person clicks stays far inside; a flood (the security test sent 400 at 100/s) is
# answered 429 with Retry-After.
API_REQUESTS_PER_WINDOW = 60
API_WINDOW_SECONDS = 20


def error_response(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


def _token_user(request: HttpRequest) -> User | None:
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return api_token_user(secret.strip())


def _token_key(request: HttpRequest) -> str:
    """The token as a rate-limit key: its hash, never the secret itself."""
    secret = request.headers.get("Authorization", "").partition(" ")[2].strip()
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


def _unauthorised() -> JsonResponse:
    response = error_response(
        ErrorCode.UNAUTHORISED, "Send a valid API token: Authorization: Bearer <token>."
    )
    response["WWW-Authenticate"] = 'Bearer realm="boomsite"'
    return response


def token_caller(request: HttpRequest, method: str) -> User | JsonResponse:
    """The token's user, or the error to answer (another method, no valid token, over the
    token's rate limit). Every endpoint starts here, features' endpoints too."""
    if request.method != method:
        return error_response(ErrorCode.METHOD_NOT_ALLOWED, f"Use {method}.")
    user = _token_user(request)
    if user is None:
        return _unauthorised()
    verdict = rate_limit.take(
        f"api:{_token_key(request)}", limit=API_REQUESTS_PER_WINDOW, window_seconds=API_WINDOW_SECONDS
    )
    if not verdict.allowed:
        response = error_response(
            ErrorCode.RATE_LIMITED,
            f"At most {API_REQUESTS_PER_WINDOW} requests every {API_WINDOW_SECONDS} seconds per token: "
            f"wait {verdict.retry_after} s.",
        )
        response["Retry-After"] = str(verdict.retry_after)
        return response
    return user


def _caller(request: HttpRequest, match_id: int, method: str) -> tuple[User, selectors.Access] | JsonResponse:
    """The token's user and what they may see of the match, or the error to answer."""
    user = token_caller(request, method)
    if isinstance(user, JsonResponse):
        return user
    try:
        return user, selectors.access(match_id, user)
    except selectors.NotVisible:
        return error_response(ErrorCode.NO_SUCH_MATCH, "There is no such match.")


# Answers are one seat's view (and its legal actions): Cache-Control private, no-store.
@csrf_exempt
@never_cache
def match_detail(request: HttpRequest, match_id: int) -> JsonResponse:
    """GET: the caller's view of the match, its ply and the caller's legal actions."""
    caller = _caller(request, match_id, "GET")
    if isinstance(caller, JsonResponse):
        return caller
    return JsonResponse(selectors.api_view(caller[1]))


@csrf_exempt
@never_cache
def match_actions(request: HttpRequest, match_id: int) -> JsonResponse:
    """POST ``{"action": {...}, "ply": n, "action_id": "<uuid>"?}``: play a move."""
    caller = _caller(request, match_id, "POST")
    if isinstance(caller, JsonResponse):
        return caller
    body = read_json_object(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        result = services.match_submit_action(
            match_id=match_id, user=caller[0], action=body.get("action"), ply=body.get("ply"),
            action_id=body.get("action_id"),
        )  # fmt: skip
    except services.MatchError as error:
        return error_response(error.code, str(error))
    return JsonResponse(
        {"ply": result.ply, "duplicate": result.duplicate}, status=200 if result.duplicate else 201
    )


def read_json_object(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    """The request's body as a JSON object, or the error to answer (too large, not JSON,
    not an object). Every endpoint that takes a body reads it so, features' too."""
    raw = _small_body(request)
    if raw is None:
        return error_response(ErrorCode.TOO_LARGE, "A request body is at most 16 KB.")
    try:
        body: Any = parse_json(raw)
    except BadInput as error:
        return error_response(error.code, str(error))
    if not isinstance(body, dict):
        return error_response(ErrorCode.MALFORMED_JSON, "The body must be a JSON object.")
    return body


def _small_body(request: HttpRequest) -> bytes | None:
    """The body, or None when it is over ``MAX_BODY_BYTES``: judged by its declared length
    first, so a large one is never read, and Django's own cap (``RequestDataTooBig``,
    answered with an HTML 400) is the API's 413 too."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    try:
        body = request.body
    except RequestDataTooBig:
        return None
    return body if len(body) <= MAX_BODY_BYTES else None
