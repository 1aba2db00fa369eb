"""The leaderboard page (/play/<game>/leaderboard) and the link to it from the game's page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.ratings.services import match_rate
from tests.games.helpers import logged_in
from tests.games.ratings.helpers import bot, finished_match

pytestmark = pytest.mark.django_db


def play(winner: User, loser: User, count: int) -> None:
    for number in range(count):
        finished_at = timezone.now() - timedelta(hours=count - number)
        match_rate(match_id=finished_match("go-fox", [(winner, 1), (loser, 2)], finished_at).pk)


def test_the_leaderboard_ranks_players_marks_bots_and_shows_my_provisional_rating(
    ann: User, bob: User
) -> None:
    basic = bot("basic")
    play(ann, basic, 10)
    play(bob, ann, 2)
    page = logged_in(bob).get("/play/go-fox/leaderboard")
    assert page.status_code == 200
    html = page.content.decode()
    table = html[html.index('id="leaderboard"') :]
    assert table.index("Ann") < table.index("Basic Bot")
    assert table.count('<span class="badge">bot</span>') == 1
    assert "Bob" not in table  # two rated matches: provisional, not listed
    assert "provisional" in html and "(2 of 10 rated matches)" in html


def test_the_leaderboard_of_a_game_nobody_has_played_says_so_to_a_visitor() -> None:
    page = Client().get("/play/boom-box/leaderboard")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Boom Box leaderboard" in html and "Nobody has played 10 rated matches" in html
    assert 'id="my-rating"' not in html


@pytest.mark.parametrize("slug", ["chess", "its-a-bomb", "GO-FOX"])
def test_an_unknown_or_unrated_game_has_no_leaderboard(slug: str) -> None:
    assert Client().get(f"/play/{slug}/leaderboard").status_code == 404


def test_a_rated_games_page_links_to_its_leaderboard_and_a_cooperative_ones_does_not() -> None:
    rated = Client().get("/play/go-fox/").content.decode()
    assert 'href="/play/go-fox/leaderboard"' in rated
    cooperative = Client().get("/play/its-a-bomb/").content.decode()
    assert "leaderboard" not in cooperative
