"""``GET /api/history``: the caller's finished matches, as the History page lists them
(docs/api.md). Token authentication and the rate limit are the API's own
(``games.api.token_caller``); the filters and the cursor are the page's."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict, cast

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from games.api import READ, MatchResult, Visibility, error_response, token_caller
from games.errors import ErrorCode
from games.history import cursors, selectors
from games.history.forms import HistoryFilterForm
from games.openapi import Query, endpoint
from games.scores_json import result_json


class HistoryPlayer(TypedDict):
    seat: int
    name: str
    is_bot: bool
    rank: int | None
    out: Annotated[Literal["resigned", "timed_out"] | None, "A seat whose player left the game."]


class HistoryNote(TypedDict):
    text: str  # "Autumn Cup: round 2, table 1"
    url: str  # the path of its page


class HistoryMatch(TypedDict):
    id: int
    game: str
    finished_at: str | None
    visibility: Visibility
    seat: Annotated[int, "Yours."]
    rank: Annotated[int | None, "Yours: 1 is best, ties share."]
    outcome: Annotated[selectors.Outcome, "Yours."]
    rated: bool
    players: list[HistoryPlayer]
    result: MatchResult | None
    notes: list[HistoryNote]


class HistoryAnswer(TypedDict):
    matches: list[HistoryMatch]
    next: Annotated[
        str | None,
        "Send it back as `after`, with the same filters, for the next, older page; null on the last.",
    ]


FILTERS = [
    Query("game", "A game's slug."),
    Query(
        "opponent",
        "Part of the name another seat had at the table, or of another player's username or name now; any case.",
    ),
    Query("result", "Your result.", {"enum": ["won", "shared", "lost"]}),
    Query("bots", "Bots at the table or not.", {"enum": ["with", "without"]}),
    Query("rated", "Whether the match counts for ratings.", {"enum": ["yes", "no"]}),
    Query(
        "since",
        "The first day (YYYY-MM-DD, your account's time zone), included.",
        {"type": "string", "format": "date"},
    ),
    Query("until", "The last day (YYYY-MM-DD), included.", {"type": "string", "format": "date"}),
]


@endpoint(
    "GET",
    scope=READ,
    summary="Your finished matches, filtered, 25 at a time",
    answer=HistoryAnswer,
    errors=[ErrorCode.BAD_FILTER, ErrorCode.BAD_CURSOR],
    query=[*FILTERS, Query("after", "The `next` of the page before: opaque and signed.")],
    description="Newest first, what the History page lists, private matches included.",
)
@csrf_exempt
@never_cache
def history_list(request: HttpRequest) -> JsonResponse:
    caller = token_caller(request, "GET", READ)
    if isinstance(caller, JsonResponse):
        return caller
    # Days are the caller's: the time zone of their account (a token has no session).
    form = HistoryFilterForm(request.GET, zone=caller.zone)
    if not form.is_valid():
        return error_response(
            ErrorCode.BAD_CURSOR if form.has_bad_cursor() else ErrorCode.BAD_FILTER, form.error_text()
        )
    page = selectors.history_page(player=caller, viewer=caller, filters=form.filters(), after=form.cursor())
    answer: HistoryAnswer = {
        "matches": [row_data(row) for row in page.rows],
        "next": cursors.encode(page.next_cursor) if page.next_cursor else None,
    }
    return JsonResponse(answer)


def row_data(row: selectors.HistoryRow) -> HistoryMatch:
    match = row.match
    return {
        "id": match.pk,
        "game": match.game,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "visibility": cast(Visibility, match.visibility),
        "seat": row.seat.index,
        "rank": row.seat.rank,
        "outcome": row.outcome,
        "rated": row.is_rated,
        "players": [
            {
                "seat": seat.index,
                "name": seat.public_name,
                "is_bot": bool(seat.user and seat.user.labelled_bot),
                "rank": seat.rank,
                "out": cast(Literal["resigned", "timed_out"], seat.resigned_reason) or None,
            }
            for seat in row.table
        ],
        "result": cast(MatchResult | None, result_json(match.result)),
        # What features say about the match: a tournament's "Autumn Cup: round 2, table 3".
        "notes": [{"text": note.text, "url": note.url} for note in row.notes],
    }
