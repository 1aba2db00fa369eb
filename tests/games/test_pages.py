"""The lobby, "My matches" and the match page, through the test client (no JavaScript)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.engine import get
from games.models import Match, Move, Seat
from games.services import SeatRequest, match_create, match_join, match_resign
from tests.games.helpers import action_buttons, api, canonical, first_action_id, logged_in, token_for

pytestmark = pytest.mark.django_db


def test_the_game_page_creates_a_match_from_its_form(ann: User, bob: User) -> None:
    client = logged_in(ann)
    page = client.get("/play/dont-go-boom/")
    assert (
        page.status_code == 200
        and b'name="option_rounds"' in page.content
        and b'name="seat_5"' in page.content
    )
    response = client.post(
        "/play/dont-go-boom/",
        {"seat_0": "me", "seat_1": "invite", "seat_1_username": "bob", "seat_2": "bot-random",
         "option_rounds": "2", "visibility": "private", "turn_limit": "3600"},
    )  # fmt: skip
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert (match.options, match.visibility, match.turn_limit, match.status) == (
        {"rounds": 2},
        "private",
        3600,
        "open",
    )
    # Bob sees the invitation on his dashboard, with the turn badge still at zero.
    dashboard = logged_in(bob).get("/matches/").content.decode()
    assert "Invitations" in dashboard and f"/matches/{match.pk}/join" in dashboard


def test_a_bad_form_shows_errors_and_creates_nothing(ann: User) -> None:
    client = logged_in(ann)
    response = client.post(
        "/play/dont-go-boom/",
        {"seat_0": "me", "seat_1": "invite", "seat_1_username": "", "option_rounds": "9"},
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "Whom should we invite" in text and "less than or equal to 5" in text
    response = client.post(
        "/play/dont-go-boom/",
        {
            "seat_0": "me",
            "seat_1": "invite",
            "seat_1_username": "ghost",
            "option_rounds": "1",
            "visibility": "public",
        },
    )
    assert response.status_code == 400 and "There is no player called" in response.content.decode()
    assert not Match.objects.exists()


def test_the_match_page_plays_by_plain_form_posts(two_player_match: Match, ann: User, bob: User) -> None:
    match = two_player_match
    clients = {0: logged_in(ann), 1: logged_in(bob)}
    game = get(match.game)
    for _ in range(6):
        match.refresh_from_db()
        state = match.decoded_state()
        seat = game.to_act(state)[0]
        page = clients[seat].get(f"/matches/{match.pk}/").content.decode()
        assert "Your turn." in page
        buttons = action_buttons(page)
        assert canonical(buttons) == canonical(game.legal_actions(state, seat))
        action_id = first_action_id(page)
        response = clients[seat].post(
            f"/matches/{match.pk}/act",
            {"action": json.dumps(buttons[0]), "ply": match.ply, "action_id": action_id},
        )
        assert response.status_code == 302
    assert Move.objects.filter(match=match).count() == 6


def test_a_refused_form_move_says_why_and_changes_nothing(two_player_match: Match, ann: User) -> None:
    client = logged_in(ann)
    for data in [
        {"action": "{not json", "ply": 0},
        {"action": '{"type": "explode"}', "ply": 0},
        {"action": '{"type": "choose", "position": 0}', "ply": 5},
    ]:
        response = client.post(f"/matches/{two_player_match.pk}/act", data, follow=True)
        assert response.status_code == 200
        assert any(m.level_tag == "error" for m in response.context["messages"])
    assert not Move.objects.exists()


def test_private_matches_are_hidden_from_strangers_and_public_ones_are_watchable(
    ann: User, bob: User, make_person: Any
) -> None:
    private = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility="private",
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    stranger = logged_in(make_person())
    assert stranger.get(f"/matches/{private.pk}/").status_code == 404  # a guessed id shows nothing
    # Open: the invitation link (with its token) lets people see it and join.
    assert stranger.get(f"/matches/{private.pk}/?invite={private.invite_token}").status_code == 200
    match_join(match_id=private.pk, user=bob)
    for client in (stranger, Client()):
        assert client.get(f"/matches/{private.pk}/").status_code == 404
        assert client.get(f"/matches/{private.pk}/board").status_code == 404
    public = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )
    page = Client().get(f"/matches/{public.pk}/")
    assert page.status_code == 200 and action_buttons(page.content.decode()) == []
    assert "Only the players can chat." in page.content.decode()


def test_whoever_makes_a_private_table_of_bots_watches_it_and_nobody_else_sees_it(
    ann: User, make_person: Any
) -> None:
    maker = logged_in(ann)
    made = maker.post(
        "/play/go-fox/",
        {"visibility": "private", "turn_limit": "", "seat_0": "bot-random", "seat_1": "bot-basic"},
    )
    assert made.status_code == 302
    match = Match.objects.get(created_by=ann)
    assert match.visibility == "private" and not match.seats.filter(user=ann).exists()
    page = maker.get(made["Location"])
    assert page.status_code == 200 and action_buttons(page.content.decode()) == []
    assert maker.get(f"/matches/{match.pk}/board").status_code == 200
    # And it finds the table again from My matches, as nobody else does.
    assert f'href="/matches/{match.pk}/"' in maker.get("/matches/").content.decode()
    for stranger in (logged_in(make_person()), Client()):
        assert stranger.get(f"/matches/{match.pk}/").status_code == 404


def test_posts_need_login_and_csrf(two_player_match: Match, ann: User) -> None:
    anonymous = Client()
    response = anonymous.post(f"/matches/{two_player_match.pk}/act", {"action": "{}", "ply": 0})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ann)
    assert strict.post(f"/matches/{two_player_match.pk}/resign").status_code == 403
    assert Match.objects.get(pk=two_player_match.pk).status == Match.Status.RUNNING


def test_the_turn_badge_counts_matches_waiting_for_me(two_player_match: Match, ann: User) -> None:
    Seat.objects.filter(match=two_player_match).update(owes_decision=True)
    page = logged_in(ann).get("/play/").content.decode()
    assert re.search(r'id="your-turn-badge"[^>]*>1<', page)
    dashboard = logged_in(ann).get("/matches/").content.decode()
    assert dashboard.index(f"/matches/{two_player_match.pk}/") < dashboard.index("Waiting for others")


def test_open_public_matches_are_listed_and_joinable(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="read-and-grab", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    lobby = Client().get("/play/").content.decode()
    assert f"/matches/{match.pk}/" in lobby
    response = logged_in(bob).post(f"/matches/{match.pk}/join")
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    assert f"/matches/{match.pk}/join" not in Client().get("/play/").content.decode()


def test_the_lobby_offers_every_available_bot_level_for_every_game() -> None:
    from games.bots import AVAILABLE_LEVELS
    from games.engine import all_games

    assert "basic" in AVAILABLE_LEVELS
    client = logged_in(User.objects.create_user(username="looker", password="x"))
    for game in all_games():
        page = client.get(f"/play/{game.slug}/").content.decode()
        for level in AVAILABLE_LEVELS:
            assert f'<option value="bot-{level}">{level.title()} Bot</option>' in page, (game.slug, level)


def test_a_bots_profile_says_its_level_and_how_it_plays() -> None:
    page = Client().get("/players/bot-basic/").content.decode()
    assert "Bot · Basic" in page and "rules of thumb" in page


def test_the_scenario_picker_shows_how_often_bots_win() -> None:
    user = User.objects.create_user(username="picker", password="x")
    page = logged_in(user).get("/play/its-a-bomb/").content.decode()
    assert re.search(
        r'<option value="training"[^>]*>1\. Training \(training, a basic bot team wins \d+%\)</option>', page
    )


def test_one_click_starts_a_match_against_bots_of_the_chosen_level(ann: User) -> None:
    client = logged_in(ann)
    page = client.get("/play/go-fox/").content.decode()
    assert re.search(r'<option value="basic" selected>Basic Bot</option>', page)  # the default
    response = client.post("/play/go-fox/quick", {"level": "expert"})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    seats = list(match.seats.select_related("user"))
    assert [seat.user.username for seat in seats] == ["ann", "bot-expert"]  # type: ignore[union-attr]
    assert match.status == Match.Status.RUNNING and match.turn_limit is None


def test_a_one_click_match_fills_as_many_seats_as_the_game_needs(ann: User) -> None:
    logged_in(ann).post("/play/booby-trap/quick", {"level": "random"})
    assert Match.objects.get().seats.count() == 2


def test_a_one_click_match_with_a_level_not_offered_creates_nothing(ann: User) -> None:
    client = logged_in(ann)
    for level in ("", "grandmaster", "BASIC"):
        response = client.post("/play/go-fox/quick", {"level": level}, follow=True)
        assert "Choose one of the bot levels" in response.content.decode()
    assert client.get("/play/go-fox/quick").status_code == 405
    assert Client().post("/play/go-fox/quick", {"level": "basic"}).status_code == 302  # to log in
    assert not Match.objects.exists()


def test_the_new_match_form_remembers_the_last_choices(ann: User, bob: User) -> None:
    client = logged_in(ann)
    client.post(
        "/play/dont-go-boom/",
        {"seat_0": "me", "seat_1": "invite", "seat_1_username": "bob", "seat_2": "bot-expert",
         "option_rounds": "2", "visibility": "private", "turn_limit": str(7 * 24 * 3600)},
    )  # fmt: skip
    assert Match.objects.count() == 1
    page = client.get("/play/dont-go-boom/").content.decode()
    selected = dict(
        re.findall(r'<select name="(\w+)"[^>]*>.*?<option value="([^"]*)"[^>]*selected', page, re.S)
    )
    assert selected["seat_1"] == "invite" and selected["seat_2"] == "bot-expert"
    assert selected["visibility"] == "private" and selected["turn_limit"] == str(7 * 24 * 3600)
    assert 'name="option_rounds" value="2"' in page and re.search(
        r'name="seat_1_username"[^>]* value="bob"', page
    )
    # Another person's form starts from the defaults.
    other = logged_in(bob).get("/play/dont-go-boom/").content.decode()
    assert re.search(r'name="seat_1_username"[^>]* value=""', other)


def test_a_new_match_defaults_to_a_day_per_turn_and_remembers_no_limit_when_chosen(ann: User) -> None:
    def chosen() -> str:
        page = logged_in(ann).get("/play/go-fox/").content.decode()
        found = re.search(
            r'<select name="turn_limit"[^>]*>.*?<option value="([^"]*)"[^>]*selected', page, re.S
        )
        assert found, "a time control is chosen"
        return found.group(1)

    assert chosen() == str(24 * 3600)
    client = logged_in(ann)
    client.post(
        "/play/go-fox/", {"seat_0": "me", "seat_1": "bot-basic", "visibility": "public", "turn_limit": ""}
    )
    assert Match.objects.get().turn_limit is None
    page = client.get("/play/go-fox/").content.decode()
    kept = re.search(r'<select name="turn_limit"[^>]*>.*?<option value="([^"]*)"[^>]*selected', page, re.S)
    assert kept and kept.group(1) == ""  # "No time limit", as this person last chose


def test_a_time_control_of_days_per_move_is_offered_and_kept(ann: User) -> None:
    page = logged_in(ann).get("/play/go-fox/").content.decode()
    for days in (1, 2, 7, 14):
        selected = " selected" if days == 1 else ""  # the default (issue 34: a day per turn)
        assert (
            f'<option value="{days * 24 * 3600}"{selected}>{days} day{"s" if days > 1 else ""} per turn</option>'
            in page
        )
    assert f'value="{15 * 24 * 3600}"' not in page
    response = logged_in(ann).post(
        "/play/go-fox/",
        {"seat_0": "me", "seat_1": "open", "visibility": "public", "turn_limit": str(15 * 86400)},
    )
    assert response.status_code == 400 and not Match.objects.exists()


@pytest.mark.parametrize("game_slug", ["go-fox", "dont-go-boom", "booby-trap", "ka-blam"])
def test_a_match_ended_by_a_resignation_offers_no_moves_and_says_why(
    ann: User, bob: User, game_slug: str
) -> None:
    match = match_create(
        creator=ann, game_slug=game_slug, options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.engine.result(match.decoded_state()) is None
    for person, said in (
        (ann, "The match is over: Bob resigned."),
        (bob, "The match is over: You resigned."),
    ):
        client = logged_in(person)
        for path in (f"/matches/{match.pk}/", f"/matches/{match.pk}/board"):
            page = client.get(path).content.decode()
            assert action_buttons(page) == [] and "act-form" not in page, (person, path)
            assert said in page and "Your turn" not in page, (person, path)
    # The replay's last step says it too, through each one's own eyes.
    assert (
        "The match is over: Bob resigned."
        in logged_in(ann).get(f"/matches/{match.pk}/replay").content.decode()
    )
    assert (
        "The match is over: You resigned."
        in logged_in(bob).get(f"/matches/{match.pk}/replay").content.decode()
    )
    # A spectator is told the same, and the API offers nothing to play.
    assert "The match is over: Bob resigned." in Client().get(f"/matches/{match.pk}/").content.decode()
    answer = api("GET", f"/api/matches/{match.pk}", token_for(ann)).json()
    assert answer["to_act"] == [] and answer["legal_actions"] == []
