"""games/history/views.py: the History pages, their filters and pager, bad query strings,
the profile's partial, and a page's queries."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html import unescape
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.history.selectors import PAGE_SIZE
from games.models import Match
from tests.games.helpers import logged_in
from tests.games.history.helpers import bot, finished

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
# A History page: the session and its user, the navigation's "waiting for me" count
# (every page's), the rows with their matches, the seats of those matches' tables, and
# their notes (one query each for tournaments and ratings: games/match_notes.py).
HISTORY_PAGE = 7


def match_links(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', page)]


def older_link(page: str) -> str | None:
    found = re.search(r'<a href="([^"]+)" rel="next">Older matches</a>', page)
    return unescape(found.group(1)) if found else None


def test_my_history_lists_my_finished_matches_with_game_date_players_result_and_rank(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl", display_name="Carl")
    match = finished([bob, ann, carl], ranks=[1, 2, 3], finished_at=NOON)
    response = logged_in(ann).get("/history/")
    assert response.status_code == 200
    page = response.content.decode()
    assert match_links(page) == [match.pk]
    assert "Go Fox!" in page and "20 Nov 2026, 12:00" in page
    assert "Lost</strong>, 2nd of 3" in page and "with Bob, Carl" in page and ">rated<" in page
    assert f'href="/matches/{match.pk}/export.json"' in page
    assert 'href="/history/export.jsonl"' in page and "all my matches" in page


def test_a_history_row_shows_the_score_as_the_game_counts_it_and_links_the_replay(
    ann: User, bob: User
) -> None:
    """Issue 34, item 8: a row says how a match ended in its game's words, and leads to its replay."""
    match = finished([ann, bob], ranks=[1, 2], result={"scores": [16, 3], "ranks": [1, 2]}, finished_at=NOON)
    page = logged_in(ann).get("/history/").content.decode()
    assert "Won</strong>, 1st of 2 (16 pairs)" in page
    assert f'href="/matches/{match.pk}/replay"' in page


def test_dates_are_shown_and_filtered_in_the_players_time_zone(ann: User, bob: User) -> None:
    ann.time_zone = "Pacific/Auckland"  # UTC+13 in November
    ann.save()
    late = finished([ann, bob], finished_at=datetime(2026, 11, 20, 11, 30, tzinfo=UTC))
    client = logged_in(ann)
    assert "21 Nov 2026, 00:30" in client.get("/history/").content.decode()
    assert match_links(client.get("/history/?since=2026-11-21&until=2026-11-21").content.decode()) == [
        late.pk
    ]
    assert match_links(client.get("/history/?until=2026-11-20").content.decode()) == []


def test_a_visitor_is_asked_to_log_in(client: Client) -> None:
    response = client.get("/history/")
    assert (
        response.status_code == 200
        and "Log in</a> to see the matches you finished" in response.content.decode()
    )


def test_filters_come_from_the_query_string_and_the_pager_keeps_them(ann: User, bob: User) -> None:
    fox = [
        finished([ann, bob], game="go-fox", finished_at=NOON - timedelta(minutes=n))
        for n in range(PAGE_SIZE + 2)
    ]
    finished([ann, bob], game="ka-blam", finished_at=NOON + timedelta(minutes=1))
    client = logged_in(ann)
    first = client.get("/history/?game=go-fox&result=won").content.decode()
    assert match_links(first) == [match.pk for match in fox[:PAGE_SIZE]]
    assert "these matches" in first and 'href="/history/export.jsonl?game=go-fox&amp;result=won"' in first
    link = older_link(first)
    assert link is not None and "game=go-fox" in link and "result=won" in link
    second = client.get(link).content.decode()
    assert match_links(second) == [match.pk for match in fox[PAGE_SIZE:]]
    assert older_link(second) is None and 'href="/history/?game=go-fox&amp;result=won">Newest</a>' in second


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=chess", "Select a valid choice"),
        ("result=draw", "Select a valid choice"),
        ("bots=maybe", "Select a valid choice"),
        ("rated=1", "Select a valid choice"),
        ("since=yesterday", "Enter a valid date"),
        ("since=2026-11-21&until=2026-11-20", "The last day comes before the first"),
        ("since=0001-01-01", "Give a day from 2000-01-01 to 2999-12-31"),
        ("until=9999-12-31", "Give a day from 2000-01-01 to 2999-12-31"),
        ("opponent=" + "x" * 151, "at most 150 characters"),
        ("opponent=a%00b", "Text may not contain NUL characters"),  # boomsite/nul_characters.py
        ("after=not-a-cursor", "That page link is not valid"),
        ("after=" + "x" * 500, "That page link is not valid"),
    ],
)
def test_a_bad_query_string_is_a_400_that_says_what_is_wrong_and_lists_nothing(
    ann: User, bob: User, query: str, message: str
) -> None:
    finished([ann, bob])
    response = logged_in(ann).get(f"/history/?{query}")
    assert response.status_code == 400
    page = response.content.decode()
    assert message in unescape(page) and match_links(page) == []


def test_a_cursor_changed_by_hand_is_refused(ann: User, bob: User) -> None:
    for n in range(PAGE_SIZE + 1):
        finished([ann, bob], finished_at=NOON - timedelta(minutes=n))
    client = logged_in(ann)
    link = older_link(client.get("/history/").content.decode())
    assert link is not None
    cursor = link.split("after=", 1)[1]
    forged = cursor[:-3] + ("abc" if not cursor.endswith("abc") else "abd")
    assert client.get(f"/history/?after={forged}").status_code == 400
    assert client.get(link).status_code == 200


def test_a_players_page_shows_others_only_their_public_matches(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl")
    public = finished([ann, bob], finished_at=NOON)
    private = finished([ann, bob], visibility=Match.Visibility.PRIVATE, finished_at=NOON - timedelta(hours=1))
    assert match_links(Client().get("/history/players/ann/").content.decode()) == [public.pk]
    assert match_links(logged_in(carl).get("/history/players/ann/").content.decode()) == [public.pk]
    assert match_links(logged_in(bob).get("/history/players/ann/").content.decode()) == [
        public.pk,
        private.pk,
    ]
    assert Client().get("/history/players/nobody/").status_code == 404


def test_a_bots_page_lists_its_public_matches(ann: User) -> None:
    basic = bot("basic")
    match = finished([ann, basic])
    assert match_links(Client().get(f"/history/players/{basic.username}/").content.decode()) == [match.pk]


def test_an_htmx_request_gets_the_players_list_alone(ann: User, bob: User) -> None:
    match = finished([ann, bob])
    response = Client().get("/history/players/ann/", headers={"HX-Request": "true"})
    fragment = response.content.decode()
    assert match_links(fragment) == [match.pk]
    assert "<html" not in fragment and "HX-Request" in response["Vary"]


def test_no_page_has_inline_script_or_handlers(ann: User, bob: User) -> None:
    # The Content-Security-Policy refuses both.
    finished([ann, bob])
    for response in (logged_in(ann).get("/history/"), Client().get("/history/players/ann/")):
        page = response.content.decode()
        assert not re.search(r"<script>|<script [^>]*>[^<]|\son[a-z]+=", page)


def test_a_history_page_costs_the_same_queries_for_one_match_or_many(
    ann: User, bob: User, make_person: Callable[..., User], django_assert_num_queries: Any
) -> None:
    client = logged_in(ann)
    finished([ann, bob])
    with django_assert_num_queries(HISTORY_PAGE):
        assert client.get("/history/").status_code == 200
    people, random_bot = [ann, bob, make_person("carl"), make_person("dana")], bot("random")
    for n in range(PAGE_SIZE + 5):  # tables of three to five, each with a bot and a walk-over
        finished([*people[: 2 + n % 3], random_bot], resigned={1: False})
    with django_assert_num_queries(HISTORY_PAGE):
        page = client.get("/history/?bots=with&opponent=o&rated=no").content.decode()
    assert len(match_links(page)) == PAGE_SIZE
    with django_assert_num_queries(HISTORY_PAGE):
        assert client.get(older_link(page) or "").status_code == 200
