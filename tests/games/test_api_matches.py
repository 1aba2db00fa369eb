"""Issue 35, item 2: everything a program needs, by token: the games and their options,
creating a match (me, bots, invited players, open seats), joining, leaving, resigning,
chatting, and its own matches. The pages' services and rules; every refusal is the API's
JSON error, names what is wrong, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import ChatMessage, Match, Seat
from games.services import SeatRequest, match_create, match_join, match_resign
from tests.games.helpers import api, token_for

pytestmark = pytest.mark.django_db


def error_of(answer: Any) -> tuple[int, str, str]:
    assert answer["Content-Type"] == "application/json"
    error = answer.json()["error"]
    return answer.status_code, error["code"], error["message"]


def snapshot() -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    return (
        list(Match.objects.order_by("pk").values_list("pk", "status", "ply")),
        list(Seat.objects.order_by("pk").values_list("pk", "user_id", "joined_at", "resigned_at")),
        ChatMessage.objects.count(),
    )


def test_the_games_list_says_what_a_request_may_say(ann: User) -> None:
    answer = api("GET", "/api/games", token_for(ann))
    assert answer.status_code == 200
    data = answer.json()
    games = {game["slug"]: game for game in data["games"]}
    assert len(games) == 7
    ka_blam = games["ka-blam"]
    assert (ka_blam["min_players"], ka_blam["max_players"], ka_blam["rated"]) == (2, 6, True)
    assert ka_blam["default_seats"] == ["me", "open"]
    assert ka_blam["bot_levels"] == ["random", "basic", "expert"]
    assert ka_blam["seats"] == ["me", "open", "invite", "bot-random", "bot-basic", "bot-expert"]
    target = next(option for option in ka_blam["options"] if option["name"] == "target")
    assert target["kind"] == "int" and target["minimum"] == 10 and target["maximum"] == 300
    length = next(option for option in ka_blam["options"] if option["name"] == "length")
    assert length["kind"] == "choice" and length["default"] in length["choices"]
    assert games["its-a-bomb"]["cooperative"] is True and games["its-a-bomb"]["rated"] is False
    assert games["booby-trap"]["default_seats"] == ["me", "bot-random"]
    assert data["default_time_control"] == 86400
    assert (
        data["time_controls"][0] is None
        and 300 in data["time_controls"]
        and 14 * 86400 in data["time_controls"]
    )


def test_a_match_with_every_kind_of_seat_and_the_games_defaults(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    token = token_for(ann)
    body = {"game": "ka-blam", "seats": ["me", "bot-basic", {"invite": "BOB"}, "open"]}
    answer = api("POST", "/api/matches", token, body)
    assert answer.status_code == 201, answer.json()
    data = answer.json()["match"]
    match = Match.objects.get(pk=data["id"])
    # Options left out: the game's defaults; no time control named: a day per turn; public.
    assert data["options"] == match.options and match.options["target"] == 100
    assert data["time_control"] == match.turn_limit == 86400
    assert data["visibility"] == "public" and data["status"] == "open" and data["from"] == "ann"
    assert [(p["seat"], p["username"], p["is_bot"], p["answered"]) for p in data["players"]] == [
        (0, "ann", False, True),
        (1, "bot-basic", True, True),
        (2, "bob", False, False),
        (3, None, False, False),
    ]
    assert data["url"].endswith(f"/matches/{match.pk}/")
    # Bob accepts by joining; a stranger takes the open seat; the match starts.
    assert api("POST", f"/api/matches/{match.pk}/join", token_for(bob)).json()["match"]["status"] == "open"
    carol = make_person("carol")
    joined = api("POST", f"/api/matches/{match.pk}/join", token_for(carol), {})
    assert joined.status_code == 200 and joined.json()["match"]["status"] == "running"
    assert [p["username"] for p in joined.json()["match"]["players"]][3] == "carol"


def test_seats_left_out_are_the_lobbys_and_options_chosen_are_kept(ann: User) -> None:
    answer = api(
        "POST",
        "/api/matches",
        token_for(ann),
        {"game": "ka-blam", "options": {"target": 50}, "time_control": None, "visibility": "private"},
    )
    assert answer.status_code == 201
    match = Match.objects.get(pk=answer.json()["match"]["id"])
    assert [seat.user_id for seat in match.seats.all()] == [ann.pk, None]
    assert match.options["target"] == 50 and match.options["length"]  # the others: defaults
    assert match.turn_limit is None and match.visibility == "private"


def test_a_table_of_bots_starts_at_once(ann: User) -> None:
    answer = api("POST", "/api/matches", token_for(ann), {"game": "go-fox", "seats": ["me", "bot-random"]})
    assert answer.status_code == 201 and answer.json()["match"]["status"] == "running"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, (404, "no_such_game", 'Name the game: "game", its slug (as in /play/<slug>/).')),
        ({"game": "chess"}, (404, "no_such_game", "There is no such game.")),
        (
            {"game": "ka-blam", "options": {"target": 5}},
            (400, "bad_option", "The option 'target' must be between 10 and 300, not 5."),
        ),
        (
            {"game": "ka-blam", "options": {"speed": 2}},
            (400, "unknown_option", "This game has no option speed."),
        ),
        (
            {"game": "ka-blam", "options": "fast"},
            (400, "bad_option", "Options must be given as a mapping of names to values."),
        ),
        ({"game": "go-fox", "time_control": 17}, (400, "bad_turn_limit", None)),
        (
            {"game": "go-fox", "visibility": "secret"},
            (400, "bad_visibility", '"visibility" is "public" or "private".'),
        ),
        (
            {"game": "go-fox", "time_limit": 300},
            (
                400,
                "unexpected_field",
                "No field 'time_limit' here: the fields are game, seats, options, time_control, visibility.",
            ),
        ),
        ({"game": "go-fox", "seats": []}, (400, "bad_seat", None)),
        ({"game": "go-fox", "seats": "me"}, (400, "bad_seat", None)),
        (
            {"game": "go-fox", "seats": ["me", "bot-master"]},
            (400, "no_such_bot", "There is no 'master' bot for Go Fox! yet."),
        ),
        (
            {"game": "go-fox", "seats": ["me", "robot"]},
            (
                400,
                "bad_seat",
                'Seat 2 (\'robot\') is none of the seats: each is "me", "open", "bot-random", '
                '"bot-basic", "bot-expert" or {"invite": "<username>"}.',
            ),
        ),
        ({"game": "go-fox", "seats": ["me", {"invite": ""}]}, (400, "bad_seat", None)),
        ({"game": "go-fox", "seats": ["me", {"invite": "bob", "as": "x"}]}, (400, "bad_seat", None)),
        ({"game": "go-fox", "seats": ["me", "invite"]}, (400, "bad_seat", None)),
        ({"game": "go-fox", "seats": ["me", {"invite": "nobody"}]}, (400, "no_such_player", None)),
        ({"game": "go-fox", "seats": ["me", {"invite": "ann"}]}, (400, "invited_twice", None)),
        ({"game": "go-fox", "seats": ["me", "me"]}, (400, "seat_yourself", None)),
        ({"game": "go-fox", "seats": ["open", "open"]}, (400, "seat_yourself", None)),
        (
            {"game": "go-fox", "seats": ["me"]},
            (400, "bad_player_count", "Go Fox! is played by 2 to 6 players."),
        ),
        ({"game": "go-fox", "seats": ["me"] + ["open"] * 6}, (400, "bad_player_count", None)),
    ],
)
def test_a_bad_match_is_refused_naming_what_is_wrong_and_writes_nothing(
    ann: User, bob: User, body: dict[str, Any], expected: tuple[int, str, str | None]
) -> None:
    status, code, message = error_of(api("POST", "/api/matches", token_for(ann), body))
    assert (status, code) == expected[:2], message
    if expected[2] is not None:
        assert message == expected[2]
    assert not Match.objects.exists() and not Seat.objects.exists()


def test_an_unreadable_body_is_refused(ann: User) -> None:
    token = token_for(ann)
    assert error_of(api("POST", "/api/matches", token, raw=b"{nope"))[:2] == (400, "malformed_json")
    assert error_of(api("POST", "/api/matches", token, ["go-fox"]))[:2] == (400, "malformed_json")
    assert error_of(api("POST", "/api/matches", token, raw=b"{" + b" " * 17_000 + b"}"))[:2] == (
        413,
        "too_large",
    )
    assert not Match.objects.exists()


def open_match(creator: User, *, visibility: str = "public", seats: int = 1) -> Match:
    return match_create(
        creator=creator,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), *[SeatRequest("open")] * seats],
        visibility=visibility,
    )


def test_joining_leaving_and_their_refusals(ann: User, bob: User, make_person: Callable[..., User]) -> None:
    match = open_match(ann, seats=2)
    bob_token, ann_token = token_for(bob), token_for(ann)
    path = f"/api/matches/{match.pk}"
    # Refusals first: each changes nothing.
    before = snapshot()
    assert error_of(api("POST", f"{path}/join", ann_token))[:2] == (409, "already_seated")
    assert error_of(api("POST", f"{path}/leave", bob_token))[:2] == (400, "not_seated")
    assert error_of(api("POST", f"{path}/join", bob_token, {"seat": 2}))[:2] == (400, "unexpected_field")
    assert error_of(api("POST", f"{path}/join", bob_token, raw=b"[]"))[:2] == (400, "malformed_json")
    assert error_of(api("POST", "/api/matches/999999/join", bob_token))[:2] == (404, "no_such_match")
    assert error_of(api("GET", f"{path}/join", bob_token))[:2] == (405, "method_not_allowed")
    assert snapshot() == before
    # Bob joins, then leaves: his seat is open again.
    joined = api("POST", f"{path}/join", bob_token)
    assert (
        joined.status_code == 200 and [p["username"] for p in joined.json()["match"]["players"]][1] == "bob"
    )
    left = api("POST", f"{path}/leave", bob_token)
    assert left.status_code == 200 and [p["username"] for p in left.json()["match"]["players"]] == [
        "ann",
        None,
        None,
    ]
    # The creator leaving cancels the match; then nobody can join it.
    assert api("POST", f"{path}/leave", ann_token).json()["match"]["status"] == "cancelled"
    before = snapshot()
    assert error_of(api("POST", f"{path}/join", bob_token))[:2] == (409, "not_open")
    assert snapshot() == before


def test_a_private_match_is_joined_with_its_invitation_link_only(ann: User, bob: User) -> None:
    match = open_match(ann, visibility="private")
    path = f"/api/matches/{match.pk}/join"
    token = token_for(bob)
    before = snapshot()
    # Without its token, or with a wrong one, the match does not exist for Bob.
    assert error_of(api("POST", path, token))[:2] == (404, "no_such_match")
    assert error_of(api("POST", path, token, {"invite": "wrong"}))[:2] == (404, "no_such_match")
    assert error_of(api("POST", path, token, {"invite": 7}))[:2] == (404, "no_such_match")
    assert error_of(api("POST", f"/api/matches/{match.pk}/leave", token))[:2] == (404, "no_such_match")
    assert snapshot() == before
    joined = api("POST", path, token, {"invite": match.invite_token})
    assert joined.status_code == 200 and joined.json()["match"]["status"] == "running"


def test_a_full_match_refuses_another_player(ann: User, bob: User, make_person: Callable[..., User]) -> None:
    match = open_match(ann, seats=1)
    match_join(match_id=match.pk, user=bob)
    before = snapshot()
    assert error_of(api("POST", f"/api/matches/{match.pk}/join", token_for(make_person())))[:2] == (
        409,
        "not_open",
    )
    assert snapshot() == before


def test_resigning_and_chatting(
    two_player_match: Match, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    path = f"/api/matches/{two_player_match.pk}"
    ann_token, stranger = token_for(ann), token_for(make_person())
    posted = api("POST", f"{path}/chat", ann_token, {"text": "  good luck  "})
    assert posted.status_code == 201
    assert posted.json()["message"]["text"] == "good luck" and posted.json()["message"]["name"] == "Ann"
    before = snapshot()
    assert error_of(api("POST", f"{path}/chat", ann_token, {"text": "   "}))[:2] == (400, "empty_message")
    assert error_of(api("POST", f"{path}/chat", ann_token, {}))[:2] == (400, "empty_message")
    assert error_of(api("POST", f"{path}/chat", ann_token, {"text": "x" * 1001}))[:2] == (
        400,
        "message_too_long",
    )
    assert error_of(api("POST", f"{path}/chat", ann_token, {"text": "hi", "to": "bob"}))[:2] == (
        400,
        "unexpected_field",
    )
    assert error_of(api("POST", f"{path}/chat", stranger, {"text": "hi"}))[:2] == (403, "not_your_seat")
    assert error_of(api("POST", f"{path}/resign", stranger))[:2] == (400, "not_playing")
    assert error_of(api("POST", f"{path}/leave", ann_token))[:2] == (400, "not_seated")
    assert error_of(api("POST", f"{path}/resign", ann_token, {"now": True}))[:2] == (400, "unexpected_field")
    assert snapshot() == before
    resigned = api("POST", f"{path}/resign", ann_token)
    assert resigned.status_code == 200 and resigned.json()["match"]["status"] == "finished"
    before = snapshot()
    assert error_of(api("POST", f"{path}/resign", ann_token))[:2] == (400, "not_playing")
    assert snapshot() == before


def test_my_matches_lists_what_waits_for_me(
    ann: User, bob: User, two_player_match: Match, make_person: Callable[..., User]
) -> None:
    waiting_for_ann = open_match(bob)  # Ann is not in it: not hers
    invitation = match_create(
        creator=bob,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="ann")],
    )
    mine_open = open_match(ann)
    finished = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=finished.pk, user=bob)
    match_resign(match_id=finished.pk, user=bob)
    data = api("GET", "/api/matches", token_for(ann)).json()
    two_player_match.refresh_from_db()
    ann_to_act = 0 in two_player_match.engine.to_act(two_player_match.decoded_state())
    running = data["your_turn"] if ann_to_act else data["waiting"]
    assert [match["id"] for match in running] == [two_player_match.pk]
    if ann_to_act:
        assert "deadline" in running[0]
    assert [match["id"] for match in data["invitations"]] == [invitation.pk]
    assert [match["id"] for match in data["open"]] == [mine_open.pk]
    assert [match["id"] for match in data["finished"]] == [finished.pk]
    assert data["finished"][0]["result"]["resigned"] == [1] and data["finished"][0]["finished_at"]
    assert waiting_for_ann.pk not in {match["id"] for group in data.values() for match in group}


def test_the_lobby_lists_public_matches_with_a_seat_open(ann: User, bob: User) -> None:
    public = open_match(bob)
    open_match(bob, visibility="private")
    ka_blam = match_create(
        creator=bob, game_slug="ka-blam", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    token = token_for(ann)
    assert [match["id"] for match in api("GET", "/api/lobby", token).json()["matches"]] == [
        ka_blam.pk,
        public.pk,
    ]
    assert [match["id"] for match in api("GET", "/api/lobby?game=go-fox", token).json()["matches"]] == [
        public.pk
    ]
    assert error_of(api("GET", "/api/lobby?game=chess", token))[:2] == (404, "no_such_game")


def test_the_lists_read_a_fixed_number_of_queries(ann: User, bob: User) -> None:
    """As many queries for two matches in each list as for six: no query per match."""
    token = token_for(ann)
    api("GET", "/api/games", token)  # the token's first use is noted once (last_used_at)

    def queries(path: str) -> int:
        with CaptureQueriesContext(connection) as seen:
            assert api("GET", path, token).status_code == 200
        return len(seen)

    counts = []
    for _ in range(2):
        for _ in range(3):
            open_match(ann)
            open_match(bob)
            match_create(
                creator=bob, game_slug="go-fox", options={},
                seats=[SeatRequest("me"), SeatRequest("invite", username="ann")],
            )  # fmt: skip
        counts.append((queries("/api/matches"), queries("/api/lobby"), queries("/api/challenges")))
    assert counts[0] == counts[1]


def test_a_body_left_out_is_nothing_but_a_large_one_is_still_refused(ann: User) -> None:
    match = open_match(ann)
    token = token_for(ann)
    big = b'{"invite": "' + b"x" * 17_000 + b'"}'
    assert error_of(api("POST", f"/api/matches/{match.pk}/leave", token, raw=big))[:2] == (413, "too_large")
    assert error_of(api("POST", f"/api/matches/{match.pk}/leave", token, raw=b"7"))[:2] == (
        400,
        "malformed_json",
    )
    assert Match.objects.get(pk=match.pk).status == "open"
    assert (
        api("POST", f"/api/matches/{match.pk}/leave", token, raw=b"").json()["match"]["status"] == "cancelled"
    )
