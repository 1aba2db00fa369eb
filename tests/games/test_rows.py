"""A move's own reads and writes below the ORM (games/services/rows.py, games/locks.py):
the same rows as the ORM reads and writes, and no signal missed."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import signals
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.locks import lock_match
from games.models import Match, Move, Seat
from games.services import rows
from games.services.moves import PLAYED_FIELDS
from games.services.state import SEAT_STATE_FIELDS

pytestmark = pytest.mark.django_db


def fields_of(instance: Any) -> dict[str, Any]:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_no_model_written_below_the_orm_has_a_signal_receiver() -> None:
    """Model.save would send these; rows.insert and rows.update do not."""
    for model in (Match, Seat, Move):
        for signal in (signals.pre_save, signals.post_save):
            assert not signal.has_listeners(model), (model.__name__, signal)


def test_the_lock_reads_the_match_as_the_orm_does_and_locks_it_where_the_database_can(duel: Match) -> None:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = lock_match(duel.pk)
    assert fields_of(locked) == fields_of(Match.objects.get(pk=duel.pk))
    assert locked.decoded_state() == duel.decoded_state()
    assert queries[0]["sql"].endswith("FOR UPDATE") == connection.features.has_select_for_update


def test_seats_come_with_their_players_as_select_related_gives_them(
    duel: Match, django_assert_num_queries: Any
) -> None:
    expected = list(duel.seats.select_related("user"))
    with django_assert_num_queries(2):
        seats = rows.seats_with_players(duel.pk)
        names = [seat.user.username for seat in seats if seat.user is not None]  # loaded: no query
    assert [fields_of(seat) for seat in seats] == [fields_of(seat) for seat in expected]
    assert [fields_of(seat.user) for seat in seats] == [fields_of(seat.user) for seat in expected]
    assert names == ["ann", "bob"]


def test_an_open_seat_has_no_player(ann: User) -> None:
    from games.services import SeatRequest, match_create

    match = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    seats = rows.seats_with_players(match.pk)
    assert [seat.user for seat in seats] == [ann, None]


def test_updates_write_the_fields_named_and_only_those(duel: Match) -> None:
    match = Match.objects.get(pk=duel.pk)
    before = match.updated_at
    match.ply, match.result, match.status = 7, {"ranks": [1, 2]}, Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.visibility = "private"  # not among the fields written
    assert rows.update(match, PLAYED_FIELDS) == 1
    stored = Match.objects.get(pk=duel.pk)
    assert (stored.ply, stored.result, stored.status, stored.finished_at) == (
        7, {"ranks": [1, 2]}, "finished", match.finished_at,
    )  # fmt: skip
    assert stored.updated_at > before  # auto_now, as Model.save sets it
    assert stored.visibility == duel.visibility
    seat = Seat.objects.get(match=duel, index=0)
    seat.owes_decision, seat.decision_ply, seat.deadline_at = True, 7, timezone.now() + timedelta(hours=1)
    assert rows.update(seat, SEAT_STATE_FIELDS) == 1
    assert fields_of(Seat.objects.get(pk=seat.pk)) == fields_of(seat)


def test_an_insert_stores_the_row_and_the_unique_constraints_still_refuse_a_second(
    duel: Match, ann: User
) -> None:
    action_id = uuid.uuid4()
    rows.insert(
        Move(match=duel, ply=0, seat=0, action={"type": "ask", "n": 5}, user=ann, action_id=action_id)
    )
    stored = Move.objects.get(match=duel, ply=0)
    assert (stored.seat, stored.action, stored.user_id, stored.action_id) == (
        0,
        {"type": "ask", "n": 5},
        ann.pk,
        action_id,
    )
    assert stored.created_at is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(Move(match=duel, ply=0, seat=1, action={}, user=None))  # the same ply
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(Move(match=duel, ply=1, seat=1, action={}, user=ann, action_id=action_id))  # the same id
