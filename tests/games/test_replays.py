"""games/replays.py: matches rebuilt from their seeds and moves, and fair deals checked."""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import User
from games import replays
from games.engine import all_games
from games.models import Match, Move
from games.services import SeatRequest, match_create, match_join
from tests.games.helpers import logged_in, random_move

pytestmark = pytest.mark.django_db


def play_to_the_end(match: Match, people: dict[int, User], seed: int = 5) -> Match:
    rng = random.Random(seed)
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        random_move(match, people, rng)


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_a_replay_from_the_seed_reaches_every_stored_position(game: Any, make_person: Any) -> None:
    players = max(2, game.min_players)
    people = {seat: make_person() for seat in range(players)}
    match = match_create(
        creator=people[0], game_slug=game.slug, options={},
        seats=[SeatRequest("me"), *[SeatRequest("invite", username=people[s].username) for s in range(1, players)]],
    )  # fmt: skip
    for seat in range(1, players):
        match_join(match_id=match.pk, user=people[seat])
    rng = random.Random(11)
    for _ in range(12):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            break
        random_move(match, people, rng)
        match.refresh_from_db()
        assert game.encode(replays.state_at(match, match.ply)) == match.state


def test_a_running_match_shows_its_commitment_and_keeps_its_seed(duel: Match, ann: User) -> None:
    assert duel.seed_commitment == hashlib.sha256(f"{duel.seed}:{duel.seed_salt}".encode()).hexdigest()
    page = logged_in(ann).get(f"/matches/{duel.pk}/").content.decode()
    assert duel.seed_commitment in page
    assert str(duel.seed) not in page and duel.seed_salt not in page
    check = Client().get(f"/matches/{duel.pk}/verify").content.decode()
    assert "seed stays secret" in check and str(duel.seed) not in check


def test_a_finished_match_reveals_its_seed_and_its_deal_checks_out(duel: Match, ann: User, bob: User) -> None:
    match = play_to_the_end(duel, {0: ann, 1: bob})
    page = logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    assert str(match.seed) in page and match.seed_salt in page and "Check the deal" in page
    check = logged_in(bob).get(f"/matches/{match.pk}/verify").content.decode()
    assert "The deal checks out." in check and f"{match.ply} moves replayed" in check
    call_command("verify_matches")


def test_a_tampered_match_is_caught_by_the_check_and_the_command(duel: Match, ann: User, bob: User) -> None:
    match = play_to_the_end(duel, {0: ann, 1: bob})
    other = play_to_the_end(
        match_join_and_get(match_create(
            creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("invite", username="bob")]
        ), bob),
        {0: ann, 1: bob},
    )  # fmt: skip
    # Someone with the database changes a recorded move: the replay no longer ends where
    # the match did (or a later move no longer applies).
    game = match.engine
    for move in Move.objects.filter(match=match).order_by("ply"):
        before = replays.state_at(match, move.ply)
        alternatives = [a for a in game.legal_actions(before, move.seat) if a != move.action]
        if alternatives:
            Move.objects.filter(pk=move.pk).update(action=alternatives[0])
            break
    else:
        raise AssertionError("no move of the match had another choice")
    result = replays.verify(Match.objects.get(pk=match.pk))
    assert not result.ok and result.why
    assert replays.verify(Match.objects.get(pk=other.pk)).ok
    with pytest.raises(CommandError, match=str(match.pk)):
        call_command("verify_matches")
    # A salt that does not fit the commitment is caught before anything is replayed.
    Match.objects.filter(pk=other.pk).update(seed_salt="0" * 32)
    assert "commitment" in replays.verify(Match.objects.get(pk=other.pk)).why


def match_join_and_get(match: Match, guest: User) -> Match:
    match_join(match_id=match.pk, user=guest)
    return Match.objects.get(pk=match.pk)


def test_the_admin_never_shows_the_seed_or_its_salt(duel: Match) -> None:
    from games.admin import MatchAdmin

    assert {"seed", "seed_salt", "state"} <= set(MatchAdmin.exclude)
    assert re.fullmatch(r"[0-9a-f]{64}", duel.seed_commitment)  # a SHA-256, public from the start
