"""games/profiles/selectors.py: a player's record per game (played, won, average place,
streaks), their record against the viewer, the rating chart's points, and what the
recent matches show to whom."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.history.selectors import history_page
from games.models import Match
from games.profiles.selectors import (
    Meetings,
    game_records,
    meetings,
    player_profile,
    rating_series,
)
from games.ratings import rules
from games.ratings.selectors import rating_history, rating_of, ratings_of
from games.services import match_resign
from tests.games.history.helpers import bot, finished
from tests.games.profiles.helpers import minutes, play_rated

pytestmark = pytest.mark.django_db


def test_a_record_counts_played_won_average_place_and_streaks_in_finishing_order(
    ann: User, anns_matches: dict[str, Match]
) -> None:
    records = {record.game_slug: record for record in game_records(ann, {})}
    assert list(records) == ["go-fox", "its-a-bomb", "ka-blam"]  # by name: Go Fox!, It's a Bomb!, Ka-Blam!
    fox = records["go-fox"]
    # Won: 1, shared first, 4, 5, 6 ("win 2" to "win 4"), private, 10, 11; lost: 3, 7, 9.
    # Places 1 1 2 1 1 1 3 1 2 1 1.
    assert (fox.played, fox.won, fox.rank_total, fox.ranked) == (11, 8, 15, 11)
    assert fox.average_rank == pytest.approx(15 / 11) and fox.win_percent == 73
    # Runs of wins: 2 (win, shared first), 3 (win 2-4), 1 (private), 2 (win 5, 6, the current one).
    assert (fox.best_streak, fox.current_streak) == (3, 2)
    assert fox.game_name == "Go Fox!" and fox.is_rated_game and not fox.is_cooperative
    blam = records["ka-blam"]
    assert (blam.played, blam.won, blam.average_rank) == (1, 0, 2.0)
    assert (blam.best_streak, blam.current_streak) == (0, 0)
    # Cooperative: the result decides, and places (everyone's 1) say nothing.
    bomb = records["its-a-bomb"]
    assert (bomb.played, bomb.won, bomb.best_streak, bomb.current_streak) == (2, 1, 1, 0)
    assert bomb.average_rank is None and bomb.is_cooperative and not bomb.is_rated_game


def test_a_streak_that_runs_to_the_latest_match_is_the_best_and_the_current(ann: User, bob: User) -> None:
    finished([ann, bob], ranks=[2, 1], finished_at=minutes(1))
    for number in range(2, 6):
        finished([ann, bob], ranks=[1, 2], finished_at=minutes(number))
    (record,) = game_records(ann, {})
    (bobs,) = game_records(bob, {})
    assert (record.best_streak, record.current_streak, record.won) == (4, 4, 4)
    assert (bobs.best_streak, bobs.current_streak, bobs.won, bobs.average_rank) == (1, 0, 1, 1.8)


def test_a_bot_seated_twice_played_one_match_by_its_first_seat(ann: User) -> None:
    basic = bot("basic")
    finished([basic, ann, basic], ranks=[3, 2, 1], finished_at=minutes(1))
    finished([ann, basic, basic], ranks=[3, 1, 2], finished_at=minutes(2))
    (record,) = game_records(basic, {})
    assert (record.played, record.won, record.rank_total, record.best_streak, record.current_streak) == (
        2, 1, 4, 1, 1,
    )  # fmt: skip


def test_a_match_finished_through_the_services_counts(duel: Match, ann: User, bob: User) -> None:
    match_resign(match_id=duel.pk, user=bob)
    (anns,) = game_records(ann, {})
    (bobs,) = game_records(bob, {})
    assert (anns.played, anns.won, anns.average_rank) == (1, 1, 1.0)
    assert (bobs.played, bobs.won, bobs.average_rank) == (1, 0, 2.0)


def test_nobody_has_a_record_before_a_finished_match(ann: User, duel: Match) -> None:
    assert game_records(ann, {}) == []
    assert player_profile(player=ann, viewer=ann).records == []


def test_the_record_against_the_viewer_counts_who_finished_ahead_and_level(
    ann: User, bob: User, carl: User, anns_matches: dict[str, Match]
) -> None:
    against_bob = {meeting.game_slug: meeting for meeting in meetings(ann, bob)}
    # Go Fox! with Bob: win (Ann ahead), shared first (level), 2nd to his 1st (Bob
    # ahead), win 4 (Ann), 3rd to his 2nd (Bob), resigned (Bob), win 5, win 6 (Ann).
    assert against_bob["go-fox"] == Meetings(
        game_slug="go-fox", game_name="Go Fox!", is_cooperative=False, played=8,
        player_ahead=4, viewer_ahead=3, won_together=0, last_met=minutes(10),
    )  # fmt: skip
    assert against_bob["go-fox"].tied == 1
    assert (against_bob["ka-blam"].player_ahead, against_bob["ka-blam"].viewer_ahead) == (0, 1)
    bomb = against_bob["its-a-bomb"]
    assert (bomb.is_cooperative, bomb.played, bomb.won_together) == (True, 1, 1)
    assert list(against_bob) == ["go-fox", "its-a-bomb", "ka-blam"]
    # The same matches from Bob's side: the numbers swap.
    from_bob = {meeting.game_slug: meeting for meeting in meetings(bob, ann)}
    assert (from_bob["go-fox"].player_ahead, from_bob["go-fox"].viewer_ahead) == (3, 4)
    # With Carl: shared first, 2nd, win 2, win 3 and the private win (Ann ahead in
    # each), 3rd to his 1st. The private match counts: Carl played it.
    against_carl = {meeting.game_slug: meeting for meeting in meetings(ann, carl)}
    fox = against_carl["go-fox"]
    assert (fox.played, fox.player_ahead, fox.viewer_ahead, fox.tied) == (6, 5, 1, 0)


def test_there_is_no_record_against_a_visitor_or_oneself(ann: User, bob: User, anns_matches: object) -> None:
    assert player_profile(player=ann, viewer=AnonymousUser()).meetings is None
    assert player_profile(player=ann, viewer=ann).meetings is None
    assert player_profile(player=ann, viewer=bob).meetings is not None
    assert player_profile(player=ann, viewer=bot("expert")).meetings == []


def test_the_recent_matches_show_a_stranger_only_the_public_ones_but_the_numbers_count_all(
    ann: User, carl: User, make_person: Callable[..., User], anns_matches: dict[str, Match]
) -> None:
    private = anns_matches["private win"]
    stranger = make_person("dana")
    viewers: dict[str, User | AnonymousUser] = {
        "stranger": stranger,
        "visitor": AnonymousUser(),
        "carl": carl,
        "ann": ann,
    }
    seen = {
        name: [row.match.pk for row in player_profile(player=ann, viewer=viewer).recent.rows]
        for name, viewer in viewers.items()
    }
    assert private.pk not in seen["stranger"] and private.pk not in seen["visitor"]
    assert private.pk in seen["carl"] and private.pk in seen["ann"]
    # Ten at most, newest first: what History's page shows that viewer.
    everyone_sees = [row.match.pk for row in history_page(player=ann, viewer=stranger, limit=10).rows]
    assert seen["stranger"] == everyone_sees and len(everyone_sees) == 10
    records = {record.game_slug: record for record in player_profile(player=ann, viewer=stranger).records}
    assert records["go-fox"].played == 11


def test_the_chart_has_a_point_per_rated_match_with_the_rating_after_it(ann: User, bob: User) -> None:
    play_rated("go-fox", ann, bob, 4)
    play_rated("ka-blam", bob, ann, 2, start=10)
    ratings = {rating.game_slug: rating for rating in ratings_of(ann)}
    series = {one.rating.game_slug: one for one in rating_series(ann, ratings)}
    assert list(series) == ["go-fox", "ka-blam"]
    assert series["go-fox"].points == rating_history(ann, "go-fox")
    assert series["ka-blam"].points == rating_history(ann, "ka-blam")
    latest = series["go-fox"].points[-1]
    mine = rating_of(ann, "go-fox")
    assert mine is not None and latest.display_after == mine.display and latest.rated_matches == 4
    assert not series["go-fox"].is_cut and series["go-fox"].rating.is_provisional


def test_the_chart_keeps_the_latest_rated_matches_and_counts_them_from_the_first(
    ann: User, bob: User
) -> None:
    play_rated("go-fox", ann, bob, 12)
    ratings = {rating.game_slug: rating for rating in ratings_of(ann)}
    (series,) = rating_series(ann, ratings, limit=5)
    assert series.points == rating_history(ann, "go-fox")[-5:]
    assert [point.rated_matches for point in series.points] == [8, 9, 10, 11, 12]
    assert series.is_cut and not series.points[-1].is_provisional
    assert series.rating.display == rules.display(series.rating.mu)


def test_a_player_with_a_rating_has_it_on_the_record(ann: User, bob: User) -> None:
    play_rated("go-fox", ann, bob, 2)
    finished([ann, bob], game="ka-blam")  # not rated: no rating match applied
    profile = player_profile(player=ann, viewer=bob)
    records = {record.game_slug: record for record in profile.records}
    assert records["go-fox"].rating == rating_of(ann, "go-fox")
    assert records["ka-blam"].rating is None and records["ka-blam"].is_rated_game
    assert [one.rating.game_slug for one in profile.rating_series] == ["go-fox"]
