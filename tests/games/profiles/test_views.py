"""games/profiles/views.py: the profile page, /players/<username>/: the record per game,
the rating charts, the record against the viewer, the recent matches the viewer may
see, a 404 for nobody, and a page's queries."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Match
from games.ratings.selectors import rating_history, rating_of
from tests.games.helpers import logged_in
from tests.games.history.helpers import bot, finished
from tests.games.profiles.helpers import minutes, play_rated

pytestmark = pytest.mark.django_db

# The player, their ratings, their records, the charts' points, the recent matches,
# their tables' seats and their notes (a tournament's table, the rating changes); for a
# person signed in, also the session and its user, the navigation's "waiting for me"
# count, and the record against them.
PROFILE_PAGE_VISITOR = 8
PROFILE_PAGE_SIGNED_IN = 13  # and what the viewer is to the player: follow, blocks (games/social)


def cells(page: str, table_id: str, game: str) -> dict[str, str]:
    """The text of each cell (by its class) in ``game``'s row of the table ``table_id``."""
    table = re.search(rf'<table[^>]*id="{table_id}".*?</table>', page, re.S)
    assert table, f"no table {table_id}"
    row = re.search(rf'<tr data-game="{game}">(.*?)</tr>', table.group(0), re.S)
    assert row, f"no row of {game} in {table_id}"
    found = re.findall(r'<td[^>]*class="([\w-]+)"[^>]*>(.*?)</td>', row.group(1), re.S)
    return {name: " ".join(unescape(re.sub(r"<[^>]+>", "", text)).split()) for name, text in found}


def match_links(page: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', page)}


def test_a_profile_shows_the_record_in_each_game_played(
    client: Client, anns_matches: dict[str, Match]
) -> None:
    page = client.get("/players/ann/").content.decode()
    assert "<h1>Ann</h1>" in page and "@ann" in page and "playing since" in page
    assert cells(page, "game-records", "go-fox") == {
        "played": "11",
        "won": "8 (73%)",  # the shared first place is one
        "average-place": "1.36",
        "best-streak": "3",
        "current-streak": "2",
        "rating": "unrated",  # no match applied to the ratings
    }
    assert cells(page, "game-records", "ka-blam")["average-place"] == "2.00"
    bomb = cells(page, "game-records", "its-a-bomb")
    assert (bomb["won"], bomb["average-place"], bomb["rating"]) == ("1 (50%)", "—", "no ratings")
    assert 'data-game="dont-go-boom"' not in page  # only games with a finished match
    assert "Edit your settings" not in page and 'id="head-to-head"' not in page


def test_a_rated_game_shows_the_rating_provisional_until_ten_and_its_chart(ann: User, bob: User) -> None:
    play_rated("go-fox", ann, bob, 3)
    page = Client().get("/players/ann/").content.decode()
    rating = rating_of(ann, "go-fox")
    assert rating is not None
    assert cells(page, "game-records", "go-fox")["rating"] == f"{rating.display}? provisional"
    assert rating.display > 1500 and 'title="Provisional: 3 of 10 rated matches"' in page
    chart = re.search(r'<figure class="rating-figure" id="rating-chart-go-fox">(.*?)</figure>', page, re.S)
    assert chart, "no chart"
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart"' in chart.group(1)
    assert '<title id="rating-go-fox-title">Go Fox! rating</title>' in chart.group(1)
    assert chart.group(1).count("<circle") == 3
    change = rating_history(ann, "go-fox")[-1].change
    assert 0 < change < 74  # the third win in a row moves less than the first
    assert f"<title>20 Nov 2026: {rating.display}? (+{change})</title></circle>" in chart.group(1)
    caption = " ".join(unescape(re.sub(r"<[^>]+>", "", chart.group(1).split("</svg>")[1])).split())
    assert caption.startswith(
        f"Now {rating.display}? provisional after 3 rated matches. Hollow dots: provisional"
    )
    play_rated("go-fox", ann, bob, 7, start=10)
    page = Client().get("/players/ann/").content.decode()
    rating = rating_of(ann, "go-fox")
    assert rating is not None and cells(page, "game-records", "go-fox")["rating"] == str(rating.display)
    chart = re.search(r'<figure class="rating-figure" id="rating-chart-go-fox">(.*?)</figure>', page, re.S)
    assert chart and f"<title>20 Nov 2026: {rating.display} (+" in chart.group(1)  # no "?" now
    assert chart.group(1).count("is-provisional") == 9  # the first nine dots
    # Bob's chart too: a chart per rated game, for whoever has a rating.
    assert 'id="rating-chart-go-fox"' in Client().get("/players/bob/").content.decode()


def test_a_person_sees_their_record_against_the_player(bob: User, anns_matches: dict[str, Match]) -> None:
    page = logged_in(bob).get("/players/ann/").content.decode()
    assert "Ann and you" in page
    assert cells(page, "head-to-head-table", "go-fox") == {
        "met": "8",
        "player-ahead": "4",
        "viewer-ahead": "3",
        "tied": "1",
    }
    assert cells(page, "head-to-head-table", "ka-blam")["viewer-ahead"] == "1"
    assert cells(page, "head-to-head-table", "its-a-bomb")["together"] == "On one side: won 1 of 1 together"
    assert (
        '<time datetime="2026-11-20T12:10:00+00:00">20 Nov 2026</time>' in page
    )  # the last Go Fox! together


def test_nobody_sees_a_record_against_themself_and_a_stranger_is_told_they_never_met(
    ann: User, make_person: Callable[..., User], anns_matches: dict[str, Match]
) -> None:
    own = logged_in(ann).get("/players/ann/").content.decode()
    assert 'id="head-to-head"' not in own and "Edit your settings" in own
    stranger = logged_in(make_person("dana")).get("/players/ann/").content.decode()
    assert "You have not finished a match with Ann yet." in stranger


def test_private_matches_are_listed_only_to_who_played_them_but_count_for_everyone(
    carl: User, make_person: Callable[..., User], anns_matches: dict[str, Match]
) -> None:
    private = anns_matches["private win"].pk
    for viewer in (Client(), logged_in(make_person("dana"))):
        page = viewer.get("/players/ann/").content.decode()
        assert private not in match_links(page)
        assert len(match_links(page)) == 10 and cells(page, "game-records", "go-fox")["played"] == "11"
        assert '<a href="/history/players/ann/">All of Ann' in page
    assert private in match_links(logged_in(carl).get("/players/ann/").content.decode())
    # Older ones are on History's page of the player, not here.
    assert anns_matches["win"].pk not in match_links(Client().get("/players/ann/").content.decode())


def test_an_unknown_or_closed_account_has_no_profile(make_person: Callable[..., User]) -> None:
    assert Client().get("/players/nobody/").status_code == 404
    make_person("gone", is_active=False)
    assert Client().get("/players/gone/").status_code == 404
    assert Client().post("/players/nobody/").status_code == 405


def test_a_bot_has_a_profile_with_its_record_and_rating(ann: User) -> None:
    basic = bot("basic")
    play_rated("go-fox", basic, ann, 2)
    finished(
        [ann, basic, basic], ranks=[1, 3, 2], finished_at=minutes(5)
    )  # seated twice: its first seat counts
    page = Client().get(f"/players/{basic.username}/").content.decode()
    assert "Bot · Basic" in page and "rules of thumb" in page and "playing since" not in page
    record = cells(page, "game-records", "go-fox")
    assert (record["played"], record["won"], record["average-place"]) == ("3", "2 (67%)", "1.67")
    assert 'id="rating-chart-go-fox"' in page
    against = cells(
        logged_in(ann).get(f"/players/{basic.username}/").content.decode(), "head-to-head-table", "go-fox"
    )
    assert (against["met"], against["player-ahead"], against["viewer-ahead"]) == ("3", "2", "1")


def test_a_profile_costs_the_same_queries_for_one_match_or_many(
    ann: User, bob: User, carl: User, django_assert_num_queries: Any, django_assert_max_num_queries: Any
) -> None:
    client = logged_in(bob)
    play_rated("go-fox", ann, bob, 1)
    with django_assert_num_queries(PROFILE_PAGE_SIGNED_IN):
        assert client.get("/players/ann/").status_code == 200
    play_rated("go-fox", bob, ann, 30, start=10)
    play_rated("ka-blam", ann, carl, 12, start=50)
    for number in range(15):
        finished([ann, bob, carl], game="its-a-bomb", ranks=[1, 1, 1], finished_at=minutes(100 + number),
                 result={"won": number % 2 == 0, "scores": None, "ranks": [1, 1, 1]})  # fmt: skip
    with django_assert_max_num_queries(PROFILE_PAGE_SIGNED_IN):
        page = client.get("/players/ann/").content.decode()
    assert page.count('class="rating-figure"') == 2 and len(match_links(page)) == 10
    assert cells(page, "game-records", "go-fox")["played"] == "31"
    with django_assert_max_num_queries(PROFILE_PAGE_VISITOR):
        assert Client().get("/players/ann/").status_code == 200


def test_the_page_has_no_inline_script_or_handlers(
    ann: User, bob: User, anns_matches: dict[str, Match]
) -> None:
    # The Content-Security-Policy refuses both: the charts are drawn on the server.
    play_rated("go-fox", bob, ann, 2, start=50)
    page = logged_in(bob).get("/players/ann/").content.decode()
    assert 'class="rating-chart"' in page
    assert not re.search(r"<script>|<script [^>]*>[^<]|\son[a-z]+=", page)
