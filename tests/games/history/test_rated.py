"""games/history/rated.py: which finished matches count for ratings, as the lists filter
them; the same answers as the ratings app's own rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import timezone

from accounts.models import User
from games.engine import get
from games.history.rated import rated_matches
from games.models import Match, Move
from games.ratings.rules import SeatResult, why_unrated
from tests.games.history.helpers import bot, finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def cases(ann: User, bob: User, make_person: Callable[..., User]) -> dict[str, Match]:
    carl = make_person("carl")
    basic = bot("basic")
    return {
        "two people": finished([ann, bob]),
        "three with a bot": finished([ann, basic, carl]),
        "a resignation after a move of one's own": finished([ann, bob], resigned={0: True}),
        "a resignation before any move of one's own": finished([ann, bob], resigned={1: False}),
        "a cooperative game": finished(
            [ann, bob],
            game="its-a-bomb",
            ranks=[1, 1],
            result={"won": True, "scores": [2, 2], "ranks": [1, 1]},
        ),
        "solitaire": finished(
            [ann], game="booby-trap", ranks=[1], result={"won": True, "scores": [9], "ranks": [1]}
        ),
        "one bot in both seats": finished([basic, basic]),
        "set up unrated": unrated(finished([ann, bob])),
        "a program's bot account": finished([ann, program_bot(make_person("robo"))]),
    }


def program_bot(user: User) -> User:
    User.objects.filter(pk=user.pk).update(bot_account_since=timezone.now())
    user.refresh_from_db()
    return user


def unrated(match: Match) -> Match:
    Match.objects.filter(pk=match.pk).update(rated=False)
    match.refresh_from_db()
    return match


RATED = {"two people", "three with a bot", "a resignation after a move of one's own"}


def test_rated_matches_are_competitive_between_two_accounts_with_nobody_walking_over(
    cases: dict[str, Match],
) -> None:
    rated = set(Match.objects.filter(rated_matches()).values_list("pk", flat=True))
    assert {name for name, match in cases.items() if match.pk in rated} == RATED


def test_the_database_rule_answers_as_the_ratings_apps_rule(cases: dict[str, Match]) -> None:
    rated = set(Match.objects.filter(rated_matches()).values_list("pk", flat=True))
    for name, match in cases.items():
        seats = [
            SeatResult(
                index=seat.index,
                user_id=seat.user_id,
                rank=seat.rank,
                resigned=seat.resigned_at is not None,
                moved=Move.objects.filter(match=match, seat=seat.index, user=seat.user).exists(),
                bot_account=seat.user is not None and seat.user.is_program_bot,
            )
            for seat in match.seats.all()
        ]
        reason = why_unrated(game_is_rated=get(match.game).is_rated, seats=seats, match_is_rated=match.rated)
        assert (reason is None) == (match.pk in rated), name
