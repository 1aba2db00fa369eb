"""Issue 35, item 5: the RateLimit header fields (IETF draft names) on every API answer,
successes and errors alike, from the counters the limit itself reads; the 429 keeps
Retry-After."""

from __future__ import annotations

from typing import Any

import pytest
import time_machine
from django.test import Client

from accounts.models import User
from games.api import API_REQUESTS_PER_WINDOW, API_WINDOW_SECONDS
from games.models import Match
from tests.games.helpers import api, token_for

pytestmark = pytest.mark.django_db

START = 1_800_000_000  # a window's first second (divisible by 20)


def fields(answer: Any) -> tuple[int, int, int]:
    return int(answer["RateLimit-Limit"]), int(answer["RateLimit-Remaining"]), int(answer["RateLimit-Reset"])


def test_remaining_counts_down_and_reset_is_the_windows_end(two_player_match: Match, ann: User) -> None:
    token = token_for(ann)
    url = f"/api/matches/{two_player_match.pk}"
    with time_machine.travel(START + 0.25, tick=False) as traveller:
        first = api("GET", url, token)
        assert fields(first) == (API_REQUESTS_PER_WINDOW, API_REQUESTS_PER_WINDOW - 1, API_WINDOW_SECONDS)
        assert first["RateLimit-Policy"] == f"{API_REQUESTS_PER_WINDOW};w={API_WINDOW_SECONDS}"
        assert "Retry-After" not in first
        traveller.shift(6.5)  # 6.75 s into the window: 13.25 s left, said as 14
        assert fields(api("GET", url, token)) == (60, 58, 14)
        # Errors count and say so as well as successes do.
        assert fields(api("GET", "/api/matches/999999", token))[1:] == (57, 14)
        assert fields(api("POST", f"{url}/actions", token, {"action": {}, "ply": "x"}))[1] == 56
        assert fields(api("GET", f"{url}/actions", token))[1] == 55  # 405
        traveller.shift(14)  # 0.75 s into the next window: the whole budget again, 19.25 s left
        assert fields(api("GET", url, token)) == (60, 59, 20)


def test_the_429_keeps_retry_after_and_says_nothing_is_left(two_player_match: Match, ann: User) -> None:
    token = token_for(ann)
    url = f"/api/matches/{two_player_match.pk}"
    with time_machine.travel(START + 2, tick=False):
        for expected in range(API_REQUESTS_PER_WINDOW - 1, -1, -1):
            assert fields(api("GET", url, token))[1] == expected
        refused = api("GET", url, token)
        assert refused.status_code == 429
        assert fields(refused) == (60, 0, 18) and refused["Retry-After"] == "18"


def test_answers_no_endpoint_made_read_the_counter_without_counting(ann: User) -> None:
    token = token_for(ann)
    with time_machine.travel(START + 5, tick=False):
        assert fields(api("GET", "/api/games", token))[1] == 59
        # An address nothing answers: the JSON 404, with the caller's counter as it stands.
        missing = api("GET", "/api/nothing/here", token)
        assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
        assert fields(missing) == (60, 59, 15)
        assert fields(api("GET", "/api/games", token))[1] == 58


def test_a_request_without_a_valid_token_has_no_budget_to_show(ann: User) -> None:
    for headers in ({}, {"Authorization": "Bearer bst_not-a-token"}):
        refused = Client().get("/api/games", headers=headers)
        assert refused.status_code == 401 and "RateLimit-Remaining" not in refused
    # The pages carry none: the limit is the API's.
    assert "RateLimit-Limit" not in Client().get("/play/")
