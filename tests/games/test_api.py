"""The JSON API: personal tokens, the caller's view, moves, and clear errors that change nothing."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
import time_machine
from django.test import Client

from accounts.models import ApiToken, User
from accounts.services import api_token_create
from games.api import API_REQUESTS_PER_WINDOW, API_WINDOW_SECONDS
from games.models import Match, Move
from games.services import SeatRequest, match_create, match_resign
from tests.games.helpers import api, token_for

pytestmark = pytest.mark.django_db


def seat_that_acts(match: Match) -> int:
    match.refresh_from_db()
    return match.engine.to_act(match.decoded_state())[0]


def test_a_program_reads_its_view_and_plays_its_legal_actions(
    two_player_match: Match, ann: User, bob: User
) -> None:
    tokens = {0: token_for(ann), 1: token_for(bob)}
    for _ in range(5):
        seat = seat_that_acts(two_player_match)
        answer = api("GET", f"/api/matches/{two_player_match.pk}", tokens[seat])
        assert answer.status_code == 200
        data = answer.json()
        assert data["seat"] == seat and data["game"] == "dont-go-boom" and data["status"] == "running"
        assert data["view"] == json.loads(
            json.dumps(two_player_match.engine.view(two_player_match.decoded_state(), seat))
        )
        assert "state" not in data and "seed" not in data and data["legal_actions"]
        assert [p["name"] for p in data["players"]] == ["Ann", "Bob"]
        played = api(
            "POST", f"/api/matches/{two_player_match.pk}/actions", tokens[seat],
            {"action": data["legal_actions"][0], "ply": data["ply"], "action_id": str(uuid.uuid4())},
        )  # fmt: skip
        assert played.status_code == 201 and played.json() == {"ply": data["ply"] + 1, "duplicate": False}
    assert Move.objects.filter(match=two_player_match).count() == 5


def test_a_resent_action_id_returns_the_first_answer(two_player_match: Match, ann: User, bob: User) -> None:
    seat = seat_that_acts(two_player_match)
    token = token_for(ann if seat == 0 else bob)
    action = two_player_match.engine.legal_actions(two_player_match.decoded_state(), seat)[0]
    body = {"action": action, "ply": 0, "action_id": str(uuid.uuid4())}
    first = api("POST", f"/api/matches/{two_player_match.pk}/actions", token, body)
    again = api("POST", f"/api/matches/{two_player_match.pk}/actions", token, body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == {"ply": 1, "duplicate": True}
    assert Move.objects.count() == 1


def test_an_action_id_reused_for_another_action_is_refused(
    two_player_match: Match, ann: User, bob: User
) -> None:
    """Issue 35, bug 1: the id of an earlier move sent with another action at a later
    ply was answered ``200 duplicate`` and the new move silently not played."""
    match = two_player_match
    action_id = str(uuid.uuid4())
    seat = seat_that_acts(match)
    token = token_for(ann if seat == 0 else bob)
    action = match.engine.legal_actions(match.decoded_state(), seat)[0]
    assert (
        api(
            "POST",
            f"/api/matches/{match.pk}/actions",
            token,
            {"action": action, "ply": 0, "action_id": action_id},
        ).status_code
        == 201
    )
    match.refresh_from_db()
    while seat_that_acts(match) != seat:  # the others play until it is this seat's turn again
        other = seat_that_acts(match)
        other_action = match.engine.legal_actions(match.decoded_state(), other)[0]
        api(
            "POST",
            f"/api/matches/{match.pk}/actions",
            token_for(bob if seat == 0 else ann),
            {"action": other_action, "ply": match.ply},
        )
        match.refresh_from_db()
    stored, ply = Move.objects.count(), match.ply
    later = match.engine.legal_actions(match.decoded_state(), seat)[-1]
    refused = api(
        "POST",
        f"/api/matches/{match.pk}/actions",
        token,
        {"action": later, "ply": ply, "action_id": action_id},
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "action_id_reused"
    assert "ply 0" in refused.json()["error"]["message"]
    assert Move.objects.count() == stored


@pytest.mark.parametrize(
    ("body", "raw", "status", "code"),
    [
        (None, b"{not json", 400, "malformed_json"),
        ([1, 2], None, 400, "malformed_json"),
        ({"action": {"type": "choose", "position": 0}, "ply": 3}, None, 400, "bad_ply"),
        ({"action": {"type": "choose", "position": 0}}, None, 400, "bad_ply"),
        ({"action": {"type": "choose", "position": 42}, "ply": 0}, None, 400, "out_of_range"),
        ({"action": {"type": "choose"}, "ply": 0}, None, 400, "missing_field"),
        ({"action": "choose", "ply": 0}, None, 400, "malformed_action"),
        ({"action": {"type": "choose", "position": 0}, "ply": 0, "action_id": 7}, None, 400, "bad_action_id"),
        (None, b"x" * 20_000, 413, "too_large"),
        # Over Django's own cap (DATA_UPLOAD_MAX_MEMORY_SIZE): still the API's JSON 413.
        (None, b"x" * 3_000_000, 413, "too_large"),
    ],
)
def test_bad_requests_get_a_clear_error_and_change_nothing(
    two_player_match: Match, ann: User, body: Any, raw: bytes | None, status: int, code: str
) -> None:
    answer = api("POST", f"/api/matches/{two_player_match.pk}/actions", token_for(ann), body, raw)
    assert answer.status_code == status
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["message"]
    assert Move.objects.count() == 0 and Match.objects.get(pk=two_player_match.pk).ply == 0


def test_tokens_are_required_and_only_a_seats_owner_acts(
    two_player_match: Match, ann: User, make_person: Any
) -> None:
    path = f"/api/matches/{two_player_match.pk}"
    for token in (None, "bst_wrong", "Basic abc"):
        answer = api("GET", path, token)
        assert answer.status_code == 401 and answer["WWW-Authenticate"].startswith("Bearer")
    # The session cookie is not an API credential (so no cross-site request can use it).
    client = Client()
    client.force_login(ann)
    assert client.get(path).status_code == 401
    stranger = token_for(make_person())
    assert api("GET", path, stranger).json()["seat"] is None  # a public match: a spectator's view
    answer = api("POST", f"{path}/actions", stranger, {"action": {"type": "choose", "position": 0}, "ply": 0})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_your_seat"
    assert api("POST", path, stranger, {}).status_code == 405
    Match.objects.filter(pk=two_player_match.pk).update(visibility=Match.Visibility.PRIVATE)
    assert api("GET", path, stranger).status_code == 404
    assert api("GET", "/api/matches/999999", stranger).status_code == 404
    assert Move.objects.count() == 0


def test_an_open_match_has_no_view_yet(ann: User) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    data = api("GET", f"/api/matches/{match.pk}", token_for(ann)).json()
    assert (data["status"], data["view"], data["legal_actions"], data["seat"]) == ("open", None, [], 0)


def test_tokens_are_made_shown_once_and_revoked_on_the_account_page(ann: User) -> None:
    client = Client()
    client.force_login(ann)
    page = client.post(
        "/accounts/settings/tokens/new", {"name": "my bot", "scopes": ["play", "read"]}, follow=True
    ).content.decode()
    token = ApiToken.objects.get(user=ann)
    secret = page.split('id="new-token">')[1].split("<")[0]
    assert secret.startswith("bst_") and token.prefix == secret[:8] and secret not in token.key_hash
    assert secret not in client.get("/accounts/settings/").content.decode()  # shown once
    assert api("GET", "/api/", None).status_code == 200
    assert client.post("/accounts/settings/tokens/new", {"name": "  "}, follow=True).status_code == 200
    assert ApiToken.objects.count() == 1
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    assert api("GET", f"/api/matches/{match.pk}", secret).status_code == 200
    client.post(f"/accounts/settings/tokens/{token.pk}/revoke")
    assert not ApiToken.objects.exists()
    assert api("GET", f"/api/matches/{match.pk}", secret).status_code == 401


def test_each_token_is_limited_and_told_when_to_come_back(
    two_player_match: Match, ann: User, bob: User
) -> None:
    ann_token = api_token_create(user=ann, name="poller")[1]
    bob_token = api_token_create(user=bob, name="other")[1]
    url = f"/api/matches/{two_player_match.pk}"
    with time_machine.travel(1_800_000_000.5, tick=False) as traveller:  # 0.5 s into a 20 s window
        for _ in range(API_REQUESTS_PER_WINDOW):
            assert api("GET", url, ann_token).status_code == 200
        refused = api("GET", url, ann_token)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert refused["Retry-After"] == str(API_WINDOW_SECONDS)  # 19.5 s left, rounded up
        moves = Move.objects.count()
        assert api("POST", f"{url}/actions", ann_token, {"action": {}, "ply": 0}).status_code == 429
        assert Move.objects.count() == moves
        assert api("GET", url, bob_token).status_code == 200  # another token has its own budget
        traveller.shift(API_WINDOW_SECONDS)
        assert api("GET", url, ann_token).status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/matches/abc", 404, "not_found"),
        ("GET", "/api/nothing/here", 404, "not_found"),
        ("POST", "/api/nothing", 404, "not_found"),
        ("GET", "/api/matches/1/actions/extra", 404, "not_found"),
    ],
)
def test_every_answer_under_api_is_json(ann: User, method: str, path: str, status: int, code: str) -> None:
    """Issue 35, bug 2: addresses no API view answers gave Django's HTML 404."""
    answer = api(method, path, token_for(ann), {})
    assert answer.status_code == status
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["message"]


def test_the_export_refuses_a_post_with_a_json_405_not_a_csrf_page(
    two_player_match: Match, ann: User
) -> None:
    """Issue 35, bug 2: POST /matches/<id>/export.json answered the CSRF check's HTML 403."""
    match_resign(match_id=two_player_match.pk, user=ann)
    for path in (f"/matches/{two_player_match.pk}/export.json", "/history/export.jsonl"):
        refused = Client(enforce_csrf_checks=True).post(path)
        assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD"
        assert refused.json()["error"]["code"] == "method_not_allowed"


def test_a_stale_or_future_ply_says_where_the_match_is(two_player_match: Match, ann: User, bob: User) -> None:
    """Issue 35, bug 3: a ply in the future was answered "stale", with "here is the latest
    position" in an answer that carries none."""
    match = two_player_match
    seat = seat_that_acts(match)
    action = match.engine.legal_actions(match.decoded_state(), seat)[0]
    future = api(
        "POST",
        f"/api/matches/{match.pk}/actions",
        token_for(ann if seat == 0 else bob),
        {"action": action, "ply": 5},
    )
    assert future.status_code == 400 and future.json()["error"] == {
        "code": "bad_ply",
        "message": "There is no ply 5 yet: the game is at ply 0.",
    }
    tokens = {0: token_for(ann), 1: token_for(bob)}
    for ply in (0, 1):  # two moves: whoever acts now decides on the board of ply 2
        mover = seat_that_acts(match)
        legal = match.engine.legal_actions(match.decoded_state(), mover)[0]
        played = api("POST", f"/api/matches/{match.pk}/actions", tokens[mover], {"action": legal, "ply": ply})
        assert played.status_code == 201
    mover = seat_that_acts(match)
    again = match.engine.legal_actions(match.decoded_state(), mover)[0]
    stale = api("POST", f"/api/matches/{match.pk}/actions", tokens[mover], {"action": again, "ply": 0})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_ply"
    assert "it is at ply 2 now" in stale.json()["error"]["message"]
    assert "here is" not in stale.json()["error"]["message"]
