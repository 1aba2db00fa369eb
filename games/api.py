"""The JSON API for programs, documented in docs/api.md.

Authentication is a personal token only (``Authorization: Bearer <token>``, made on
the account page), never the session cookie: so these endpoints need no CSRF
token and a browser cannot be tricked into calling them. Errors are
``{"error": {"code", "message"}}`` with a fitting HTTP status.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from accounts.models import ApiScope, ApiToken, User
from accounts.services import api_token_find
from boomsite import rate_limit
from games import clocks, selectors, services
from games.errors import ErrorCode, MatchError, http_status
from games.inputs import BadInput, parse_json
from games.models import Match
from games.openapi import endpoint
from games.scores_json import result_json

MAX_BODY_BYTES = 16 * 1024
# Per token (**Decision**): a program polling every second and playing as fast as a
# person clicks stays far inside; a flood (the security test sent 400 at 100/s) is
# answered 429 with Retry-After.
API_REQUESTS_PER_WINDOW = 60
API_WINDOW_SECONDS = 20

# The scopes a token may hold (docs/api.md, "Scopes"): each endpoint names the one it needs.
PLAY, READ, EXPORT = ApiScope.PLAY.value, ApiScope.READ.value, ApiScope.EXPORT.value


def error_response(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused before its endpoint reads anything: the error to answer,
    with its headers (``WWW-Authenticate``, the RateLimit fields, ``Retry-After``)."""

    code: str
    message: str
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def status(self) -> int:
        return http_status(self.code)

    def response(self) -> JsonResponse:
        response = error_response(self.code, self.message)
        for name, value in self.headers.items():
            response[name] = value
        return response


@dataclass(frozen=True)
class Caller:
    """A request's valid token, counted: its user, the token, and the counter's verdict
    (for the RateLimit header fields of the answer)."""

    user: User
    token: ApiToken
    verdict: rate_limit.Verdict


def bearer_secret(authorization: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header's value, or None."""
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return secret.strip()


def identify(authorization: str) -> Caller | Refusal:
    """The caller of a request with this ``Authorization`` header, counted against its
    token's rate limit; or the refusal (no valid token: 401; over the limit: 429). Any
    method, any scope: ``authorise`` adds the scope. Synchronous (it reads the database):
    a Channels consumer calls it through ``database_sync_to_async``."""
    secret = bearer_secret(authorization)
    token = api_token_find(secret) if secret else None
    if token is None or secret is None:
        return Refusal(
            ErrorCode.UNAUTHORISED,
            "Send a valid API token: Authorization: Bearer <token>.",
            {"WWW-Authenticate": 'Bearer realm="boomsite"'},
        )
    verdict = rate_limit.take(
        f"api:{rate_limit.key_of(secret)}", limit=API_REQUESTS_PER_WINDOW, window_seconds=API_WINDOW_SECONDS
    )
    if not verdict.allowed:
        return Refusal(
            ErrorCode.RATE_LIMITED,
            f"At most {API_REQUESTS_PER_WINDOW} requests every {API_WINDOW_SECONDS} seconds per token: "
            f"wait {verdict.retry_after} s.",
            rate_limit.headers(verdict),
        )
    return Caller(token.user, token, verdict)


def missing_scope(caller: Caller, scope: str) -> Refusal | None:
    """The refusal of a token without ``scope`` (403 ``missing_scope``, naming it)."""
    if caller.token.allows(scope):
        return None
    return Refusal(
        ErrorCode.MISSING_SCOPE,
        f'This token lacks the "{scope}" scope (it has: {", ".join(caller.token.scope_names)}). '
        f'Make a token with "{scope}" on your account page (Account, API tokens).',
        rate_limit.headers(caller.verdict),
    )


def authorise(authorization: str, scope: str) -> Caller | Refusal:
    """``identify``, then the scope: the whole check a consumer needs (docs/api.md)."""
    caller = identify(authorization)
    if isinstance(caller, Refusal):
        return caller
    return missing_scope(caller, scope) or caller


def token_user_with_scope(request: HttpRequest, scope: str) -> User | JsonResponse:
    """The request's token's user, if the token holds ``scope``; or the error to answer.
    The request is counted, and its verdict kept for the answer's RateLimit headers."""
    caller = identify(request.headers.get("Authorization", ""))
    return _checked(request, caller, None, scope)


def token_caller(request: HttpRequest, method: str, scope: str | None = None) -> User | JsonResponse:
    """The token's user, or the error to answer: no valid token (401), over the token's
    rate limit (429), another method (405), a token without ``scope`` (403). Every
    endpoint starts here, features' endpoints too. ``scope`` left out: ``read`` for a
    GET, ``play`` otherwise, what every token could do before scopes."""
    caller = identify(request.headers.get("Authorization", ""))
    return _checked(request, caller, method, scope or (READ if method == "GET" else PLAY))


def _checked(
    request: HttpRequest, caller: Caller | Refusal, method: str | None, scope: str
) -> User | JsonResponse:
    if isinstance(caller, Refusal):
        return caller.response()
    rate_limit.remember(request, caller.verdict)
    if method is not None and request.method != method:
        refused = error_response(ErrorCode.METHOD_NOT_ALLOWED, f"Use {method}.")
        refused["Allow"] = method
        return refused
    refusal = missing_scope(caller, scope)
    return refusal.response() if refusal else caller.user


def peek(request: HttpRequest) -> rate_limit.Verdict | None:
    """The request's token's counter as it stands, not counted: for the RateLimit
    headers of an answer no endpoint made (``boomsite/rate_limit.py``)."""
    secret = bearer_secret(request.headers.get("Authorization", ""))
    if secret is None:
        return None
    return rate_limit.peek(
        f"api:{rate_limit.key_of(secret)}", limit=API_REQUESTS_PER_WINDOW, window_seconds=API_WINDOW_SECONDS
    )


def _caller(
    request: HttpRequest, match_id: int, method: str, scope: str
) -> tuple[User, selectors.Access] | JsonResponse:
    """The token's user and what they may see of the match, or the error to answer."""
    user = token_caller(request, method, scope)
    if isinstance(user, JsonResponse):
        return user
    try:
        return user, selectors.access(match_id, user)
    except selectors.NotVisible:
        return error_response(ErrorCode.NO_SUCH_MATCH, "There is no such match.")


# -- the shapes of the answers (docs/api.md; /api/openapi.json is built from them) -----

MatchStatus = Literal["open", "running", "finished", "cancelled"]  # Match.Status
Visibility = Literal["public", "private"]  # Match.Visibility


class MatchResult(TypedDict):
    """A finished match's result, per seat: ``ranks`` (1 is best, ties share), ``scores``
    (null for a match ended by resignations), ``won`` in cooperative games, the seats
    that ``resigned``."""

    scores: list[int | float] | None
    ranks: list[int]
    won: NotRequired[bool]
    resigned: NotRequired[list[int]]


class ViewPlayer(TypedDict):
    seat: int
    name: str  # as the match shows it, fixed for the match ("Basic Bot A")
    is_bot: bool
    resigned: bool


class MatchDocument(TypedDict):
    """``GET /api/matches/<id>``: the match as the caller's seat sees it
    (``selectors.api_view``), or the public view of a public match they watch."""

    id: int
    game: str
    status: MatchStatus
    ply: Annotated[int, "How many moves have been made: send it back with your move."]
    options: dict[str, Any]
    seat: Annotated[int | None, "Your seat, or null when you watch."]
    players: list[ViewPlayer]
    to_act: Annotated[list[int], "The seats that owe a decision now."]
    view: Annotated[
        dict[str, Any] | None,
        "The game's view for your seat (null while the match is open): its shape is each game's, "
        "described field by field at /api/games/<game>/ and as a JSON Schema at "
        "/api/schemas/<game>/view.json.",
    ]
    legal_actions: Annotated[
        list[dict[str, Any]],
        "What you may play now, each an object of the game's (/api/games/<game>/; its JSON "
        "Schema: /api/schemas/<game>/action.json); "
        "empty when it is not your turn.",
    ]
    result: MatchResult | None


class SeatSummary(TypedDict):
    seat: int
    username: str | None  # null: an open seat
    name: str
    is_bot: bool
    answered: Annotated[bool, "The seat is taken (false: an invitation not yet answered, or an open seat)."]


# Functional: "from" is a Python keyword.
MatchSummary = TypedDict(
    "MatchSummary",
    {
        "id": int,
        "challenge": bool,
        "game": str,
        "options": dict[str, Any],
        "time_control": Annotated[int | None, "Seconds per turn, or null for no limit."],
        "visibility": Visibility,
        "status": MatchStatus,
        "ply": int,
        "from": Annotated[str, "The username of who made the match."],
        "players": list[SeatSummary],
        "created_at": str,
        "finished_at": str | None,
        "result": MatchResult | None,
        "url": str,
    },
)


# Answers are one seat's view (and its legal actions): Cache-Control private, no-store.
@endpoint(
    "GET",
    scope=READ,
    summary="A match as your seat sees it, with your legal actions",
    answer=MatchDocument,
    errors=[ErrorCode.NO_SUCH_MATCH],
)
@csrf_exempt
@never_cache
def match_detail(request: HttpRequest, match_id: int) -> JsonResponse:
    """GET: the caller's view of the match, its ply and the caller's legal actions."""
    caller = _caller(request, match_id, "GET", READ)
    if isinstance(caller, JsonResponse):
        return caller
    return JsonResponse(selectors.api_view(caller[1]))


class ActionBody(TypedDict):
    """``POST /api/matches/<id>/actions``."""

    action: dict[str, Any]  # one of the view's legal_actions, as given
    ply: int  # the ply decided at
    action_id: NotRequired[str]  # a UUID: a resent move is answered, not played twice


class ActionAnswer(TypedDict):
    ply: int
    duplicate: bool  # True (status 200): the answer to the same move sent before


@endpoint(
    "POST",
    scope=PLAY,
    summary="Play a move",
    body=ActionBody,
    answer=ActionAnswer,
    status=201,
    other_successes={200: "The same move sent again (the same action_id): the first answer, duplicate true"},
    errors=[
        ErrorCode.NO_SUCH_MATCH, ErrorCode.BAD_PLY, ErrorCode.BAD_ACTION_ID, ErrorCode.STALE_PLY,
        ErrorCode.NOT_YOUR_TURN, ErrorCode.NOT_YOUR_SEAT, ErrorCode.RESIGNED, ErrorCode.GAME_OVER,
        ErrorCode.NOT_RUNNING, ErrorCode.ACTION_ID_TAKEN, ErrorCode.ACTION_ID_REUSED,
        ErrorCode.MALFORMED_ACTION, "unknown_action", "missing_field", "bad_field", "out_of_range",
    ],
)  # fmt: skip
@csrf_exempt
@never_cache
def match_actions(request: HttpRequest, match_id: int) -> JsonResponse:
    """POST ``{"action": {...}, "ply": n, "action_id": "<uuid>"?}``: play a move.

    ``action`` is one of the match's ``legal_actions``, as given; ``ply`` the one decided
    at (a match that moved on refuses it: ``stale_ply``); ``action_id`` a UUID of yours,
    so that a move sent again after a lost answer is answered, not played twice. Each
    game refuses its own illegal actions with codes of its own (docs/games/<game>.md).
    """
    caller = _caller(request, match_id, "POST", PLAY)
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
    answer: ActionAnswer = {"ply": result.ply, "duplicate": result.duplicate}
    return JsonResponse(answer, status=200 if result.duplicate else 201)


# -- what requests share: their fields, checked once for every endpoint -------------

# The time control of a match or challenge that names none: the lobby's and the form's,
# a day per turn (**Decision**, issue 34: a match with no limit can stall forever).
DEFAULT_TIME_CONTROL = clocks.DAY


def refuse_unexpected(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """A field the endpoint has no place for is refused, named (a misspelt
    ``"time_limit"`` would else be ignored and its default silently taken)."""
    unexpected = sorted(str(name)[:40] for name in body if name not in allowed)
    if unexpected:
        raise MatchError(
            ErrorCode.UNEXPECTED_FIELD,
            f"No field {', '.join(map(repr, unexpected))} here: the fields are {', '.join(allowed)}.",
        )


def game_of(body: dict[str, Any]) -> str:
    """The required ``"game"``, a slug (the engine says whether it is a game)."""
    game = body.get("game")
    if not isinstance(game, str) or not game:
        raise MatchError(
            ErrorCode.NO_SUCH_GAME,
            'Name the game: "game", its slug (as in /play/<slug>/).',
        )
    return game


def time_control_of(body: dict[str, Any]) -> int | None:
    """``"time_control"``: seconds per turn, one of the site's (``clocks``), or null for
    none; left out, ``DEFAULT_TIME_CONTROL``."""
    time_control = body.get("time_control", DEFAULT_TIME_CONTROL)
    if time_control is not None and (
        type(time_control) is not int or not clocks.is_time_control(time_control)
    ):
        raise MatchError(
            ErrorCode.BAD_TURN_LIMIT,
            '"time_control" is seconds per turn: 300, 3600 or 1 to 14 whole days (86400 each), or null for none.',
        )
    return time_control


def options_of(body: dict[str, Any]) -> Any:
    """``"options"``, an object of the game's options (left out or null: its defaults):
    the game checks it and names a bad one (``bad_option``, ``unknown_option``)."""
    return body.get("options")


def site_url(match: Match) -> str:
    return f"{settings.SITE_URL}{reverse('match', args=[match.pk])}"


def match_summary(match: Match) -> MatchSummary:
    """A match as the API's lists give it (``MatchSummary`` in docs/api.md): read with
    its ``created_by`` and its seats' users (``selectors`` lists do), no query here."""
    return {
        "id": match.pk,
        "challenge": match.is_challenge,
        "game": match.game,
        "options": match.options,
        "time_control": match.turn_limit,
        "visibility": cast(Visibility, match.visibility),
        "status": cast(MatchStatus, match.status),
        "ply": match.ply,
        "from": match.created_by.username,
        "players": [
            {
                "seat": seat.index,
                "username": seat.user.username if seat.user else None,
                "name": seat.public_name,
                "is_bot": bool(seat.user and seat.user.labelled_bot),
                "answered": seat.joined_at is not None,
            }
            for seat in match.seats.all()
        ],
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "result": cast(MatchResult | None, result_json(match.result)),
        "url": site_url(match),
    }


def read_json_object(request: HttpRequest, *, optional: bool = False) -> dict[str, Any] | JsonResponse:
    """The request's body as a JSON object, or the error to answer (too large, not JSON,
    not an object). Every endpoint that takes a body reads it so, features' too.
    ``optional``: an endpoint whose body may be left out, where nothing sent (or JSON's
    ``null``) is ``{}``."""
    raw = _small_body(request)
    if raw is None:
        return error_response(ErrorCode.TOO_LARGE, "A request body is at most 16 KB.")
    if optional and raw.strip() in (b"", b"null"):
        return {}
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
