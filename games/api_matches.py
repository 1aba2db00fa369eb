"""The API's matches beyond one match's view and moves (docs/api.md): what a program
needs to play on its own, by token, with the pages' services and rules.

- ``GET /api/games`` (read): the games, their options, seats and bot levels, the time controls;
- ``GET /api/matches`` (read): my matches, as "My matches" lists them;
- ``POST /api/matches`` (play): a new match (me, bots, invited players, open seats);
- ``GET /api/lobby`` (read): public matches with a seat open;
- ``POST /api/matches/<id>/join``, ``/leave``, ``/resign``, ``/chat`` (play).

Authentication, scopes, the rate limit and the error format are ``games.api``'s; every
write is a service's (``games.services``), which refuses with a ``MatchError`` and then
has changed nothing. Each body and answer is declared below as a ``TypedDict``, the
shape docs/api.md shows.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from django.conf import settings
from django.db.models import Prefetch
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from games import selectors, services
from games.api import (
    DEFAULT_TIME_CONTROL,
    PLAY,
    READ,
    MatchSummary,
    error_response,
    game_of,
    match_summary,
    options_of,
    read_json_object,
    refuse_unexpected,
    time_control_of,
    token_caller,
)
from games.bots import levels_for
from games.engine import all_games
from games.errors import ErrorCode, MatchError
from games.forms import TIME_CONTROLS, default_seats, seat_choices, seat_request
from games.models import ChatMessage, Match, Seat
from games.openapi import Query, endpoint
from games.services import SeatRequest
from games.services.common import engine_for

# -- the declared shapes (docs/api.md) ------------------------------------------------


class CreateBody(TypedDict):
    """``POST /api/matches``: only ``game`` is required."""

    game: str
    seats: NotRequired[list[str | dict[str, str]]]  # "me", "open", "bot-<level>", {"invite": "<username>"}
    options: NotRequired[dict[str, Any] | None]
    time_control: NotRequired[int | None]
    visibility: NotRequired[str]  # "public" or "private"


class JoinBody(TypedDict):
    """``POST /api/matches/<id>/join``: no body, or the private match's invitation token."""

    invite: NotRequired[str]


class ChatBody(TypedDict):
    text: str


class MatchAnswer(TypedDict):
    """Create, join, leave, resign: the match as the lists give it (``games.api.match_summary``)."""

    match: MatchSummary


class YourTurnSummary(MatchSummary):
    deadline: Annotated[
        str | None, "When your turn's time runs out; null: no limit, or paused by your vacation."
    ]


class MyMatchesAnswer(TypedDict):
    """What My matches lists: the most urgent first; ``finished`` and ``watching``, the last 10."""

    your_turn: list[YourTurnSummary]
    waiting: list[MatchSummary]
    invitations: list[MatchSummary]
    open: list[MatchSummary]
    finished: list[MatchSummary]
    watching: list[MatchSummary]


class LobbyAnswer(TypedDict):
    matches: list[MatchSummary]


class ChatMessageData(TypedDict):
    id: int
    name: str
    text: str
    created_at: str


class ChatAnswer(TypedDict):
    message: ChatMessageData


class GameOption(TypedDict):
    """One of a game's options (``games.engine.options``): ``kind`` ``int`` (from
    ``minimum`` to ``maximum``), ``choice`` (one of ``choices``) or ``bool``."""

    name: str
    label: str
    kind: Literal["int", "choice", "bool"]
    default: int | str | bool
    help: str
    choices: NotRequired[list[str]]
    minimum: NotRequired[int]
    maximum: NotRequired[int]


class GameData(TypedDict):
    slug: str
    name: str
    min_players: int
    max_players: int
    cooperative: bool
    rated: bool
    seats: list[str]  # what a seat may be: "me", "open", "invite", "bot-<level>"
    default_seats: list[str]
    bot_levels: list[str]
    options: list[GameOption]
    url: str


class GamesAnswer(TypedDict):
    games: list[GameData]
    time_controls: list[int | None]
    default_time_control: int | None


CREATE_FIELDS = tuple(CreateBody.__annotations__)
JOIN_FIELDS = tuple(JoinBody.__annotations__)
CHAT_FIELDS = tuple(ChatBody.__annotations__)
# The lobby's list: what the play page shows.
LOBBY_SIZE = 50


# -- the games ------------------------------------------------------------------------


@endpoint(
    "GET",
    scope=READ,
    summary="The games, their options, seats and bot levels; the time controls",
    answer=GamesAnswer,
)
@csrf_exempt
@never_cache
def games(request: HttpRequest) -> JsonResponse:
    """GET (read): every game with what a request to create a match may say of it."""
    caller = token_caller(request, "GET", READ)
    if isinstance(caller, JsonResponse):
        return caller
    answer: GamesAnswer = {
        "games": [_game_data(game) for game in all_games()],
        "time_controls": TIME_CONTROLS,
        "default_time_control": DEFAULT_TIME_CONTROL,
    }
    return JsonResponse(answer)


def _game_data(game: Any) -> GameData:
    return {
        "slug": game.slug,
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "cooperative": game.is_cooperative,
        "rated": game.is_rated and not game.is_cooperative,
        "seats": [value for value, _ in seat_choices(game) if value],
        "default_seats": default_seats(game),
        "bot_levels": list(levels_for(game)),
        "options": [cast(GameOption, option.as_data()) for option in game.options],
        "url": f"{settings.SITE_URL}{reverse('game_detail', args=[game.slug])}",
    }


# -- lists ----------------------------------------------------------------------------


@endpoint(
    "GET",
    scope=READ,
    summary="Your matches: your turn, waiting, invitations, open, finished, watching",
    answer=MyMatchesAnswer,
    description="My matches, each a match summary.",
    operation_id="get_my_matches",
)
@endpoint(
    "POST",
    scope=PLAY,
    summary="Create a match",
    body=CreateBody,
    answer=MatchAnswer,
    status=201,
    errors=[
        ErrorCode.NO_SUCH_GAME, ErrorCode.BAD_OPTION, "unknown_option", ErrorCode.BAD_TURN_LIMIT,
        ErrorCode.BAD_VISIBILITY, ErrorCode.BAD_SEAT, ErrorCode.NO_SUCH_BOT, ErrorCode.NO_SUCH_PLAYER,
        ErrorCode.INVITED_TWICE, ErrorCode.SEAT_YOURSELF, ErrorCode.BAD_PLAYER_COUNT, ErrorCode.BLOCKED,
    ],
    description=(
        "Only `game` is required. The match starts at once when every seat is taken (bots and you "
        "only); otherwise it waits, with status `open`."
    ),
    operation_id="create_match",
)  # fmt: skip
@csrf_exempt
@never_cache
def matches(request: HttpRequest) -> JsonResponse:
    """GET (read): my matches; POST (play): a new match."""
    if request.method == "POST":
        return _create(request)
    caller = token_caller(request, "GET", READ)
    if isinstance(caller, JsonResponse):
        return caller
    dashboard = selectors.dashboard(caller)
    answer: MyMatchesAnswer = {
        "your_turn": [
            {**match_summary(match), "deadline": _when(getattr(match, "my_deadline", None))}
            for match in dashboard.your_turn
        ],
        "waiting": [match_summary(match) for match in dashboard.waiting],
        "invitations": [match_summary(match) for match in dashboard.invitations],
        "open": [match_summary(match) for match in dashboard.open],
        "finished": [match_summary(match) for match in dashboard.finished],
        "watching": [match_summary(match) for match in dashboard.watching],
    }
    return JsonResponse(answer)


def _when(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


@endpoint(
    "GET",
    scope=READ,
    summary="Public matches with a seat open",
    answer=LobbyAnswer,
    errors=[ErrorCode.NO_SUCH_GAME],
    query=[Query("game", "Only this game's matches (its slug).")],
)
@csrf_exempt
@never_cache
def lobby(request: HttpRequest) -> JsonResponse:
    """GET (read) ``?game=<slug>``: public matches with a seat anyone may take, newest first."""
    caller = token_caller(request, "GET", READ)
    if isinstance(caller, JsonResponse):
        return caller
    game = request.GET.get("game") or None
    if game is not None and game not in {known.slug for known in all_games()}:
        return error_response(
            ErrorCode.NO_SUCH_GAME, f"There is no game {game[:40]!r}: GET /api/games lists them."
        )
    answer: LobbyAnswer = {
        "matches": [match_summary(match) for match in selectors.open_public_matches(game, limit=LOBBY_SIZE)]
    }
    return JsonResponse(answer)


# -- writes ---------------------------------------------------------------------------


def _create(request: HttpRequest) -> JsonResponse:
    caller = token_caller(request, "POST", PLAY)
    if isinstance(caller, JsonResponse):
        return caller
    body = read_json_object(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        refuse_unexpected(body, CREATE_FIELDS)
        game = game_of(body)
        options, time_control = options_of(body), time_control_of(body)
        visibility = body.get("visibility", Match.Visibility.PUBLIC)
        if visibility not in Match.Visibility.values:
            raise MatchError(ErrorCode.BAD_VISIBILITY, '"visibility" is "public" or "private".')
        seats = _seats_of(body, game)
        match = services.match_create(
            creator=caller,
            game_slug=game,
            options=options,
            seats=seats,
            visibility=str(visibility),
            turn_limit=time_control,
        )
    except MatchError as error:
        return error_response(error.code, str(error))
    return _match_answer(match.pk, status=201)


SEAT_WORDS = '"me", "open", "bot-random", "bot-basic", "bot-expert" or {"invite": "<username>"}'


def _seats_of(body: dict[str, Any], game_slug: str) -> list[SeatRequest]:
    """``"seats"``, in seat order; left out, the game's ``default_seats`` (as the lobby's
    form starts). Each bad one is named by its place; whether the seats suit the game
    (their count, the bot levels, the players) is the service's to say."""
    if "seats" not in body:
        return [_seat(choice, index) for index, choice in enumerate(default_seats(engine_for(game_slug)))]
    seats = body["seats"]
    if not isinstance(seats, list) or not seats:
        raise MatchError(ErrorCode.BAD_SEAT, f'"seats" is a list of seats, each {SEAT_WORDS}.')
    return [_seat(seat, index) for index, seat in enumerate(seats)]


def _seat(seat: Any, index: int) -> SeatRequest:
    request: SeatRequest | None = None
    if isinstance(seat, str) and seat != "invite":
        request = seat_request(seat)
    elif (
        isinstance(seat, dict)
        and list(seat) == ["invite"]
        and isinstance(seat["invite"], str)
        and seat["invite"].strip()
    ):
        request = seat_request("invite", seat["invite"])
    if request is None:
        shown = repr(seat) if len(repr(seat)) <= 40 else repr(seat)[:37] + "..."
        raise MatchError(
            ErrorCode.BAD_SEAT, f"Seat {index + 1} ({shown}) is none of the seats: each is {SEAT_WORDS}."
        )
    return request


def _visible(match_id: int, user: User, invite: str | None = None) -> MatchError | None:
    """A match the caller may not see is no match (ids are guessable), as on the pages."""
    try:
        selectors.access(match_id, user, invite=invite, with_state=False)
    except selectors.NotVisible:
        return MatchError(ErrorCode.NO_SUCH_MATCH, "There is no such match.")
    return None


@endpoint(
    "POST",
    scope=PLAY,
    summary="Take your invited seat, or an open one",
    body=JoinBody,
    body_required=False,
    answer=MatchAnswer,
    errors=[
        ErrorCode.NO_SUCH_MATCH, ErrorCode.NOT_OPEN, ErrorCode.ALREADY_SEATED, ErrorCode.MATCH_FULL,
        ErrorCode.BLOCKED,
    ],
)  # fmt: skip
@csrf_exempt
@never_cache
def join(request: HttpRequest, match_id: int) -> JsonResponse:
    """POST (play) ``{"invite"?}``: take my invited seat, or else an open one."""
    caller = token_caller(request, "POST", PLAY)
    if isinstance(caller, JsonResponse):
        return caller
    body = read_json_object(request, optional=True)
    if isinstance(body, JsonResponse):
        return body
    try:
        refuse_unexpected(body, JOIN_FIELDS)
        invite = body.get("invite")
        if invite is not None and not isinstance(invite, str):
            raise MatchError(
                ErrorCode.NO_SUCH_MATCH, '"invite" is the token of a private match\'s invitation link.'
            )
        refusal = _visible(match_id, caller, invite)
        if refusal is not None:
            raise refusal
        services.match_join(match_id=match_id, user=caller, invite=invite)
    except MatchError as error:
        return error_response(error.code, str(error))
    return _match_answer(match_id)


def _seat_action(service: Any) -> Any:
    """``leave`` and ``resign``: no body, the caller's seat."""

    @csrf_exempt
    @never_cache
    def view(request: HttpRequest, match_id: int) -> JsonResponse:
        caller = token_caller(request, "POST", PLAY)
        if isinstance(caller, JsonResponse):
            return caller
        body = read_json_object(request, optional=True)
        if isinstance(body, JsonResponse):
            return body
        try:
            refuse_unexpected(body, ())
            refusal = _visible(match_id, caller)
            if refusal is not None:
                raise refusal
            service(match_id=match_id, user=caller)
        except MatchError as error:
            return error_response(error.code, str(error))
        # Leaving a private match may leave nothing to see: the answer says only what it is now.
        return _match_answer(match_id)

    return view


# Leave an open match (its creator leaving cancels it); resign a running one.
leave = endpoint(
    "POST",
    scope=PLAY,
    summary="Leave a match that has not started",
    answer=MatchAnswer,
    errors=[ErrorCode.NO_SUCH_MATCH, ErrorCode.NOT_SEATED, ErrorCode.NOT_OPEN],
    description="No body. Your seat becomes open again; the match's maker leaving cancels it.",
    operation_id="leave_match",
)(_seat_action(services.match_leave))
resign = endpoint(
    "POST",
    scope=PLAY,
    summary="Resign from a running match",
    answer=MatchAnswer,
    errors=[ErrorCode.NO_SUCH_MATCH, ErrorCode.NOT_PLAYING, ErrorCode.RESIGNED],
    description=(
        "No body. Your seat ranks last and the autopilot plays it, unless too few players are left, "
        "which ends the match."
    ),
    operation_id="resign_match",
)(_seat_action(services.match_resign))


@endpoint(
    "POST",
    scope=PLAY,
    summary="Say something in the match's chat",
    body=ChatBody,
    answer=ChatAnswer,
    status=201,
    errors=[
        ErrorCode.NO_SUCH_MATCH, ErrorCode.EMPTY_MESSAGE, ErrorCode.MESSAGE_TOO_LONG, ErrorCode.BAD_TEXT,
        ErrorCode.NOT_YOUR_SEAT, ErrorCode.CHAT_CLOSED,
    ],
)  # fmt: skip
@csrf_exempt
@never_cache
def chat(request: HttpRequest, match_id: int) -> JsonResponse:
    """POST (play) ``{"text"}``: a message to the match's chat."""
    caller = token_caller(request, "POST", PLAY)
    if isinstance(caller, JsonResponse):
        return caller
    body = read_json_object(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        refuse_unexpected(body, CHAT_FIELDS)
        refusal = _visible(match_id, caller)
        if refusal is not None:
            raise refusal
        message = services.chat_post(match_id=match_id, user=caller, text=body.get("text"))
    except MatchError as error:
        return error_response(error.code, str(error))
    answer: ChatAnswer = {"message": _message_data(message)}
    return JsonResponse(answer, status=201)


def _message_data(message: ChatMessage) -> ChatMessageData:
    return {
        "id": message.pk,
        "name": message.author_name,
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def _match_answer(match_id: int, *, status: int = 200) -> JsonResponse:
    match = (
        Match.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .get(pk=match_id)
    )
    answer: MatchAnswer = {"match": match_summary(match)}
    return JsonResponse(answer, status=status)
