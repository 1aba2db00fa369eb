"""Turn clocks on the site (games/services/clocks.py, decisions.update_clocks, the
sweep_clocks task): a clock starts with a person's decision, runs out into the
autopilot and then a forfeit, and pauses for a vacation. Time moves with time-machine."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.errors import MatchError
from games.models import Match, Move
from games.selectors import dashboard
from games.services import SeatRequest, match_create, match_join, match_resign
from games.services.clocks import seat_time_out, vacation_begin, vacation_end
from games.tasks import sweep_clocks
from tests.games.helpers import on_turn, play, seat, until_turn_passes

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
GRACE = timedelta(seconds=settings.NUDGE_GRACE_SECONDS)


@pytest.fixture
def clocked(ann: User, bob: User) -> Match:
    """Go Fox! between Ann and Bob, one hour per turn."""
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def test_the_clock_starts_with_the_decision_and_moves_to_the_next_player(clocked: Match) -> None:
    start = timezone.now()
    first = on_turn(clocked)
    mine = seat(clocked, first)
    assert mine.deadline_at is not None and start - timedelta(seconds=5) < mine.deadline_at - HOUR <= start
    assert mine.alarm_at == mine.deadline_at - HOUR * 0.2
    assert mine.nudge_at == mine.deadline_at - HOUR + GRACE
    assert seat(clocked, 1 - first).deadline_at is None  # owes nothing, has no clock
    with time_machine.travel(start + timedelta(minutes=20)):
        now_on = until_turn_passes(clocked)
        theirs = seat(clocked, now_on)
        assert theirs.deadline_at is not None and theirs.deadline_at >= timezone.now() + HOUR - timedelta(
            seconds=5
        )
        assert seat(clocked, 1 - now_on).deadline_at is None


def test_a_clock_that_runs_out_plays_the_autopilot_then_forfeits_after_three(clocked: Match) -> None:
    first = on_turn(clocked)
    for timeout in (1, 2, 3):
        deadline = seat(clocked, first).deadline_at
        assert deadline is not None
        with time_machine.travel(deadline + timedelta(seconds=1)):
            before = Move.objects.filter(match=clocked).count()
            assert sweep_clocks()["timed_out"] == 1
            assert seat(clocked, first).timeouts == timeout
            clocked.refresh_from_db()
            if timeout < 3:
                # The autopilot played that turn: a move by nobody, in the player's seat.
                autopilot = Move.objects.filter(match=clocked).order_by("-ply")[0]
                assert Move.objects.filter(match=clocked).count() == before + 1
                assert (autopilot.seat, autopilot.user) == (first, None)
                # Play the opponent back to the first player, if the turn passed.
                while clocked.status == Match.Status.RUNNING and on_turn(clocked) != first:
                    play(clocked, 1 - first)
    # Three in a row: the player forfeits, on time; in a duel that ends the match.
    out = seat(clocked, first)
    assert (out.resigned_reason, out.rank) == ("timed_out", 2)
    assert clocked.status == Match.Status.FINISHED


def test_a_move_of_ones_own_starts_the_timeouts_again_from_zero(clocked: Match) -> None:
    first = on_turn(clocked)
    deadline = seat(clocked, first).deadline_at
    assert deadline is not None
    with time_machine.travel(deadline + timedelta(seconds=1)):
        sweep_clocks()
        while on_turn(clocked) != first:
            play(clocked, 1 - first)
        assert seat(clocked, first).timeouts == 1
        play(clocked, first)
        assert seat(clocked, first).timeouts == 0


def test_a_time_out_is_done_once_however_many_sweeps_see_it(clocked: Match) -> None:
    first = on_turn(clocked)
    deadline = seat(clocked, first).deadline_at
    assert deadline is not None
    with time_machine.travel(deadline + timedelta(seconds=1)):
        assert seat_time_out(match_id=clocked.pk, seat_index=first, deadline=deadline)
        # A second sweep that read the same due row before the first acted on it.
        assert not seat_time_out(match_id=clocked.pk, seat_index=first, deadline=deadline)
        assert sweep_clocks()["timed_out"] == 0
    assert Move.objects.filter(match=clocked, user=None).count() == 1
    assert seat(clocked, first).timeouts == 1


def test_nothing_times_out_before_the_deadline(clocked: Match) -> None:
    deadline = seat(clocked, on_turn(clocked)).deadline_at
    assert deadline is not None
    with time_machine.travel(deadline - timedelta(seconds=1)):
        assert sweep_clocks()["timed_out"] == 0
    assert not Move.objects.filter(match=clocked).exists()


def test_vacation_pauses_the_clock_and_takes_days_from_the_bank(clocked: Match) -> None:
    first = on_turn(clocked)
    player = seat(clocked, first).user
    assert player is not None
    start = timezone.now()
    with time_machine.travel(start + timedelta(minutes=15), tick=False):
        player = vacation_begin(user=player, days=3)
        paused = seat(clocked, first)
        assert (paused.deadline_at, paused.alarm_at, paused.nudge_at) == (None, None, None)
        assert paused.clock_left is not None and HOUR - timedelta(
            minutes=16
        ) < paused.clock_left <= HOUR - timedelta(minutes=15)
        assert player.vacation_days_left == settings.VACATION_DAYS_PER_YEAR - 3
    # A week later the clock has not run out: nothing was played for the player.
    with time_machine.travel(start + timedelta(days=2), tick=False):
        assert sweep_clocks()["timed_out"] == 0
        back = vacation_end(user=player)  # back early: the day not begun goes back to the bank
        assert back.vacation_until is None and back.vacation_days_left == settings.VACATION_DAYS_PER_YEAR - 2
        resumed = seat(clocked, first)
        assert resumed.deadline_at == timezone.now() + paused.clock_left
        assert resumed.clock_left is None
    assert not Move.objects.filter(match=clocked).exists()


def test_a_vacation_that_runs_out_ends_by_the_sweep_and_the_clock_runs_again(clocked: Match) -> None:
    first = on_turn(clocked)
    player = seat(clocked, first).user
    assert player is not None
    vacation_begin(user=player, days=1)
    left = seat(clocked, first).clock_left
    assert left is not None
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1), tick=False):
        assert sweep_clocks() == {"timed_out": 0, "vacations_ended": 1}
        assert seat(clocked, first).deadline_at == timezone.now() + left
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=2) + left, tick=False):
        assert sweep_clocks()["timed_out"] == 1  # and now it runs out as any clock


def test_a_turn_that_opens_during_a_vacation_waits_whole(clocked: Match) -> None:
    first = on_turn(clocked)
    other = seat(clocked, 1 - first).user
    assert other is not None
    vacation_begin(user=other, days=2)
    until_turn_passes(clocked)
    waiting = seat(clocked, 1 - first)
    assert waiting.deadline_at is None and waiting.clock_left == HOUR


@pytest.mark.parametrize("days", [0, -1, 15, "3", None])
def test_a_vacation_outside_the_bank_is_refused_and_changes_nothing(ann: User, days: Any) -> None:
    with pytest.raises(MatchError) as refused:
        vacation_begin(user=ann, days=days)
    assert refused.value.code == "bad_vacation" and str(refused.value)
    ann.refresh_from_db()
    assert ann.vacation_until is None and ann.vacation_days_left == settings.VACATION_DAYS_PER_YEAR


def test_the_bank_runs_out_and_refills_with_the_new_year(ann: User) -> None:
    with time_machine.travel(timezone.now().replace(year=2026, month=3, day=1), tick=False):
        vacation_begin(user=ann, days=14)
    with time_machine.travel(timezone.now().replace(year=2026, month=3, day=20), tick=False):
        vacation_end(user=ann)
        with pytest.raises(MatchError, match="used up"):
            vacation_begin(user=ann, days=1)
    with time_machine.travel(timezone.now().replace(year=2027, month=1, day=2), tick=False):
        assert vacation_begin(user=ann, days=14).vacation_days_left == 0


def test_my_matches_lists_my_turns_by_time_left_those_without_a_clock_last(ann: User, bob: User) -> None:
    def duel_on_anns_turn(turn_limit: int | None) -> Match:
        match = match_create(
            creator=ann, game_slug="go-fox", options={}, turn_limit=turn_limit,
            seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
        )  # fmt: skip
        match_join(match_id=match.pk, user=bob)
        match.refresh_from_db()
        while on_turn(match) != 0:
            play(match, 1)
        return match

    no_clock = duel_on_anns_turn(None)
    a_day = duel_on_anns_turn(24 * 3600)
    an_hour = duel_on_anns_turn(3600)
    assert [match.pk for match in dashboard(ann).your_turn] == [an_hour.pk, a_day.pk, no_clock.pk]


def test_a_match_ended_by_a_resignation_leaves_no_clock_running(clocked: Match) -> None:
    first = on_turn(clocked)
    assert seat(clocked, first).deadline_at is not None
    player = seat(clocked, 1 - first).user
    assert player is not None
    match_resign(match_id=clocked.pk, user=player)
    clocked.refresh_from_db()
    assert clocked.status == Match.Status.FINISHED
    for index in (0, 1):
        ended = seat(clocked, index)
        assert (ended.decision_ply, ended.deadline_at, ended.alarm_at, ended.nudge_at) == (
            None,
            None,
            None,
            None,
        )
