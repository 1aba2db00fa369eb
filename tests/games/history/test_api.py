"""games/history/api.py: GET /api/history, the caller's finished matches with the
History filters and keyset cursor, and clear refusals."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from accounts.models import User
from games.history.selectors import PAGE_SIZE
from games.models import Match
from tests.games.helpers import api, logged_in, token_for
from tests.games.history.helpers import bot, finished

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
# Per page: the token and its user, then the rows, their tables and their notes (one
# query each for tournaments and ratings: games/match_notes.py); the rate limit is in Redis.
API_PAGE = 5


def test_a_program_pages_through_its_history_with_the_next_cursor(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl", display_name="Carl")
    matches = [finished([ann, bob], finished_at=NOON - timedelta(minutes=n)) for n in range(PAGE_SIZE + 3)]
    finished([bob, carl])  # not ann's
    token = token_for(ann)
    first = api("GET", "/api/history", token)
    assert first.status_code == 200
    data = first.json()
    assert [row["id"] for row in data["matches"]] == [match.pk for match in matches[:PAGE_SIZE]]
    row = data["matches"][0]
    assert row == {
        "id": matches[0].pk,
        "game": "go-fox",
        "finished_at": "2026-11-20T12:00:00+00:00",
        "visibility": "public",
        "seat": 0,
        "rank": 1,
        "outcome": "won",
        "rated": True,
        "players": [
            {"seat": 0, "name": "Ann", "is_bot": False, "rank": 1, "out": None},
            {"seat": 1, "name": "Bob", "is_bot": False, "rank": 2, "out": None},
        ],
        "result": {"scores": [-1.0, -2.0], "ranks": [1, 2]},
        "notes": [],
    }
    second = api("GET", f"/api/history?after={data['next']}", token).json()
    assert [row["id"] for row in second["matches"]] == [match.pk for match in matches[PAGE_SIZE:]]
    assert second["next"] is None


def test_the_api_takes_the_pages_filters(ann: User, bob: User) -> None:
    with_bot = finished([ann, bot("expert")], ranks=[2, 1])
    finished([ann, bob], ranks=[1, 2], visibility=Match.Visibility.PRIVATE)
    token = token_for(ann)
    rows = api("GET", "/api/history?bots=with&result=lost&rated=yes&opponent=expert", token).json()["matches"]
    assert [row["id"] for row in rows] == [with_bot.pk] and rows[0]["players"][1]["is_bot"] is True
    private = api("GET", "/api/history?result=won", token).json()["matches"]
    assert [row["visibility"] for row in private] == ["private"]  # my own private matches are mine to list


def test_days_are_the_callers_time_zone_without_a_session(ann: User, bob: User) -> None:
    ann.time_zone = "America/New_York"  # UTC-5 in November
    ann.save()
    match = finished([ann, bob], finished_at=datetime(2026, 11, 21, 3, 0, tzinfo=UTC))
    token = token_for(ann)
    assert [
        r["id"] for r in api("GET", "/api/history?since=2026-11-20&until=2026-11-20", token).json()["matches"]
    ] == [match.pk]
    assert api("GET", "/api/history?since=2026-11-21", token).json()["matches"] == []


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        (
            "after=forged",
            "bad_cursor",
            "after: That page link is not valid: start again from the first page.",
        ),
        (
            "game=chess",
            "bad_filter",
            "game: Select a valid choice. chess is not one of the available choices.",
        ),
        ("since=2026-13-01", "bad_filter", "since: Enter a valid date."),
        (
            "since=2026-11-02&until=2026-11-01",
            "bad_filter",
            "until: The last day comes before the first.",
        ),
    ],
)
def test_bad_input_is_a_400_with_a_code_and_a_message(ann: User, query: str, code: str, message: str) -> None:
    answer = api("GET", f"/api/history?{query}", token_for(ann))
    assert answer.status_code == 400
    assert answer.json() == {"error": {"code": code, "message": message}}


def test_only_a_token_gets_in_and_only_with_get(ann: User) -> None:
    assert api("GET", "/api/history", None).status_code == 401
    assert api("GET", "/api/history", "bst_not-a-token").status_code == 401
    assert logged_in(ann).get("/api/history").status_code == 401  # the session is not a token
    refused = api("POST", "/api/history", token_for(ann), {})
    assert refused.status_code == 405 and refused.json()["error"]["code"] == "method_not_allowed"


def test_an_api_page_costs_the_same_queries_for_one_match_or_many(
    ann: User, bob: User, django_assert_num_queries: Any
) -> None:
    token = token_for(ann)
    finished([ann, bob])
    api("GET", "/api/history", token)  # the first use of a token also notes when it was used
    with django_assert_num_queries(API_PAGE):
        api("GET", "/api/history", token)
    for _ in range(PAGE_SIZE + 2):
        finished([ann, bob, bot("random")], resigned={2: False})
    with django_assert_num_queries(API_PAGE):
        data = api("GET", "/api/history?rated=no", token).json()
    assert len(data["matches"]) == PAGE_SIZE and data["next"]
