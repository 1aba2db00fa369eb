"""The read API of ratings (games/ratings/selectors.py), for pages and other features."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games.errors import MatchError
from games.ratings import rules, selectors
from games.ratings.services import match_rate
from tests.games.ratings.helpers import bot, finished_match

pytestmark = pytest.mark.django_db


def play(game: str, winner: User, loser: User, count: int, *, days_ago: float = 1) -> None:
    """``count`` rated two-seat matches won by ``winner``, ending ``days_ago`` days ago."""
    end = timezone.now() - timedelta(days=days_ago)
    for number in range(count):
        finished_at = end - timedelta(minutes=count - number)
        match_rate(match_id=finished_match(game, [(winner, 1), (loser, 2)], finished_at).pk)


def test_rating_of_is_none_before_the_first_rated_match_then_provisional_until_ten(
    ann: User, bob: User
) -> None:
    assert selectors.rating_of(ann, "go-fox") is None
    play("go-fox", ann, bob, 9)
    mine = selectors.rating_of(ann, "go-fox")
    assert mine is not None and mine.rated_matches == 9 and mine.is_provisional
    assert mine.display == rules.display(mine.mu) > 1500 and mine.shown == f"{mine.display}?"
    assert mine.game_name == "Go Fox!"
    play("go-fox", ann, bob, 1)
    mine = selectors.rating_of(ann, "go-fox")
    assert mine is not None and not mine.is_provisional and mine.shown == str(mine.display)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda user: selectors.rating_of(user, "chess"), "There is no game 'chess'"),
        (lambda user: selectors.rating_history(user, "its-a-bomb"), "It's a Bomb! is not rated"),
        (lambda user: selectors.leaderboard("nope"), "There is no game 'nope'"),
    ],
)
def test_an_unknown_or_unrated_game_is_refused(ann: User, call: Callable[[User], object], words: str) -> None:
    with pytest.raises(MatchError) as refused:
        call(ann)
    assert refused.value.code == "no_such_game" and words in str(refused.value)


def test_ratings_of_lists_each_game_rated_by_name(ann: User, bob: User) -> None:
    play("go-fox", ann, bob, 2)
    play("ka-blam", bob, ann, 1)
    assert [(rating.game_name, rating.rated_matches) for rating in selectors.ratings_of(ann)] == [
        ("Go Fox!", 2),
        ("Ka-Blam!", 1),
    ]
    assert selectors.ratings_of(User.objects.create_user(username="new", password="x")) == []


def test_rating_history_is_each_rated_match_oldest_first_and_chains(ann: User, bob: User) -> None:
    play("go-fox", ann, bob, 3)
    play("go-fox", bob, ann, 1, days_ago=0.5)
    history = selectors.rating_history(ann, "go-fox")
    assert [point.rank for point in history] == [1, 1, 1, 2]
    assert [point.rated_matches for point in history] == [1, 2, 3, 4]
    assert history[0].display_before == 1500 and history[0].change == 74
    assert all(point.change > 0 for point in history[:3]) and history[3].change < 0
    for earlier, later in itertools.pairwise(history):
        assert later.display_before == earlier.display_after
    final = selectors.rating_of(ann, "go-fox")
    assert final is not None and history[-1].display_after == final.display


def test_the_leaderboard_lists_the_established_then_the_provisional_each_by_rating_with_bots(
    ann: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    carl = User.objects.create_user(username="carl", password="x")
    dave = User.objects.create_user(username="dave", password="x")
    basic = bot("basic")
    play("go-fox", ann, basic, 10)  # ann: established, strong; the bot: established, weak
    play("go-fox", bob, carl, 9)  # both provisional
    play("go-fox", dave, ann, 1, days_ago=0.5)  # one lucky win against the best
    board = selectors.leaderboard("go-fox")
    assert [(row.place, row.user.username, row.is_bot, row.rating.is_provisional) for row in board] == [
        (1, "ann", False, False),
        (2, "bot-basic", True, False),
        (3, "bob", False, True),
        (4, "dave", False, True),
        (5, "carl", False, True),
    ]
    shown = {row.user.username: row.rating.display for row in board}
    # Dave's win over Ann put him far above the bot, but below both established players.
    assert shown["ann"] > shown["dave"] > shown["bot-basic"] and shown["bob"] > shown["dave"]
    assert min(shown.values()) >= 100
    assert selectors.leaderboard("ka-blam") == []
    # The provisional fill the places the established leave: with room for three, one.
    monkeypatch.setattr(selectors, "LEADERBOARD_SIZE", 3)
    assert [row.user.username for row in selectors.leaderboard("go-fox")] == ["ann", "bot-basic", "bob"]


def test_the_leaderboard_drops_a_player_thirty_days_after_their_last_rated_match(ann: User) -> None:
    play("go-fox", ann, bot("basic"), 10)
    # Thirty days after their last rated match, a player drops off until they play again.
    last = timezone.now() - timedelta(days=1)
    with time_machine.travel(last + timedelta(days=30, minutes=-5)):
        assert len(selectors.leaderboard("go-fox")) == 2
    with time_machine.travel(last + timedelta(days=30, minutes=5)):
        assert selectors.leaderboard("go-fox") == []
