"""Asking for a review and working on it: one per player and match, each decision once,
in chunks, resumed after a stall, and refused to anyone but the match's players."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.errors import ErrorCode, MatchError
from games.models import Match, Move
from games.replays import state_at
from games.review import expert, grades, services
from games.review.models import Review, ReviewedDecision
from games.services import BOT_USERNAMES
from tests.games.review.helpers import ITERATIONS, expert_choice, finish_duel

pytestmark = pytest.mark.django_db


def requested(match: Match, user: User) -> Review:
    """A review asked for, with the tests' small expert budget."""
    review = services.review_request(match_id=match.pk, user=user)
    Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    review.refresh_from_db()
    return review


def test_a_request_creates_one_review_and_a_second_returns_the_same(finished: Match, ann: User) -> None:
    first = services.review_request(match_id=finished.pk, user=ann)
    second = services.review_request(match_id=finished.pk, user=ann)
    assert first.pk == second.pk and Review.objects.count() == 1
    assert first.decisions == 3 == Move.objects.filter(match=finished, user=ann).count()
    assert first.attempt == second.attempt == 1 and not first.is_done
    with pytest.raises(IntegrityError), transaction.atomic():
        Review.objects.create(
            match=finished, user=ann, decisions=3, iterations=1, progressed_at=timezone.now()
        )


def test_the_review_gives_the_experts_opinion_of_each_of_my_decisions_only(
    finished: Match, ann: User
) -> None:
    review = requested(finished, ann)
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.DONE
    mine = list(Move.objects.filter(match=finished, user=ann).order_by("ply"))
    rows = list(ReviewedDecision.objects.filter(review=review))
    assert [row.ply for row in rows] == [move.ply for move in mine]  # Bob's moves are not Ann's
    for row, move in zip(rows, mine, strict=True):
        assert row.seat == 0 and row.played == move.action
        assert row.expert == expert_choice(finished, state_at(finished, move.ply), 0, move.ply)
        assert row.agrees == (row.played == row.expert)
        assert row.played_label and row.expert_label and "{s" not in row.played_label + row.expert_label
    # Ann played against the expert once, on her first decision with a choice (conftest).
    first_choice = next(row for row in rows if row.choices > 1)
    assert [row.agrees for row in rows] == [row is not first_choice for row in rows]
    assert first_choice.played_label != first_choice.expert_label
    review.refresh_from_db()
    assert review.is_done and review.problem == ""


def test_each_decision_with_a_choice_is_graded_by_what_it_cost_and_the_numbers_are_stored(
    finished: Match, ann: User
) -> None:
    review = requested(finished, ann)
    services.review_advance(review_id=review.pk, attempt=1)
    rows = list(ReviewedDecision.objects.filter(review=review))
    rounds = expert.appraisal_rounds(ITERATIONS)
    game = finished.engine
    for row in rows:
        if row.is_forced:  # nothing to decide: no numbers, no search
            assert row.value_best is row.value_played is row.appraisal_rounds is None
            assert row.grade == grades.FORCED and row.playouts == 0
            continue
        # The stored numbers are the appraisal's, worked out again from the same seeds.
        view = game.view(state_at(finished, row.ply), 0)
        again = expert.appraisal(
            game,
            view,
            0,
            best=row.expert,
            played=row.played,
            match_id=finished.pk,
            ply=row.ply,
            rounds=rounds,
        )
        assert (row.value_best, row.value_played, row.value_error) == (again.best, again.played, again.error)
        assert row.appraisal_rounds == rounds and row.playouts > again.playouts
        assert row.value_best is not None and row.value_played is not None
        assert 0.0 <= row.value_played <= 1.0 and 0.0 <= row.value_best <= 1.0
        if row.agrees:  # one action: no cost, the expert's own move
            assert row.value_best == row.value_played and row.value_error == 0.0
            assert row.cost == 0.0 and row.grade == grades.BEST
        else:
            assert row.cost == max(0.0, row.value_best - row.value_played)
            assert row.grade == grades.grade_of(row.cost, agrees=False) != grades.BEST


def test_the_actions_name_the_players_from_the_reviewing_player_s_view(
    duel: Match, ann: User, bob: User
) -> None:
    """Go Fox!'s "ask" names whom it asks: "Ask Bob for a 5", never "the next player"."""
    match = finish_duel(duel, ann, bob, ann_moves=3)
    review = requested(match, ann)
    services.review_advance(review_id=review.pk, attempt=1)
    labels = [
        label
        for row in ReviewedDecision.objects.filter(review=review)
        for label in (row.played_label, row.expert_label)
    ]
    asks = [label for label in labels if label.startswith("Ask ")]
    assert asks and all(re.fullmatch(r"Ask Bob for an? \d+", label) for label in asks), labels
    assert not [label for label in labels if "next player" in label or "{s" in label]


def test_running_the_review_twice_writes_each_decision_once(finished: Match, ann: User) -> None:
    review = requested(finished, ann)
    # One decision a chunk; the same run's task delivered again goes on where it stopped.
    assert services.review_advance(review_id=review.pk, attempt=1, seconds=0) == services.ReviewOutcome.MORE
    assert services.review_advance(review_id=review.pk, attempt=1, seconds=0) == services.ReviewOutcome.MORE
    assert ReviewedDecision.objects.filter(review=review).count() == 2
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.DONE
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.DONE
    # A run that died after its last opinion, before marking the review done: the next
    # run only marks it.
    Review.objects.filter(pk=review.pk).update(finished_at=None)
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.DONE
    plies = list(ReviewedDecision.objects.filter(review=review).values_list("ply", flat=True))
    assert len(plies) == len(set(plies)) == 3
    # Two runs at once write their opinions with ignore_conflicts: a second row for a ply
    # is the database's to refuse.
    first = ReviewedDecision.objects.filter(review=review).first()
    assert first is not None
    first.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        first.save()


def test_a_stalled_review_is_resumed_by_a_new_request_and_the_old_run_stops(
    finished: Match, ann: User
) -> None:
    review = requested(finished, ann)
    assert services.review_advance(review_id=review.pk, attempt=1, seconds=0) == services.ReviewOutcome.MORE
    # Not stalled yet: asking again changes nothing.
    assert services.review_request(match_id=finished.pk, user=ann).attempt == 1
    Review.objects.filter(pk=review.pk).update(progressed_at=timezone.now() - timedelta(minutes=5))
    assert services.review_request(match_id=finished.pk, user=ann).attempt == 2
    assert services.review_request(match_id=finished.pk, user=ann).attempt == 2  # one take-over
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.SUPERSEDED
    assert ReviewedDecision.objects.filter(review=review).count() == 1
    assert services.review_advance(review_id=review.pk, attempt=2) == services.ReviewOutcome.DONE
    assert ReviewedDecision.objects.filter(review=review).count() == 3


def test_a_match_that_no_longer_replays_gives_a_review_that_says_why(finished: Match, ann: User) -> None:
    review = requested(finished, ann)
    # A recorded move the rules no longer take (as if a game's rules changed since).
    last = Move.objects.filter(match=finished, user=ann).order_by("ply").last()
    assert last is not None
    Move.objects.filter(match=finished, ply=last.ply - 1).update(action={"type": "no-such-action"})
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.FAILED
    review.refresh_from_db()
    assert review.is_done and review.problem.startswith("The match could not be rebuilt")


def refusal(match: Match, user: User) -> MatchError:
    with pytest.raises(MatchError) as refused:
        services.review_request(match_id=match.pk, user=user)
    assert not Review.objects.exists()
    return refused.value


def test_a_stranger_may_not_review_a_match(finished: Match, make_person: Callable[..., User]) -> None:
    error = refusal(finished, make_person("carl"))
    assert error.code == ErrorCode.NOT_PLAYING and "Only the match's players" in str(error)


def test_a_running_match_is_not_reviewed(duel: Match, ann: User) -> None:
    assert duel.status == Match.Status.RUNNING
    error = refusal(duel, ann)
    assert error.code == ErrorCode.NOT_ALLOWED and "once it is over" in str(error)


def test_a_bot_does_not_review(finished: Match) -> None:
    error = refusal(finished, User.objects.get(username=BOT_USERNAMES["expert"]))
    assert error.code == ErrorCode.NOT_ALLOWED and "Bots do not review" in str(error)


def test_a_match_that_does_not_exist_is_refused(ann: User) -> None:
    with pytest.raises(MatchError) as refused:
        services.review_request(match_id=10_000, user=ann)
    assert refused.value.code == ErrorCode.NO_SUCH_MATCH
