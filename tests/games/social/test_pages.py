"""Friends, challenges and blocks as pages show them: the profile's buttons and challenge
form, the challenge page's refusals, one's own lists, invitations that read as
challenges, chat hidden across a block, and the home page's sections at a fixed cost."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.live import presence
from games.models import ChatMessage, Match
from games.services import chat_post, match_join, match_resign
from games.social import services
from games.social.models import Block, Follow
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db


def ids_in(page: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', page))


def test_a_signed_in_person_sees_follow_block_and_a_challenge_form_on_someone_else_s_profile(
    ann: User, bob: User
) -> None:
    page = logged_in(ann).get("/players/bob/?game=ka-blam").content.decode()
    assert {"follow", "block", "challenge", "challenge-form", "send-challenge"} <= ids_in(page)
    assert "online-now" not in ids_in(page)  # Bob has not been on the site
    # The chosen game's options, from its defaults, and the lobby's time control (a day).
    assert 'name="option_target"' in page and 'name="option_length"' in page
    assert '<input type="hidden" name="game" value="ka-blam">' in page
    assert '<option value="86400" selected>' in page
    assert "Challenge Bob</button>" in page
    # A visitor gets none of it; Ann's own profile lists whom she follows instead.
    assert not {"follow", "block", "challenge"} & ids_in(Client().get("/players/bob/").content.decode())
    own = logged_in(ann).get("/players/ann/").content.decode()
    assert "following" in ids_in(own) and not {"follow", "challenge"} & ids_in(own)
    assert "You follow nobody yet." in own


def test_the_profile_says_who_is_online_but_not_across_a_block(ann: User, bob: User) -> None:
    logged_in(bob).get("/")  # a page marks Bob seen on the site
    assert presence.online_among([ann.pk, bob.pk]) == {bob.pk}
    assert "online-now" in ids_in(logged_in(ann).get("/players/bob/").content.decode())
    with time_machine.travel(timezone.now() + timedelta(seconds=presence.ONLINE_SECONDS + 1)):
        assert presence.online_among([bob.pk]) == set()
        assert "online-now" not in ids_in(logged_in(ann).get("/players/bob/").content.decode())
    services.block(blocker=bob, blocked=ann)
    page = logged_in(ann).get("/players/bob/").content.decode()
    assert "online-now" not in ids_in(page) and not {"follow", "challenge"} & ids_in(page)
    assert "block" in ids_in(page)  # Ann may block Bob too: hers stands if he lifts his
    assert "Bob does not take invitations or challenges from you." in page


def test_a_page_marks_its_person_seen_at_most_once_a_minute(ann: User) -> None:
    client = logged_in(ann)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        client.get("/")
    presence._client().zadd(presence._seen_key(), {str(ann.pk): 0})  # as if seen long ago
    with time_machine.travel(start + timedelta(seconds=presence.SEEN_WRITE_SECONDS - 1), tick=False):
        client.get("/")  # within the minute: not written again
        assert presence.online_among([ann.pk]) == set()
    with time_machine.travel(start + timedelta(seconds=presence.SEEN_WRITE_SECONDS + 1), tick=False):
        client.get("/")
        assert presence.online_among([ann.pk]) == {ann.pk}


def test_follow_unfollow_block_and_unblock_buttons(ann: User, bob: User) -> None:
    client = logged_in(ann)
    response = client.post("/players/bob/follow", follow=True)
    assert response.redirect_chain == [("/players/bob/", 302)]
    assert "You follow Bob" in response.content.decode() and "unfollow" in ids_in(response.content.decode())
    assert Follow.objects.filter(follower=ann, followed=bob).exists()
    # One's own list, and unfollowing from it comes back to it.
    own = client.get("/players/ann/").content.decode()
    assert re.search(r'<li class="match-row"><a href="/players/bob/">Bob</a>', own)
    response = client.post("/players/bob/unfollow", {"next": "/players/ann/"})
    assert response["Location"] == "/players/ann/" and not Follow.objects.exists()
    # A "next" off the site is not followed.
    assert (
        client.post("/players/bob/follow", {"next": "https://evil.example/"})["Location"] == "/players/bob/"
    )
    page = client.post("/players/bob/block", follow=True).content.decode()
    assert "You blocked Bob" in page and "unblock" in ids_in(page) and not Follow.objects.exists()
    own = client.get("/players/ann/").content.decode()
    assert "blocked-list" in ids_in(own) and "Unblock Bob" in own
    client.post("/players/bob/unblock")
    assert not Block.objects.exists()
    # Refusals are said, and change nothing; only POST; only signed in.
    page = client.post("/players/ann/follow", follow=True).content.decode()
    assert "You cannot follow yourself." in page and not Follow.objects.exists()
    assert client.get("/players/bob/follow").status_code == 405
    assert Client().post("/players/bob/follow")["Location"].startswith("/accounts/login/")
    assert client.post("/players/nobody/follow").status_code == 404


def test_a_challenge_from_the_page_makes_the_invitation_that_reads_as_a_challenge(
    ann: User, bob: User
) -> None:
    client = logged_in(ann)
    page = client.get("/players/bob/challenge?game=dont-go-boom")
    assert page.status_code == 200 and 'name="option_rounds"' in page.content.decode()
    response = client.post(
        "/players/bob/challenge",
        {"game": "dont-go-boom", "option_rounds": "2", "turn_limit": "3600"},
        follow=True,
    )
    match = Match.objects.get()
    assert response.redirect_chain == [(f"/matches/{match.pk}/", 302)]
    assert (
        "You challenged Bob to Don&#x27;t Go Boom: the match starts when they accept."
        in response.content.decode()
    )
    assert match.options == {"rounds": 2} and match.turn_limit == 3600 and match.is_challenge
    # Bob's invitations say so, and his Accept starts the match.
    mine = logged_in(bob).get("/matches/").content.decode()
    assert "Ann challenges you" in mine
    assert "Challenge</span>" in client.get("/matches/").content.decode()  # Ann's open match
    logged_in(bob).post(f"/matches/{match.pk}/join")
    assert Match.objects.get().status == Match.Status.RUNNING


def test_a_refused_challenge_shows_the_form_again_with_the_reason_and_writes_nothing(
    ann: User, bob: User
) -> None:
    client = logged_in(ann)
    response = client.post(
        "/players/bob/challenge", {"game": "dont-go-boom", "option_rounds": "9", "turn_limit": ""}
    )
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 5." in response.content.decode()
    response = client.post("/players/ann/challenge", {"game": "go-fox", "turn_limit": ""})
    assert response.status_code == 400 and "You cannot challenge yourself." in response.content.decode()
    services.block(blocker=bob, blocked=ann)
    response = client.post("/players/bob/challenge", {"game": "go-fox", "turn_limit": ""})
    assert (
        response.status_code == 400
        and "You cannot challenge Bob: they have blocked you." in response.content.decode()
    )
    assert not Match.objects.exists()
    assert Client().get("/players/bob/challenge")["Location"].startswith("/accounts/login/")


def test_playing_a_bot_from_its_profile_starts_the_match(ann: User) -> None:
    client = logged_in(ann)
    page = client.get("/players/bot-basic/").content.decode()
    assert "Play Basic Bot</button>" in page and "follow" not in ids_in(page) and "block" not in ids_in(page)
    response = client.post("/players/bot-basic/challenge", {"game": "go-fox", "turn_limit": ""})
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/" and match.status == Match.Status.RUNNING


def test_chat_lines_across_a_block_are_not_on_the_page(duel: Match, ann: User, bob: User, cat: User) -> None:
    chat_post(match_id=duel.pk, user=ann, text="hello from Ann")
    chat_post(match_id=duel.pk, user=bob, text="hello from Bob")
    services.block(blocker=ann, blocked=bob)
    assert ChatMessage.objects.count() == 2  # nothing is deleted: only not shown

    def lines(viewer: User | None) -> list[str]:
        client = logged_in(viewer) if viewer else Client()
        page = client.get(f"/matches/{duel.pk}/").content.decode()
        return re.findall(r"</time> (hello from \w+)</li>", page)

    assert lines(ann) == ["hello from Ann"]
    assert lines(bob) == ["hello from Bob"]  # both ways
    assert lines(cat) == lines(None) == ["hello from Ann", "hello from Bob"]


# -- the home page -----------------------------------------------------------------------


def finished_against_bob(person: User, bob: User) -> Match:
    """A public Go Fox! match ``person`` won against Bob (he resigned)."""
    match = services.challenge(
        challenger=person, challenged=bob, game_slug="go-fox", options=None, turn_limit=None
    )
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=bob)
    Match.objects.filter(pk=match.pk).update(visibility=Match.Visibility.PUBLIC)
    return match


def test_friends_online_and_their_results_on_the_home_page_cost_the_same_for_one_or_many(
    ann: User, bob: User, cat: User, make_person: Any
) -> None:
    client = logged_in(ann)
    assert not {"friends-online", "friends-results"} & ids_in(client.get("/").content.decode())
    services.follow(follower=ann, followed=bob)
    logged_in(bob).get("/")  # Bob is on the site
    first = finished_against_bob(cat, bob)
    with CaptureQueriesContext(connection) as few:
        home = client.get("/").content.decode()
    assert '<h2 id="friends-online">Friends online</h2>' in home
    assert '<a href="/players/bob/challenge">Challenge Bob</a> <span class="muted">online now</span>' in home
    assert '<a href="/players/ann/#following">Everyone you follow</a>' in home
    assert '<h2 id="friends-results">Friends&#x27; recent results</h2>' in home
    assert (
        f'<a href="/matches/{first.pk}/">Bob lost · Go Fox! #{first.pk}</a> <span class="muted">with Cat · '
        in home
    )
    # Five more people, followed and online, each with a finished match: the same queries.
    for number in range(5):
        person = make_person(f"friend{number}")
        services.follow(follower=ann, followed=person)
        logged_in(person).get("/")
        finished_against_bob(person, bob)
    with CaptureQueriesContext(connection) as many:
        home = client.get("/").content.decode()
    assert len(many.captured_queries) == len(few.captured_queries)
    assert home.count("online now") == 6
    results = re.findall(r'<a href="/matches/(\d+)/">([^<]+)</a>', home)
    assert len(results) == 5  # the newest five, newest first
    assert results[0][1] == f"friend4 won, Bob lost · Go Fox! #{results[0][0]}"
    # Blocked, Bob leaves both lists (and the follow with him).
    services.block(blocker=bob, blocked=ann)
    home = client.get("/").content.decode()
    assert "Challenge Bob" not in home and "Bob lost" not in home and "friend4 won ·" in home
