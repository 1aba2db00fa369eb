"""Replays (games/replays.py ``frame``, /matches/<id>/replay): each frame through a
seat's eyes is exactly what that seat saw at that moment, and the eyes offered depend
on whether the match is over."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import replays
from games.boards import render_board
from games.engine import all_games
from games.models import Match
from games.services import SeatRequest, match_create, match_join
from tests.games.helpers import logged_in, random_move

pytestmark = pytest.mark.django_db


def seated(game: Any, make_person: Any) -> tuple[Match, dict[int, User]]:
    players = max(2, game.min_players)
    people = {seat: make_person() for seat in range(players)}
    match = match_create(
        creator=people[0], game_slug=game.slug, options={},
        seats=[SeatRequest("me"), *[SeatRequest("invite", username=people[s].username) for s in range(1, players)]],
    )  # fmt: skip
    for seat in range(1, players):
        match_join(match_id=match.pk, user=people[seat])
    return Match.objects.get(pk=match.pk), people


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_every_frame_is_what_each_seat_saw_at_that_moment(game: Any, make_person: Any) -> None:
    match, people = seated(game, make_person)
    seen: list[dict[int, dict[str, Any]]] = []  # per ply, each seat's view as the live page had it
    rng = random.Random(17)
    for _ in range(60):
        match.refresh_from_db()
        state = match.decoded_state()
        seen.append({seat: game.view(state, seat) for seat in people})
        if match.status != Match.Status.RUNNING:
            break
        random_move(match, people, rng)
    match.refresh_from_db()
    steps = sorted({0, 1, len(seen) // 2, len(seen) - 1})
    for step in steps:
        for seat in people:
            frame = replays.frame(match, step=step, eyes=f"seat-{seat}", my_seat=seat)
            assert frame.board.view == seen[step][seat], f"{game.slug}: seat {seat} at step {step}"
            assert frame.board.actions == []
            # Nor a button a presenter grouped into its own controls (Go Fox!'s asks).
            assert "act-form" not in render_board(frame.board), f"{game.slug}: seat {seat} at step {step}"


@pytest.mark.parametrize("slug", ["go-fox"])
def test_a_finished_match_is_replayed_with_everything_revealed(slug: str, make_person: Any) -> None:
    game = next(game for game in all_games() if game.slug == slug)
    match, people = seated(game, make_person)
    rng = random.Random(3)
    while match.status == Match.Status.RUNNING:
        random_move(match, people, rng)
        match.refresh_from_db()
    for step in (0, match.ply // 2, match.ply):
        everything = replays.frame(match, step=step, eyes=replays.EVERYTHING, my_seat=None)
        assert everything.board.view == game.reveal(replays.state_at(match, step))
    page = logged_in(people[0]).get(f"/matches/{match.pk}/replay?eyes=all&step=1").content.decode()
    assert "Everything revealed" in page and 'data-eyes="all"' in page


def test_a_running_match_is_replayed_through_ones_own_eyes_only(duel: Match, ann: User, bob: User) -> None:
    random_move(duel, {0: ann, 1: bob}, random.Random(1))
    mine = logged_in(ann).get(f"/matches/{duel.pk}/replay?step=1").content.decode()
    assert 'data-eyes="seat-0"' in mine and "Move 1 of 1" in mine
    for eyes in ("seat-1", replays.EVERYTHING):
        refused = logged_in(ann).get(f"/matches/{duel.pk}/replay?eyes={eyes}")
        assert refused.status_code == 400 and "not yours" in refused.content.decode()
    # A spectator of a public match replays with a spectator's eyes.
    spectator = Client().get(f"/matches/{duel.pk}/replay").content.decode()
    assert 'data-eyes="public"' in spectator
    assert Client().get(f"/matches/{duel.pk}/replay?eyes=seat-0").status_code == 400


def test_bad_steps_are_refused_or_kept_within_the_match(duel: Match, ann: User) -> None:
    client = logged_in(ann)
    assert client.get(f"/matches/{duel.pk}/replay?step=abc").status_code == 400
    assert client.get(f"/matches/{duel.pk}/replay?step=-1").status_code == 400
    # Digits str.isdigit takes and int refuses, and more digits than int reads: 400, not 500.
    for step in ("%C2%B2", "%E2%91%A0", "1" * 5000, "1" * 10):
        for page in ("replay", "replay/frame"):
            assert client.get(f"/matches/{duel.pk}/{page}?step={step}").status_code == 400, (page, step[:12])
    assert 'data-step="0"' in client.get(f"/matches/{duel.pk}/replay?step=99999").content.decode()
    frame = client.get(f"/matches/{duel.pk}/replay/frame?step=0")
    assert frame.status_code == 200 and 'id="replay-frame"' in frame.content.decode()


def test_a_match_not_started_has_nothing_to_replay(ann: User) -> None:
    waiting = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    assert logged_in(ann).get(f"/matches/{waiting.pk}/replay").status_code == 404


def test_everything_revealed_lists_what_only_some_players_were_told(make_person: Any) -> None:
    game = next(game for game in all_games() if game.slug == "go-fox")
    match, people = seated(game, make_person)
    rng = random.Random(5)
    while match.status == Match.Status.RUNNING:
        random_move(match, people, rng)
        match.refresh_from_db()
    names = [seat.public_name for seat in match.seats.order_by("index")]
    everything = replays.frame(match, step=match.ply, eyes=replays.EVERYTHING, my_seat=None)
    told = [note for entry in everything.log for note in entry["known_only_to"]]
    # The deal: each player read their own hand ("You got: ..."), nobody else's.
    deal = [text for name, text in told if "You got:" in text]
    assert len(deal) == len(people) and {name for name, _ in told} <= set(names)
    page = logged_in(people[0]).get(f"/matches/{match.pk}/replay?eyes=all&step={match.ply}").content.decode()
    assert f"Only {names[1]} saw:" in page
    # Through a seat's eyes, another seat's private words never show.
    mine = (
        logged_in(people[0]).get(f"/matches/{match.pk}/replay?eyes=seat-0&step={match.ply}").content.decode()
    )
    assert "Only " not in mine and "log-private" not in mine


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_every_games_revealed_log_lines_up_with_its_entries(game: Any, make_person: Any) -> None:
    match, people = seated(game, make_person)
    rng = random.Random(9)
    for _ in range(40):
        if match.status != Match.Status.RUNNING:
            break
        random_move(match, people, rng)
        match.refresh_from_db()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)  # revealed: finished only
    match.refresh_from_db()
    for step in (0, match.ply // 2, match.ply):
        everything = replays.frame(match, step=step, eyes=replays.EVERYTHING, my_seat=None)
        assert len(everything.known_only_to) in (0, len(everything.board.view["log"]))
        for entry in everything.log:
            assert all(text and text != entry["text"] for _name, text in entry["known_only_to"])
