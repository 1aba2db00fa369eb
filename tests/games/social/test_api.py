"""The challenge API: challenge a player, list what waits for an answer, accept and
decline; every bad request is a JSON error that writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games.models import Match, Seat
from games.services import SeatRequest, match_create
from games.social import services
from tests.games.helpers import api, token_for

pytestmark = pytest.mark.django_db


def error_of(response: Any) -> tuple[int, str, str]:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    return response.status_code, body["error"]["code"], body["error"]["message"]


def test_a_challenge_through_the_api_takes_the_game_s_defaults_and_a_day_per_turn(
    ann: User, bob: User
) -> None:
    response = api("POST", "/api/challenges", token_for(ann), {"username": "Bob", "game": "ka-blam"})
    assert response.status_code == 201
    challenge = response.json()["challenge"]
    match = Match.objects.get()
    assert challenge["id"] == match.pk and challenge["challenge"] is True and challenge["status"] == "open"
    assert challenge["game"] == "ka-blam" and challenge["options"] == {"length": "long", "target": 100}
    assert challenge["time_control"] == 86400 and challenge["from"] == "ann"
    assert [(p["username"], p["answered"]) for p in challenge["players"]] == [("ann", True), ("bob", False)]
    assert challenge["url"].endswith(f"/matches/{match.pk}/")
    # With options and no time limit.
    response = api(
        "POST", "/api/challenges", token_for(ann),
        {"username": "bob", "game": "ka-blam", "options": {"length": "short"}, "time_control": None},
    )  # fmt: skip
    assert response.status_code == 201
    assert response.json()["challenge"]["options"]["length"] == "short"
    assert response.json()["challenge"]["time_control"] is None


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"game": "go-fox"}, (400, "no_such_player", 'Name the player to challenge: "username".')),
        (
            {"username": "nobody", "game": "go-fox"},
            (400, "no_such_player", "There is no player called 'nobody'."),
        ),
        (
            {"username": "bob"},
            (404, "no_such_game", 'Name the game: "game", its slug (as in /play/<slug>/).'),
        ),
        ({"username": "bob", "game": "chess"}, (404, "no_such_game", "There is no such game.")),
        (
            {"username": "bob", "game": "ka-blam", "options": {"target": 5}},
            (400, "bad_option", "The option 'target' must be between 10 and 300, not 5."),
        ),
        (
            {"username": "bob", "game": "ka-blam", "options": {"speed": 2}},
            (400, "unknown_option", "This game has no option speed."),
        ),
        (
            {"username": "bob", "game": "ka-blam", "options": [1]},
            (400, "bad_option", "Options must be given as a mapping of names to values."),
        ),
        ({"username": "bob", "game": "go-fox", "time_control": 17}, (400, "bad_turn_limit", None)),
        ({"username": "bob", "game": "go-fox", "time_control": "1 day"}, (400, "bad_turn_limit", None)),
        ({"username": "ann", "game": "go-fox"}, (400, "not_allowed", "You cannot challenge yourself.")),
    ],
)
def test_a_bad_challenge_is_a_json_error_naming_what_is_wrong_and_writes_nothing(
    ann: User, bob: User, body: dict[str, Any], expected: tuple[int, str, str | None]
) -> None:
    status, code, message = error_of(api("POST", "/api/challenges", token_for(ann), body))
    assert (status, code) == expected[:2]
    if expected[2] is not None:
        assert message == expected[2]
    assert not Match.objects.exists()


def test_a_blocked_challenge_and_bad_requests_are_refused_too(ann: User, bob: User) -> None:
    token = token_for(ann)
    services.block(blocker=bob, blocked=ann)
    assert error_of(api("POST", "/api/challenges", token, {"username": "bob", "game": "go-fox"})) == (
        403, "blocked", "You cannot challenge Bob: they have blocked you.",
    )  # fmt: skip
    assert error_of(api("POST", "/api/challenges", token, raw=b"{not json"))[1] == "malformed_json"
    assert error_of(api("POST", "/api/challenges", token, [1, 2]))[1] == "malformed_json"
    assert error_of(api("POST", "/api/challenges", None, {"username": "bob", "game": "go-fox"}))[:2] == (
        401, "unauthorised",
    )  # fmt: skip
    assert error_of(api("GET", "/api/challenges/1/accept", token))[:2] == (405, "method_not_allowed")
    assert not Match.objects.exists()


def test_the_lists_accepting_and_declining(ann: User, bob: User, make_person: Any) -> None:
    cat = make_person("cat", display_name="Cat")
    from_ann = services.challenge(
        challenger=ann, challenged=bob, game_slug="go-fox", options=None, turn_limit=None
    )
    from_cat = services.challenge(
        challenger=cat, challenged=bob, game_slug="go-fox", options=None, turn_limit=None
    )
    # A lobby invitation to a table of three: listed, not a challenge.
    table = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("invite", username="cat")],
    )  # fmt: skip
    bobs = token_for(bob)
    lists = api("GET", "/api/challenges", bobs).json()
    assert [(item["id"], item["challenge"]) for item in lists["to_me"]] == [
        (table.pk, False), (from_cat.pk, True), (from_ann.pk, True),
    ]  # fmt: skip
    assert lists["by_me"] == []
    by_ann = api("GET", "/api/challenges", token_for(ann)).json()
    assert [item["id"] for item in by_ann["by_me"]] == [from_ann.pk] and by_ann["to_me"] == []
    # Accept one, decline another.
    accepted = api("POST", f"/api/challenges/{from_ann.pk}/accept", bobs)
    assert accepted.status_code == 200 and accepted.json()["match"]["status"] == "running"
    declined = api("POST", f"/api/challenges/{from_cat.pk}/decline", bobs)
    assert declined.status_code == 200 and declined.json()["match"]["status"] == "open"
    assert not Seat.objects.filter(match=from_cat, user=bob).exists()
    assert [item["id"] for item in api("GET", "/api/challenges", bobs).json()["to_me"]] == [table.pk]
    # Answering again, or what was never one's to answer, is refused and changes nothing.
    for path, token in [
        (f"/api/challenges/{from_ann.pk}/accept", bobs),
        (f"/api/challenges/{from_cat.pk}/decline", bobs),
        (f"/api/challenges/{table.pk}/accept", token_for(make_person("dan"))),
        ("/api/challenges/99999/accept", bobs),
    ]:
        assert error_of(api("POST", path, token))[:2] == (400, "not_invited"), path
    assert Match.objects.get(pk=table.pk).status == Match.Status.OPEN
