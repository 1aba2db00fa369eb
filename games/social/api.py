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

from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from games import clocks, services
from games.api import error_response, read_json_object, token_caller
from games.errors import ErrorCode, MatchError
from games.models import Match, Seat
from games.social import services as social_services

# The time control of a challenge that names none: the lobby's and the form's, a day per turn.
DEFAULT_TIME_CONTROL = clocks.DAY
# The lists' length: a program polls them, and nobody has more waiting than this to answer.
LISTED = 100


@csrf_exempt
@never_cache
def challenges(request: HttpRequest) -> JsonResponse:
    """GET: the lists; POST ``{"username", "game", "options"?, "time_control"?}``: a challenge."""
    if request.method == "POST":
        return _challenge(request)
    caller = token_caller(request, "GET")
    if isinstance(caller, JsonResponse):
        return caller
    return JsonResponse(
        {
            "to_me": [
                _data(match) for match in _matches(Seat.objects.filter(user=caller, joined_at__isnull=True))
            ],
            "by_me": [
                _data(match)
                for match in _matches(Seat.objects.filter(match__created_by=caller, joined_at__isnull=True))
                if match.is_challenge
            ],
        }
    )


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
    caller = token_caller(request, "POST")
    if isinstance(caller, JsonResponse):
        return caller
    body = read_json_object(request)
    if isinstance(body, JsonResponse):
        return body
    username, game = body.get("username"), body.get("game")
    if not isinstance(username, str) or not username.strip():
        return error_response(ErrorCode.NO_SUCH_PLAYER, 'Name the player to challenge: "username".')
    if not isinstance(game, str) or not game:
        return error_response(
            ErrorCode.NO_SUCH_GAME, 'Name the game: "game", its slug (as in /play/<slug>/).'
        )
    time_control = body.get("time_control", DEFAULT_TIME_CONTROL)
    if time_control is not None and (
        type(time_control) is not int or not clocks.is_time_control(time_control)
    ):
        return error_response(
            ErrorCode.BAD_TURN_LIMIT,
            '"time_control" is seconds per turn: 300, 3600 or 1 to 14 whole days (86400 each), or null for none.',
        )
    challenged = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if challenged is None:
        return error_response(
            ErrorCode.NO_SUCH_PLAYER, f"There is no player called {username.strip()[:40]!r}."
        )
    try:
        match = social_services.challenge(
            challenger=caller,
            challenged=challenged,
            game_slug=game,
            options=body.get("options"),
            turn_limit=time_control,
        )
    except MatchError as error:
        return error_response(error.code, str(error))
    return JsonResponse({"challenge": _data(Match.objects.get(pk=match.pk))}, status=201)


def _answer(service: Any) -> Any:
    @csrf_exempt
    @never_cache
    def view(request: HttpRequest, match_id: int) -> JsonResponse:
        caller = token_caller(request, "POST")
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
        return JsonResponse({"match": {"id": match.pk, "status": match.status, "url": _url(match)}})

    return view


# Accepting is joining: the match starts once every seat is taken.
accept = _answer(services.match_join)
decline = _answer(services.match_decline)


def _url(match: Match) -> str:
    return f"{settings.SITE_URL}{reverse('match', args=[match.pk])}"


def _data(match: Match) -> dict[str, Any]:
    seats = list(match.seats.all())
    return {
        "id": match.pk,
        "challenge": match.is_challenge,
        "game": match.game,
        "options": match.options,
        "time_control": match.turn_limit,
        "status": match.status,
        "from": match.created_by.username,
        "players": [
            {
                "seat": seat.index,
                "username": seat.user.username if seat.user else None,
                "name": seat.public_name,
                "is_bot": bool(seat.user and seat.user.is_bot),
                "answered": seat.joined_at is not None,
            }
            for seat in seats
        ],
        "created_at": match.created_at.isoformat(),
        "url": _url(match),
    }
