"""Reviews worked on by a real Celery worker: a requested review is filled and its
disagreements marked; a chunk queues the next; a lost task is resumed by asking again
(and not before the review has stalled)."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Match
from games.review import selectors, services
from games.review.models import Review, ReviewedDecision
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.helpers import logged_in
from tests.games.review.helpers import ITERATIONS

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def bots() -> None:
    ensure_bot_accounts()


def request_review(match: Match, user: User) -> Review:
    """Ask for the review with the tests' small expert budget, set before the commit
    sends its task to the worker."""
    with transaction.atomic():
        review = services.review_request(match_id=match.pk, user=user)
        Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    return review


def finished_by_worker_within(review: Review, *, seconds: float) -> bool:
    time.sleep(seconds)
    return Review.objects.filter(pk=review.pk, finished_at__isnull=False).exists()


def finished_by_worker(review: Review) -> Review:
    def done() -> bool:
        return Review.objects.filter(pk=review.pk, finished_at__isnull=False).exists()

    wait_for(done, timeout=60, interval=0.1, what="the worker to finish the review")
    review.refresh_from_db()
    return review


def test_the_worker_fills_a_requested_review_and_marks_where_the_expert_disagreed(
    celery_worker_process: str, finished: Match, ann: User
) -> None:
    review = finished_by_worker(request_review(finished, ann))
    rows = list(ReviewedDecision.objects.filter(review=review).order_by("ply"))
    assert len(rows) == review.decisions == 3
    disagreements = [row for row in rows if not row.agrees]
    assert len(disagreements) == 1 and disagreements[0].choices > 1
    html = logged_in(ann).get(f"/matches/{finished.pk}/review").content.decode()
    assert len(re.findall(r'class="review-decision grade-[a-z-]+ is-disagreement" id="step-', html)) == 1
    assert all(row.is_graded or row.is_forced for row in rows)  # the worker grades too
    assert "The expert would have played:</strong> " + disagreements[0].expert_label in html


def lost_review(match: Match, user: User, *, silent_for: timedelta = timedelta(0)) -> Review:
    """A review as a request leaves it, whose task never reached a worker."""
    return Review.objects.create(
        match=match,
        user=user,
        decisions=selectors.my_decisions(match, user),
        iterations=ITERATIONS,
        progressed_at=timezone.now() - silent_for,
    )


def test_a_chunk_queues_the_next_which_the_worker_takes_on(
    celery_worker_process: str, finished: Match, ann: User
) -> None:
    review = lost_review(finished, ann)
    # A run's chunk (here one decision) queues the next, and so on to the end.
    assert services.review_advance(review_id=review.pk, attempt=1, seconds=0) == services.ReviewOutcome.MORE
    assert finished_by_worker(review).attempt == 1
    assert ReviewedDecision.objects.filter(review=review).count() == 3


def test_a_review_whose_task_was_lost_is_resumed_by_asking_again(
    celery_worker_process: str, finished: Match, ann: User
) -> None:
    review = lost_review(finished, ann, silent_for=timedelta(seconds=selectors.STALLED_SECONDS - 30))
    assert services.review_request(match_id=finished.pk, user=ann).attempt == 1  # not stalled yet
    assert not finished_by_worker_within(review, seconds=1)
    Review.objects.filter(pk=review.pk).update(progressed_at=timezone.now() - timedelta(minutes=5))
    assert services.review_request(match_id=finished.pk, user=ann).attempt == 2
    resumed = finished_by_worker(review)
    assert resumed.attempt == 2
    assert ReviewedDecision.objects.filter(review=review).count() == resumed.decisions == 3
