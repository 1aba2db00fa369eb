"""``manage.py rebuild_ratings`` replays every finished match in finishing order and
arrives at the numbers the match-finished tasks arrived at, exactly."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games.ratings import tasks
from games.ratings.models import Rating, RatingChange
from games.ratings.services import RateOutcome
from tests.games.ratings.helpers import START, bot, changes_now, finished_match, random_matches, ratings_now

pytestmark = pytest.mark.django_db

GAMES = ["go-fox", "ka-blam", "boom-box", "booby-trap", "its-a-bomb"]


def test_rebuild_arrives_at_the_numbers_the_tasks_arrived_at_exactly(make_person: object) -> None:
    rng = random.Random(23)
    people = [User.objects.create_user(username=f"player{n}", password="x") for n in range(8)]
    bots = [bot("random"), bot("basic"), bot("expert")]
    matches = random_matches(rng, people, bots, 160, GAMES)

    # The announcements come roughly in finishing order, some late, some twice.
    order = list(matches)
    for _ in range(60):
        at = rng.randrange(len(order) - 6)
        later = at + rng.randint(1, 6)
        order[at], order[later] = order[later], order[at]
    order += rng.sample(matches, 20)
    outcomes = [tasks.match_finished(match.pk) for match in order]
    assert outcomes.count(RateOutcome.RATED) > 80  # most matches count; the others are unrated or seen twice
    arrived = ratings_now(), changes_now()
    assert {game for _, game in arrived[0]} == {"go-fox", "ka-blam", "boom-box", "booby-trap"}

    out = StringIO()
    call_command("rebuild_ratings", stdout=out)
    assert (ratings_now(), changes_now()) == arrived
    assert "go-fox: " in out.getvalue() and "its-a-bomb: 0 rated matches" in out.getvalue()


def test_rebuild_of_one_game_leaves_the_others(make_person: object) -> None:
    rng = random.Random(4)
    people = [User.objects.create_user(username=f"player{n}", password="x") for n in range(4)]
    for match in random_matches(rng, people, [bot("basic")], 30, ["go-fox", "ka-blam"]):
        tasks.match_finished(match.pk)
    Rating.objects.filter(game="ka-blam").update(mu=0.0)  # as if broken
    RatingChange.objects.filter(game="go-fox").delete()  # as if lost
    broken_ka_blam = ratings_now()

    call_command("rebuild_ratings", "--game", "go-fox", stdout=StringIO())
    assert {key: value for key, value in ratings_now().items() if key[1] == "ka-blam"} == {
        key: value for key, value in broken_ka_blam.items() if key[1] == "ka-blam"
    }
    assert RatingChange.objects.filter(game="go-fox").exists()


def test_rebuild_of_an_unknown_game_is_refused_and_changes_nothing(ann: User, bob: User) -> None:
    tasks.match_finished(finished_match("go-fox", [(ann, 1), (bob, 2)], START).pk)
    Rating.objects.filter(user=ann).update(mu=0.0)  # a rebuild of go-fox would put it back
    before = ratings_now(), changes_now()
    with pytest.raises(CommandError, match="There is no game 'chess'"):
        call_command("rebuild_ratings", "--game", "go-fox", "--game", "chess", stdout=StringIO())
    assert (ratings_now(), changes_now()) == before
