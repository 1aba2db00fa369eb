"""A player opens an opponent's profile from a finished match in chromium and sees their
record, their rating chart and the two players' record against each other; then the
game's leaderboard from the rating, where both (four rated matches each) are listed as
provisional. Both pages pass axe-core."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Match
from games.ratings.models import RatingChange
from games.ratings.services import RateOutcome, match_rate
from games.services import SeatRequest, match_create, match_join
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.conftest import wait_for
from tests.games.history.helpers import finished, play_to_the_end

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def rivals() -> tuple[User, Match]:
    """Ann and Bob: three rated Go Fox! matches last week (Bob won two), then one played
    to the end through the services, whose page Ann opens."""
    ann = User.objects.create_user(username="ann", password="pw-ann-1234", display_name="Ann")
    bob = User.objects.create_user(username="bob", password="pw-bob-1234", display_name="Bob")
    last_week = timezone.now() - timedelta(days=7)
    for day, ranks in enumerate([[2, 1], [1, 2], [2, 1]]):
        earlier = finished([ann, bob], ranks=ranks, finished_at=last_week + timedelta(days=day))
        assert match_rate(match_id=earlier.pk) == RateOutcome.RATED
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    return ann, play_to_the_end(Match.objects.get(pk=match.pk), {0: ann, 1: bob}, seed=3)


def test_a_player_opens_an_opponents_profile_from_a_match_and_sees_stats_chart_and_head_to_head(
    live_site: str, browser: Any
) -> None:
    ann, match = off_the_event_loop(rivals)
    # The worker rates the played match when it hears it finished.
    wait_for(lambda: RatingChange.objects.filter(match=match).exists(), timeout=60, what="the rating")
    context = browser.new_context()
    log_in(context, live_site, ann)
    page = context.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/")
    # Under the title, what the match did to both ratings, each still provisional.
    note = page.locator(".match-note", has_text="Ratings:").inner_text()
    assert re.fullmatch(r"Ratings: Ann \d{4}\? \([+\u2212]\d+\), Bob \d{4}\? \([+\u2212]\d+\)", note), note
    with page.expect_navigation(url=re.compile(r"/players/bob/$")):
        page.locator("#match-live .player-name a", has_text="Bob").click()

    assert page.locator("h1").inner_text() == "Bob"
    record = page.locator("#game-records tr[data-game='go-fox']")
    assert record.locator("td.played").inner_text() == "4"
    # The rating on the new scale, marked "?" (four rated matches), the mark explained on
    # pointing at it, and the word "provisional" there for screen readers only.
    rating = record.locator("td.rating")
    assert re.fullmatch(r"\d{4}\?\s*provisional", rating.locator("a").inner_text()), rating.inner_text()
    mark = rating.locator(".provisional-mark")
    assert mark.get_attribute("title") == "Provisional: 4 of 10 rated matches"
    hidden_word = mark.locator(".visually-hidden").bounding_box()
    assert hidden_word is not None and hidden_word["width"] <= 1

    # The chart: drawn on the server, seen on the page, a dot per rated match.
    chart = page.locator("#rating-chart-go-fox svg.rating-chart")
    chart.wait_for()
    box = chart.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 80
    assert chart.locator("title").first.text_content() == "Go Fox! rating"
    assert chart.locator("circle").count() == 4
    # Every point provisional: hollow dots, drawn so by the page's stylesheet.
    assert chart.locator("circle.is-provisional").count() == 4
    dot_fill = chart.locator("circle").first.evaluate("dot => getComputedStyle(dot).fill")
    card = page.locator("#rating-chart-go-fox").evaluate("figure => getComputedStyle(figure).backgroundColor")
    assert dot_fill == card

    head_to_head = page.locator("#head-to-head")
    assert "Bob and you" in head_to_head.locator("h2").inner_text()
    together = head_to_head.locator("tr[data-game='go-fox']")
    assert together.locator("td.met").inner_text() == "4"
    bob_ahead = int(together.locator("td.player-ahead").inner_text())
    ann_ahead = int(together.locator("td.viewer-ahead").inner_text())
    level = int(together.locator("td.tied").inner_text())
    assert bob_ahead + ann_ahead + level == 4 and bob_ahead >= 2 and ann_ahead >= 1

    # The recent matches, the played one first, link back to it.
    recent = page.locator(".player-matches li.match-row a[href^='/matches/']")
    assert recent.first.get_attribute("href") == f"/matches/{match.pk}/"
    assert serious_findings(page) == []

    # The rating links to the game's leaderboard: nobody has ten rated matches yet, so
    # both are listed, provisional, Ann's own rating above the table.
    with page.expect_navigation(url=re.compile(r"/play/go-fox/leaderboard$")):
        rating.locator("a").click()
    assert page.locator("#nobody-established").is_visible()
    provisional = page.locator("#leaderboard tbody.provisional tr[data-player]")
    assert provisional.count() == 2 and page.locator("#leaderboard tbody.established").count() == 0
    names = [provisional.nth(row).locator("td.player").inner_text() for row in range(2)]
    assert sorted(names) == ["Ann", "Bob"]
    for row in range(2):
        assert provisional.nth(row).locator(".provisional-mark").get_attribute("title") == (
            "Provisional: 4 of 10 rated matches"
        )
    assert re.match(r"Your rating: \d{4}\?", page.locator("#my-rating").inner_text())
    assert serious_findings(page) == []
    context.close()
