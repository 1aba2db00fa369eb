"""The challenge API (docs/api.md, "Challenges"): token authentication, the rate limit
and the error format are the API's own (``games.api``).

- ``GET /api/challenges``: the invitations waiting for the caller's answer (challenges
  and every other invitation), and the caller's own challenges waiting for others';
- ``POST /api/challenges``: challenge a player;
- ``POST /api/challenges/<match id>/accept``, ``.../decline``: answer an invitation.

A challenge is its match (``Match.is_challenge``): its id is the match's, and accepting
is joining it. Under ``/api/challenges`` so that a fuller program API can add beside it.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from django.db.models import Prefetch
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from games import services
from games.api import (
    PLAY,
    READ,
    MatchStatus,
    MatchSummary,
    error_response,
    game_of,
    match_summary,
    options_of,
    read_json_object,
    refuse_unexpected,
    site_url,
    time_control_of,
    token_caller,
)
from games.errors import ErrorCode, MatchError
from games.models import Match, Seat
from games.openapi import endpoint
from games.social import services as social_services

# The lists' length: a program polls them, and nobody has more waiting than this to answer.
LISTED = 100


class ChallengeBody(TypedDict):
    """``POST /api/challenges``: ``username`` (any case) and ``game`` (its slug) are required."""

    username: str
    game: str
    options: NotRequired[dict[str, Any] | None]
    time_control: NotRequired[int | None]


class ChallengesAnswer(TypedDict):
    """At most 100 of each, newest first."""

    to_me: list[MatchSummary]  # every invitation waiting for the caller's answer
    by_me: list[MatchSummary]  # the caller's challenges waiting for the other's answer


class ChallengeAnswer(TypedDict):
    challenge: MatchSummary


class AnsweredMatch(TypedDict):
    id: int
    status: MatchStatus
    url: str


class InvitationAnswer(TypedDict):
    match: AnsweredMatch


# The fields of POST /api/challenges.
CHALLENGE_FIELDS = tuple(ChallengeBody.__annotations__)


@endpoint(
    "GET",
    scope=READ,
    summary="Invitations waiting for you, and your challenges",
    answer=ChallengesAnswer,
    description="The invitations waiting for your answer (challenges and seats at larger tables), "
    "and your own challenges waiting for the other's answer.",
    operation_id="get_challenges",
)
@endpoint(
    "POST",
    scope=PLAY,
    summary="Challenge a player",
    body=ChallengeBody,
    answer=ChallengeAnswer,
    status=201,
    errors=[
        ErrorCode.NO_SUCH_PLAYER, ErrorCode.NO_SUCH_GAME, ErrorCode.BAD_OPTION, "unknown_option",
        ErrorCode.BAD_TURN_LIMIT, ErrorCode.NOT_ALLOWED, ErrorCode.BLOCKED, ErrorCode.TOO_MANY_CHALLENGES,
    ],
    description="A private match of two: you seated, the other invited. Challenging a house bot starts "
    "the match at once.",
    operation_id="create_challenge",
)  # fmt: skip
@csrf_exempt
@never_cache
def challenges(request: HttpRequest) -> JsonResponse:
    """GET (read): the lists; POST (play) ``{"username", "game", "options"?, "time_control"?}``: a challenge."""
    if request.method == "POST":
        return _challenge(request)
    caller = token_caller(request, "GET", READ)
    if isinstance(caller, JsonResponse):
        return caller
    answer: ChallengesAnswer = {
        "to_me": [
            match_summary(match)
            for match in _matches(Seat.objects.filter(user=caller, joined_at__isnull=True))
        ],
        "by_me": [
            match_summary(match)
            for match in _matches(Seat.objects.filter(match__created_by=caller, joined_at__isnull=True))
            if match.is_challenge
        ],
    }
    return JsonResponse(answer)


def _matches(waiting: Any) -> list[Match]:
    """The open matches of these unanswered seats, newest first, with their seats: two queries."""
    return list(
        Match.objects.filter(
            status=Match.Status.OPEN, pk__in=waiting.filter(user__isnull=False).values("match_id")
        )
        .select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at", "-pk")[:LISTED]
    )


def _challenge(request: HttpRequest) -> JsonResponse:
    caller = token_caller(request, "POST", PLAY)
    if isinstance(caller, JsonResponse):
        return caller
    body = read_json_object(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        refuse_unexpected(body, CHALLENGE_FIELDS)
        username = body.get("username")
        if not isinstance(username, str) or not username.strip():
            raise MatchError(ErrorCode.NO_SUCH_PLAYER, 'Name the player to challenge: "username".')
        game, options, time_control = game_of(body), options_of(body), time_control_of(body)
        challenged = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
        if challenged is None:
            raise MatchError(
                ErrorCode.NO_SUCH_PLAYER, f"There is no player called {username.strip()[:40]!r}."
            )
        match = social_services.challenge(
            challenger=caller, challenged=challenged, game_slug=game, options=options, turn_limit=time_control
        )
    except MatchError as error:
        return error_response(error.code, str(error))
    answer: ChallengeAnswer = {"challenge": match_summary(_read(match.pk))}
    return JsonResponse(answer, status=201)


def _read(match_id: int) -> Match:
    """The match again, as ``match_summary`` reads it: two queries."""
    return (
        Match.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .get(pk=match_id)
    )


def _answer(service: Any) -> Any:
    @csrf_exempt
    @never_cache
    def view(request: HttpRequest, match_id: int) -> JsonResponse:
        caller = token_caller(request, "POST", PLAY)
        if isinstance(caller, JsonResponse):
            return caller
        # An answer is the invitee's: joining someone's open seat is not accepting anything.
        if not Seat.objects.filter(match_id=match_id, user=caller, joined_at__isnull=True).exists():
            return error_response(ErrorCode.NOT_INVITED, "You have no invitation to this match.")
        try:
            match = service(match_id=match_id, user=caller)
        except MatchError as error:
            return error_response(error.code, str(error))
        match.refresh_from_db()
        answer: InvitationAnswer = {
            "match": {"id": match.pk, "status": cast(MatchStatus, match.status), "url": site_url(match)}
        }
        return JsonResponse(answer)

    return view


# Accepting is joining: the match starts once every seat is taken.
_ANSWER_ERRORS = [ErrorCode.NOT_INVITED, ErrorCode.NOT_OPEN, ErrorCode.MATCH_FULL, ErrorCode.BLOCKED]
accept = endpoint(
    "POST",
    scope=PLAY,
    summary="Accept an invitation: take your seat",
    answer=InvitationAnswer,
    errors=_ANSWER_ERRORS,
    description="No body. The match starts when every seat is taken. Works on any invitation of yours.",
    operation_id="accept_invitation",
)(_answer(services.match_join))
decline = endpoint(
    "POST",
    scope=PLAY,
    summary="Decline an invitation: give up your seat",
    answer=InvitationAnswer,
    errors=_ANSWER_ERRORS,
    description="No body. Your seat becomes an open one. Works on any invitation of yours.",
    operation_id="decline_invitation",
)(_answer(services.match_decline))
