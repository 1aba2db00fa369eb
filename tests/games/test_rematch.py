"""A rematch: the same game, options and players, one click, the others invited."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.errors import MatchError
from games.models import Match
from games.services import SeatRequest, bot_play_turn, match_create, match_join, match_rematch
from tests.games.helpers import logged_in, random_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(ann: User, bob: User) -> Match:
    """Ann, Bob and a Basic bot played Don't Go Boom to the end (one round, a day per turn, private)."""
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1}, visibility="private", turn_limit=86400,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    rng = random.Random(2)
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        if 2 in match.engine.to_act(match.decoded_state()):
            bot_play_turn(match_id=match.pk, ply=match.ply)  # as its Celery task would
        else:
            random_move(match, {0: ann, 1: bob}, rng)


def test_a_rematch_seats_the_same_players_and_invites_the_others(
    finished: Match, ann: User, bob: User
) -> None:
    response = logged_in(bob).post(f"/matches/{finished.pk}/rematch")
    rematch = Match.objects.get(rematch_of=finished)
    assert response.status_code == 302 and response["Location"] == f"/matches/{rematch.pk}/"
    assert (rematch.game, rematch.options, rematch.turn_limit, rematch.visibility) == (
        "dont-go-boom", {"rounds": 1}, 86400, "private",
    )  # fmt: skip
    seats = list(rematch.seats.select_related("user").order_by("index"))
    assert [seat.user.username for seat in seats if seat.user] == ["ann", "bob", "bot-random"]
    joined = {seat.user.username: seat.joined_at is not None for seat in seats if seat.user}
    assert joined == {"ann": False, "bob": True, "bot-random": True}  # Ann is invited
    assert rematch.status == Match.Status.OPEN
    # Ann asks too: she is sent to Bob's rematch and sits down; it starts.
    again = match_rematch(match_id=finished.pk, user=ann)
    assert again.pk == rematch.pk and Match.objects.filter(rematch_of=finished).count() == 1
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.RUNNING


def test_only_players_of_a_finished_match_may_ask(finished: Match, duel: Match, make_person: Any) -> None:
    stranger = make_person()
    with pytest.raises(MatchError):
        match_rematch(match_id=finished.pk, user=stranger)
    with pytest.raises(MatchError):
        match_rematch(
            match_id=duel.pk, user=User.objects.get(seats__match=duel, seats__index=0)
        )  # still running
    assert not Match.objects.filter(rematch_of__isnull=False).exists()
    # A private match is not there for a stranger at all; a signed-out visitor is sent to log in.
    assert logged_in(stranger).post(f"/matches/{finished.pk}/rematch").status_code == 404
    assert Client().post(f"/matches/{finished.pk}/rematch").status_code == 302
    assert not Match.objects.filter(rematch_of__isnull=False).exists()


def test_the_finished_match_offers_its_players_a_rematch_and_everyone_a_replay(
    finished: Match, ann: User, make_person: Any
) -> None:
    page = logged_in(ann).get(f"/matches/{finished.pk}/").content.decode()
    assert 'id="rematch"' in page and f"/matches/{finished.pk}/rematch" in page
    assert f"/matches/{finished.pk}/replay" in page
