"""Issue 35, item 4: bot accounts for programs. A person marks their own account, once and
for good, while it has no rated match and none running; it then moves through the API
only (the pages refuse with a clear message), shows as a bot wherever its name shows,
and is rated in no pool. The house bots stay what they were."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import BotAccountError, api_token_find, user_become_bot_account
from games.errors import API_ONLY_MESSAGE
from games.models import Match, Move
from games.ratings import rules
from games.ratings.services import RateOutcome, match_rate
from games.services import SeatRequest, match_create, match_join, match_resign
from tests.games.helpers import api, logged_in, token_for
from tests.games.history.helpers import bot, finished
from tests.games.sockets import Viewer, next_of, run, socket, to_act


def become_bot(user: User) -> User:
    return user_become_bot_account(user=user)


def program_vs(person: User, program: User) -> Match:
    """Go Fox! between ``person`` (seat 0) and ``program`` (seat 1), running."""
    match = match_create(
        creator=person,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username=program.username)],
    )
    match_join(match_id=match.pk, user=program)
    return Match.objects.get(pk=match.pk)


@pytest.mark.django_db
def test_a_person_makes_their_account_a_bot_account_on_the_account_page(ann: User) -> None:
    client = logged_in(ann)
    page = client.get("/accounts/settings/").content.decode()
    assert "Make this a bot account" in page and "cannot be turned back" in page
    # Not without ticking the box.
    page = client.post("/accounts/settings/bot-account", follow=True).content.decode()
    assert "Tick the box to confirm" in page
    assert User.objects.get(pk=ann.pk).bot_account_since is None
    page = client.post("/accounts/settings/bot-account", {"confirm": "yes"}, follow=True).content.decode()
    ann.refresh_from_db()
    assert ann.is_program_bot and ann.labelled_bot and not ann.is_bot
    assert "This is a bot account since" in page and "Make this a bot account" not in page
    # For good: asked again, refused and nothing changes.
    since = ann.bot_account_since
    page = client.post("/accounts/settings/bot-account", {"confirm": "yes"}, follow=True).content.decode()
    assert "a bot account already" in page
    assert User.objects.get(pk=ann.pk).bot_account_since == since


@pytest.mark.django_db
def test_only_an_account_with_no_rated_match_and_none_running_becomes_one(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    played = finished([ann, bob])
    assert match_rate(match_id=played.pk) == RateOutcome.RATED
    with pytest.raises(BotAccountError, match="has played 1 rated match: a bot account starts with none"):
        become_bot(ann)
    carol = make_person("carol")
    running = match_create(
        creator=carol,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )
    with pytest.raises(BotAccountError, match="Finish your 1 running match first"):
        become_bot(carol)
    with pytest.raises(BotAccountError, match="house bots are bots already"):
        become_bot(bot("basic"))
    assert not User.objects.exclude(bot_account_since=None).exists()
    match_resign(match_id=running.pk, user=carol)  # an unrated walk-over: no rated match
    assert become_bot(carol).is_program_bot


@pytest.mark.django_db
def test_it_moves_through_the_api_and_the_match_page_refuses_its_moves(ann: User, bob: User) -> None:
    program = become_bot(bob)
    match = program_vs(ann, program)
    seat, action = to_act(match)
    if seat == 0:  # Ann first: she moves, then it is the program's turn
        api(
            "POST", f"/api/matches/{match.pk}/actions", token_for(ann),
            {"action": action, "ply": 0, "action_id": str(uuid.uuid4())},
        )  # fmt: skip
        seat, action = to_act(match)
    assert seat == 1
    ply = Match.objects.get(pk=match.pk).ply
    client = logged_in(program)
    page = client.post(
        f"/matches/{match.pk}/act", {"action": json.dumps(action), "ply": ply}, follow=True
    ).content.decode()
    assert "This is a bot account: its moves come from its program, through the API" in page
    assert Match.objects.get(pk=match.pk).ply == ply
    played = api(
        "POST", f"/api/matches/{match.pk}/actions", token_for(program), {"action": action, "ply": ply}
    )
    assert played.status_code == 201 and Match.objects.get(pk=match.pk).ply == ply + 1


@pytest.mark.django_db(transaction=True)
def test_the_match_socket_refuses_its_moves_too(ann: User, bob: User) -> None:
    program = become_bot(bob)
    match = program_vs(ann, program)
    _, action = to_act(match)
    viewer = Viewer(program)

    async def scenario() -> None:
        ws = socket(match.pk, viewer)
        await ws.connect()
        await next_of(ws, "board")
        await ws.send_json_to({"type": "act", "action": action, "ply": 0, "action_id": "a1"})
        error = await next_of(ws, "error")
        assert (error["code"], error["message"], error["action_id"]) == ("api_only", API_ONLY_MESSAGE, "a1")
        await ws.disconnect()

    run(scenario)
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_it_shows_as_a_bot_wherever_its_name_shows(ann: User, bob: User) -> None:
    program = become_bot(bob)
    match = program_vs(ann, program)
    players = api("GET", f"/api/matches/{match.pk}", token_for(ann)).json()["players"]
    assert [(p["name"], p["is_bot"]) for p in players] == [("Ann", False), ("Bob", True)]
    page = logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    assert page.count('<span class="badge" title="a program\'s bot account">bot</span>') == 1
    profile = logged_in(ann).get("/players/bob/").content.decode()
    assert '<span class="badge">Bot</span>' in profile and "a program plays it, through the API" in profile
    listed = api("GET", "/api/matches", token_for(ann)).json()
    assert [p["is_bot"] for group in listed.values() for m in group for p in m["players"]] == [False, True]


@pytest.mark.django_db
def test_its_matches_are_rated_in_no_pool(ann: User, bob: User, make_person: Callable[..., User]) -> None:
    program = become_bot(make_person("robo"))
    against_a_person = finished([ann, program])
    assert match_rate(match_id=against_a_person.pk) == rules.Unrated.BOT_ACCOUNT
    two_programs = finished([program, become_bot(make_person("robo2"))])
    assert match_rate(match_id=two_programs.pk) == rules.Unrated.BOT_ACCOUNT
    token = token_for(ann)
    history = api("GET", "/api/history", token).json()["matches"]
    assert [(row["rated"], [p["is_bot"] for p in row["players"]]) for row in history] == [
        (False, [False, True])
    ]
    # History's "with bots" filter counts it as a bot, as the table shows it.
    assert [row["id"] for row in api("GET", "/api/history?bots=with", token).json()["matches"]] == [
        against_a_person.pk
    ]
    assert api("GET", "/api/history?bots=without", token).json()["matches"] == []
    # The same table with a person instead is rated, as ever.
    assert match_rate(match_id=finished([ann, bob]).pk) == RateOutcome.RATED


@pytest.mark.django_db
def test_the_house_bots_stay_house_bots(ann: User, make_person: Callable[..., User]) -> None:
    basic = bot("basic")
    assert basic.is_bot and basic.labelled_bot and not basic.is_program_bot
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="basic")],
    )
    players = api("GET", f"/api/matches/{match.pk}", token_for(ann)).json()["players"]
    assert [p["is_bot"] for p in players] == [False, True]
    # A program's bot account holds tokens; a house bot never does.
    program = become_bot(make_person())
    assert api_token_find(token_for(program)) is not None
    assert program.bot_account_since is not None and program.bot_account_since <= timezone.now()
