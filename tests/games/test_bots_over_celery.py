"""Bots take their turns in a real Celery worker, from their seat's view, to the end."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.engine import all_games
from games.models import Match, Move, Seat
from games.services import SeatRequest, bot_play_turn, match_create
from games.tasks import sweep_bot_turns
from tests.conftest import ensure_bot_accounts, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Short forms of the long games, so the whole table plays in seconds.
SHORT = {"dont-go-boom": {"rounds": 1}}


@pytest.fixture
def organiser() -> User:
    ensure_bot_accounts()
    return User.objects.create_user(username="organiser", email="o@example.com", password="x")


def bot_table(organiser: User, slug: str, players: int) -> Match:
    """A table of bots: a basic one in the first seat, random ones in the rest."""
    return match_create(
        creator=organiser, game_slug=slug, options=SHORT.get(slug, {}),
        seats=[SeatRequest("bot", level="basic"), *[SeatRequest("bot", level="random")] * (players - 1)],
    )  # fmt: skip


def test_a_bot_match_of_every_game_is_played_to_the_end_by_the_worker(
    celery_worker_process: str, organiser: User
) -> None:
    matches = [bot_table(organiser, game.slug, max(2, game.min_players)) for game in all_games()]

    def all_finished() -> bool:
        return (
            not Match.objects.filter(pk__in=[m.pk for m in matches])
            .exclude(status=Match.Status.FINISHED)
            .exists()
        )

    wait_for(all_finished, timeout=240, interval=0.5, what="every bot match to finish")
    for match in Match.objects.filter(pk__in=[m.pk for m in matches]):
        moves = list(Move.objects.filter(match=match).values_list("ply", flat=True))
        assert moves == list(range(match.ply)), match  # every ply played exactly once, in order
        assert match.result is not None and all(seat.rank for seat in match.seats.all())


def test_a_bot_turn_is_idempotent_and_the_sweep_requeues_a_lost_one(
    celery_worker_process: str, organiser: User
) -> None:
    match = bot_table(organiser, "go-fox", 2)
    wait_for(
        lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, timeout=120, what="go-fox"
    )
    # A task for a ply the match has left does nothing.
    assert bot_play_turn(match_id=match.pk, ply=0) is False

    # A bot turn whose task was lost: the match waits, with no task queued for it...
    from celery import current_app

    # Waiting for the worker's answer: a cancel still on its way let the worker take the
    # task, and the sweep then rightly found the turn played (it queues only a waiting one).
    # The worker stays away until the sweep has queued the turn again: with it back
    # earlier, a worker that had the first task after all could play between the
    # sweep's read and its stamp, and the sweep rightly queued nothing (CI, 28 Nov).
    assert current_app.control.cancel_consumer("celery", destination=[celery_worker_process], reply=True)
    try:
        stuck = bot_table(organiser, "read-and-grab", 2)
        current_app.control.purge()
        stuck.refresh_from_db()
        assert stuck.ply == 0
        # ...is found by the sweep once it has waited long enough...
        assert sweep_bot_turns() == 0  # too recent to count as lost
        Match.objects.filter(pk=stuck.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
        assert sweep_bot_turns() == 1
        assert sweep_bot_turns() == 0  # queued once per stale interval, however often it runs
    finally:
        current_app.control.add_consumer("celery", destination=[celery_worker_process], reply=True)
    # ...and played on to the end.
    wait_for(
        lambda: Match.objects.get(pk=stuck.pk).status == Match.Status.FINISHED, timeout=120, what="the sweep"
    )


def test_bots_wait_for_people_and_answer_their_moves(celery_worker_process: str, organiser: User) -> None:
    from games.engine import get
    from games.services import match_submit_action

    match = match_create(
        creator=organiser, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    game = get("go-fox")
    for _ in range(5):

        def my_turn() -> Any:
            current = Match.objects.get(pk=match.pk)
            if current.status != Match.Status.RUNNING:
                return "over"
            return Seat.objects.get(match=current, index=0).owes_decision and current

        current = wait_for(my_turn, timeout=60, what="the bot to answer")
        if current == "over":
            break
        state = current.decoded_state()
        match_submit_action(
            match_id=match.pk, user=organiser, action=game.legal_actions(state, 0)[0], ply=current.ply
        )
    # Let the bot answer the last move before the test ends: a worker still writing
    # while the test database is flushed deadlocks the flush (seen on PostgreSQL).
    wait_for(my_turn, timeout=60, what="the bot to answer the last move")
    assert Move.objects.filter(match=match, seat=1).exists()


def test_the_autopilot_plays_the_seat_of_a_player_who_resigned(
    celery_worker_process: str, organiser: User
) -> None:
    from games.services import match_join, match_resign

    guest = User.objects.create_user(username="guest", email="g@example.com", password="x")

    def guest_joins_and_organiser_resigns() -> Match:
        """Read and Grab: the organiser, the guest and a basic bot; the organiser resigns."""
        match = match_create(
            creator=organiser, game_slug="read-and-grab", options={},
            seats=[SeatRequest("me"), SeatRequest("open"), SeatRequest("bot", level="basic")],
        )  # fmt: skip
        match_join(match_id=match.pk, user=guest)
        match_resign(match_id=match.pk, user=organiser)
        return match

    match = guest_joins_and_organiser_resigns()
    match_resign(match_id=match.pk, user=guest)  # nobody left to play for: it ends at once
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED

    match = guest_joins_and_organiser_resigns()

    # Guest plays on; the autopilot (no user on its moves) plays seat 0 whenever it is owed.
    def autopilot_moved() -> bool:
        current = Match.objects.get(pk=match.pk)
        if current.status == Match.Status.RUNNING and Seat.objects.get(match=current, index=1).owes_decision:
            from games.services import MatchError, match_submit_action

            state = current.decoded_state()
            legal = current.engine.legal_actions(state, 1)
            try:
                # None: the flag and the state were read a move apart (a bot moved between): look again.
                if legal:
                    match_submit_action(match_id=match.pk, user=guest, action=legal[0], ply=current.ply)
            except MatchError as error:  # a bot moved in between: look again
                if error.code != "stale_ply":
                    raise
        return Move.objects.filter(match=match, seat=0, user__isnull=True).exists()

    wait_for(autopilot_moved, timeout=90, what="the autopilot to play the resigned seat")
    assert not Move.objects.filter(match=match, seat=0, user=organiser).exists()

    # Leave the worker idle (the guest to move, or the game over) before the test
    # database is flushed: a bot still writing deadlocks the flush.
    def guest_to_move() -> bool:
        current = Match.objects.get(pk=match.pk)
        return (
            current.status != Match.Status.RUNNING or Seat.objects.get(match=current, index=1).owes_decision
        )

    wait_for(guest_to_move, timeout=60, what="the bots to finish their turns")
