"""The leaderboard page (/play/<game>/leaderboard) and the link to it from the game's page."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.ratings.models import RatingChange
from games.ratings.selectors import rating_history, rating_of
from games.ratings.services import match_rate
from tests.games.helpers import logged_in
from tests.games.ratings.helpers import bot, finished_match, timed_out

pytestmark = pytest.mark.django_db


def play(winner: User, loser: User, count: int) -> None:
    for number in range(count):
        finished_at = timezone.now() - timedelta(hours=count - number)
        match_rate(match_id=finished_match("go-fox", [(winner, 1), (loser, 2)], finished_at).pk)


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def board_rows(html: str, group: str) -> list[tuple[str, ...]]:
    """The rows of the leaderboard's ``group`` ("established" or "provisional"): each
    row's place, player, rating (as a screen reader hears it) and rated matches."""
    body = re.search(rf'<tbody class="{group}">(.*?)</tbody>', html, re.S)
    if body is None:
        return []
    rows = re.findall(r"<tr data-player=[^>]*>(.*?)</tr>", body.group(1), re.S)
    return [tuple(text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)) for row in rows]


def test_the_leaderboard_lists_the_established_then_the_provisional_marked_and_bots_marked(
    ann: User, bob: User
) -> None:
    basic = bot("basic")
    play(ann, basic, 10)
    play(bob, ann, 2)
    page = logged_in(bob).get("/play/go-fox/leaderboard")
    assert page.status_code == 200
    html = page.content.decode()
    ratings = {user.username: rating_of(user, "go-fox") for user in (ann, bob, basic)}
    shown = {name: rating.display for name, rating in ratings.items() if rating is not None}
    assert board_rows(html, "established") == [
        ("1", "Ann", str(shown["ann"]), "12"),
        ("2", "Basic Bot bot", str(shown["bot-basic"]), "10"),
    ]
    # Bob, two rated matches: listed, below the established, his rating marked "?".
    assert board_rows(html, "provisional") == [("3", "Bob", f"{shown['bob']}? provisional", "2")]
    assert 'title="Provisional: 2 of 10 rated matches"><span aria-hidden="true">?</span>' in html
    assert "Provisional: fewer than 10 rated matches" in html and "nobody-established" not in html
    mine = re.search(r'<p id="my-rating">(.*?)</p>', html, re.S)
    assert mine and text(mine.group(1)) == (
        f"Your rating: {shown['bob']}? provisional (provisional: 2 of 10 rated matches)"
    )
    # Ann's view: hers is established.
    mine = re.search(
        r'<p id="my-rating">(.*?)</p>', logged_in(ann).get("/play/go-fox/leaderboard").content.decode(), re.S
    )
    assert mine and text(mine.group(1)) == f"Your rating: {shown['ann']} (12 rated matches)"


def test_a_leaderboard_of_provisional_players_only_lists_them_and_says_why() -> None:
    ann = User.objects.create_user(username="ann", password="x", display_name="Ann")
    play(ann, bot("random"), 1)
    html = Client().get("/play/go-fox/leaderboard").content.decode()
    assert board_rows(html, "established") == []
    assert board_rows(html, "provisional") == [
        ("1", "Ann", "1574? provisional", "1"),
        ("2", "Random Bot bot", "1426? provisional", "1"),
    ]
    assert (
        "Nobody has played 10 rated matches of Go Fox! yet: every rating here is still provisional." in html
    )


def test_the_leaderboard_of_a_game_nobody_has_played_says_so_to_a_visitor() -> None:
    page = Client().get("/play/boom-box/leaderboard")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Boom Box leaderboard" in html
    assert "Nobody has played a rated match of Bouldertroll Boom Box in the last 30 days." in html
    assert 'id="leaderboard"' not in html and 'id="my-rating"' not in html


@pytest.mark.parametrize("slug", ["chess", "its-a-bomb", "GO-FOX"])
def test_an_unknown_or_unrated_game_has_no_leaderboard(slug: str) -> None:
    assert Client().get(f"/play/{slug}/leaderboard").status_code == 404


def test_a_rated_games_page_links_to_its_leaderboard_and_a_cooperative_ones_does_not() -> None:
    rated = Client().get("/play/go-fox/").content.decode()
    assert 'href="/play/go-fox/leaderboard"' in rated
    cooperative = Client().get("/play/its-a-bomb/").content.decode()
    assert "leaderboard" not in cooperative


def test_a_rated_matchs_page_notes_what_it_did_to_each_rating_once_it_is_rated(ann: User, bob: User) -> None:
    first = finished_match("go-fox", [(bob, 2), (ann, 1)], timezone.now() - timedelta(hours=20))
    page = Client().get(f"/matches/{first.pk}/").content.decode()
    assert "Ratings:" not in page  # finished, not rated yet: the task runs just after
    match_rate(match_id=first.pk)
    page = Client().get(f"/matches/{first.pk}/").content.decode()
    # By seat, each with its "?" and its change, linking to the leaderboard.
    assert (
        '<p class="match-note"><a href="/play/go-fox/leaderboard">'
        "Ratings: Bob 1426? (\u221274), Ann 1574? (+74)</a></p>"
    ) in page
    play(ann, bob, 9)  # Ann's tenth: established after it
    tenth = RatingChange.objects.filter(user=ann).latest("finished_at", "match_id").match
    ninth_change = rating_history(ann, "go-fox")[-2]
    tenth_change = rating_history(ann, "go-fox")[-1]
    ninth = Client().get(f"/matches/{ninth_change.match_id}/").content.decode()
    assert f"Ann {ninth_change.display_after}? (+{ninth_change.change})" in ninth
    assert f"Ann {tenth_change.display_after} (+{tenth_change.change})," in (
        Client().get(f"/matches/{tenth.pk}/").content.decode()
    )


def test_an_unrated_match_has_no_ratings_note(ann: User, bob: User) -> None:
    # (A match being played has none either, without a query: test_query_budgets.py.)
    unrated = finished_match("go-fox", [timed_out(ann, 2, moved=False), (bob, 1)], timezone.now())
    match_rate(match_id=unrated.pk)  # out before their first move: not rated
    assert "Ratings:" not in Client().get(f"/matches/{unrated.pk}/").content.decode()
