"""``GET /api/history``: the caller's finished matches, as the History page lists them
(docs/api.md). Token authentication and the rate limit are the API's own
(``games.api.token_caller``); the filters and the cursor are the page's."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from games.api import error_response, token_caller
from games.errors import ErrorCode
from games.history import cursors, selectors
from games.history.forms import HistoryFilterForm
from games.scores_json import result_json


@csrf_exempt
@never_cache
def history_list(request: HttpRequest) -> JsonResponse:
    caller = token_caller(request, "GET")
    if isinstance(caller, JsonResponse):
        return caller
    # Days are the caller's: the time zone of their account (a token has no session).
    form = HistoryFilterForm(request.GET, zone=caller.zone)
    if not form.is_valid():
        return error_response(
            ErrorCode.BAD_CURSOR if form.has_bad_cursor() else ErrorCode.BAD_FILTER, form.error_text()
        )
    page = selectors.history_page(player=caller, viewer=caller, filters=form.filters(), after=form.cursor())
    return JsonResponse(
        {
            "matches": [row_data(row) for row in page.rows],
            "next": cursors.encode(page.next_cursor) if page.next_cursor else None,
        }
    )


def row_data(row: selectors.HistoryRow) -> dict[str, Any]:
    match = row.match
    return {
        "id": match.pk,
        "game": match.game,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "visibility": match.visibility,
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
                "out": seat.resigned_reason or None,
            }
            for seat in row.table
        ],
        "result": result_json(match.result),
        # What features say about the match: a tournament's "Autumn Cup: round 2, table 3".
        "notes": [{"text": note.text, "url": note.url} for note in row.notes],
    }
