"""Applying finished matches to ratings (games/ratings/services.py): once, in finishing
order, only rated matches; the task the core announces a finished match to."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from accounts.models import User
from games.errors import MatchError
from games.models import Announcement, Match
from games.ratings import rules, services, tasks
from games.ratings.models import Rating, RatingChange
from games.ratings.services import RateOutcome, match_rate, ratings_rebuild
from tests.games.ratings.helpers import (
    START,
    Place,
    bot,
    changes_now,
    finished_match,
    ratings_now,
    resigned,
    timed_out,
)

pytestmark = pytest.mark.django_db


def rating(user: User, game: str = "go-fox") -> Rating:
    return Rating.objects.get(user=user, game=game)


def test_a_rated_match_moves_each_players_rating_once_with_a_change_row(ann: User, bob: User) -> None:
    match = finished_match("go-fox", [(ann, 1), (bob, 2)], START)
    assert match_rate(match_id=match.pk) == RateOutcome.RATED

    expected = rules.rate(
        [rules.SeatResult(0, ann.pk, 1, False, True), rules.SeatResult(1, bob.pk, 2, False, True)],
        {ann.pk: rules.START, bob.pk: rules.START},
    )
    for user, rank in ((ann, 1), (bob, 2)):
        assert (rating(user).mu, rating(user).sigma) == (expected[user.pk].mu, expected[user.pk].sigma)
        assert rating(user).rated_matches == 1 and rating(user).last_rated_at == START
        change = RatingChange.objects.get(match=match, user=user)
        assert (change.mu_before, change.sigma_before) == (rules.START_MU, rules.START_SIGMA)
        assert (change.mu_after, change.rank, change.seat, change.game) == (
            rating(user).mu,
            rank,
            rank - 1,
            "go-fox",
        )
    assert rating(ann).mu > rules.START_MU > rating(bob).mu


def test_the_task_run_twice_applies_the_match_once_and_marks_its_announcement_delivered(
    ann: User, bob: User
) -> None:
    match = finished_match("go-fox", [(ann, 2), (bob, 1)], START)
    Announcement.objects.create(match=match, task_name=services.MATCH_FINISHED_TASK)
    assert tasks.match_finished(match.pk) == RateOutcome.RATED
    once = ratings_now(), changes_now()
    assert Announcement.objects.get(match=match).delivered_at is not None

    assert tasks.match_finished(match.pk) == RateOutcome.ALREADY_RATED
    assert (ratings_now(), changes_now()) == once
    assert rating(bob).rated_matches == 1


def test_a_second_application_of_a_match_is_refused_by_the_database(ann: User, bob: User) -> None:
    match = finished_match("go-fox", [(ann, 1), (bob, 2)], START)
    match_rate(match_id=match.pk)
    before = ratings_now()
    table = [rules.SeatResult(0, ann.pk, 1, False, True), rules.SeatResult(1, bob.pk, 2, False, True)]
    # As if a second run had got past the "already rated?" check: the unique key stops
    # it before any rating moves, and its transaction rolls back whole.
    with pytest.raises(IntegrityError), transaction.atomic():
        services._apply("go-fox", match.pk, START, table)
    assert ratings_now() == before and RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(
    ("game", "places", "reason"),
    [
        ("its-a-bomb", lambda ann, bob: [(ann, 1), (bob, 1)], rules.Unrated.NOT_RATED_GAME),
        ("booby-trap", lambda ann, bob: [(ann, 1)], rules.Unrated.SOLITAIRE),
        (
            "go-fox",
            lambda ann, bob: [(ann, 1), resigned(bob, 2, moved=False)],
            rules.Unrated.EARLY_RESIGNATION,
        ),
        (
            "go-fox",
            lambda ann, bob: [(ann, 1), timed_out(bob, 2, moved=False)],
            rules.Unrated.EARLY_RESIGNATION,
        ),
        ("go-fox", lambda ann, bob: [(bot("basic"), 1), (bot("basic"), 2)], rules.Unrated.ONE_PLAYER),
    ],
    ids=["cooperative", "solitaire", "resigned-at-once", "timed-out-without-a-move", "one-bot-alone"],
)
def test_an_unrated_match_changes_nothing(
    ann: User,
    bob: User,
    game: str,
    places: Callable[[User, User], list[Place | tuple[User, int]]],
    reason: str,
) -> None:
    match = finished_match(game, places(ann, bob), START)
    assert match_rate(match_id=match.pk) == reason
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_match_set_up_unrated_changes_nothing_live_or_in_a_rebuild(ann: User, bob: User) -> None:
    match = finished_match("go-fox", [(ann, 1), (bob, 2)], START)
    Match.objects.filter(pk=match.pk).update(rated=False)
    assert match_rate(match_id=match.pk) == rules.Unrated.NOT_RATED_MATCH
    ratings_rebuild(game_slugs=["go-fox"])
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_player_out_of_the_game_after_a_move_of_their_own_is_rated_last(ann: User, bob: User) -> None:
    carl = User.objects.create_user(username="carl", password="x")
    match = finished_match(
        "go-fox", [(ann, 1), timed_out(bob, 3, moved=True), resigned(carl, 2, moved=True)], START
    )
    assert match_rate(match_id=match.pk) == RateOutcome.RATED
    assert rating(ann).mu > rating(carl).mu > rating(bob).mu


def test_bots_are_rated_and_a_bot_seated_twice_moves_once(ann: User) -> None:
    basic, expert = bot("basic"), bot("expert")
    match = finished_match("go-fox", [(basic, 3), (ann, 2), (basic, 1), (expert, 4)], START)
    assert match_rate(match_id=match.pk) == RateOutcome.RATED
    assert rating(basic).rated_matches == 1
    change = RatingChange.objects.get(match=match, user=basic)
    assert (change.seat, change.rank) == (0, 3)  # its first seat, not its best
    assert RatingChange.objects.filter(match=match).count() == 3


@pytest.mark.parametrize("match_id", [0, 10**9, "12", None])
def test_an_unknown_match_is_refused_and_changes_nothing(match_id: object) -> None:
    with pytest.raises(MatchError) as refused:
        match_rate(match_id=match_id)  # type: ignore[arg-type]
    assert refused.value.code == "no_such_match"
    assert not Rating.objects.exists()


def test_a_match_still_running_is_refused_and_changes_nothing(two_player_match: Match) -> None:
    with pytest.raises(MatchError) as refused:
        match_rate(match_id=two_player_match.pk)
    assert refused.value.code == "not_allowed" and "has not finished" in str(refused.value)
    assert not Rating.objects.exists()


def test_a_match_that_comes_late_is_applied_in_finishing_order(ann: User, bob: User) -> None:
    carl = User.objects.create_user(username="carl", password="x")
    first = finished_match("go-fox", [(ann, 1), (bob, 2)], START)
    second = finished_match("go-fox", [(bob, 1), (carl, 2)], START + timedelta(minutes=1))
    # The same moment as the second, a higher id: it comes after it.
    tied = finished_match("go-fox", [(carl, 1), (ann, 2)], START + timedelta(minutes=1))
    third = finished_match("go-fox", [(ann, 1), (carl, 2)], START + timedelta(minutes=2))
    assert tied.pk > second.pk
    for match in (third, first, tied, second):  # announcements out of order
        assert match_rate(match_id=match.pk) == RateOutcome.RATED
    arrived = ratings_now(), changes_now()

    ratings_rebuild(game_slugs=["go-fox"])
    assert (ratings_now(), changes_now()) == arrived
    # The log chains: each change starts where the player's previous one ended.
    history = list(RatingChange.objects.filter(user=ann).order_by("finished_at", "match_id"))
    assert [change.match_id for change in history] == [first.pk, tied.pk, third.pk]
    for earlier, later in itertools.pairwise(history):
        assert (later.mu_before, later.sigma_before) == (earlier.mu_after, earlier.sigma_after)


def test_ratings_of_one_game_do_not_touch_anothers(ann: User, bob: User) -> None:
    finished = [
        finished_match("go-fox", [(ann, 1), (bob, 2)], START),
        finished_match("ka-blam", [(ann, 2), (bob, 1)], START - timedelta(minutes=1)),
    ]
    for match in finished:
        match_rate(match_id=match.pk)
    assert rating(ann, "go-fox").mu > rules.START_MU > rating(ann, "ka-blam").mu
    assert rating(ann, "ka-blam").rated_matches == 1
