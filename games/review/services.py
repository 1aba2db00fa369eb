"""Review writes: ask for a review (``review_request``) and work on it (``review_advance``,
run by the Celery task in chunks).

How a review stays right (docs/site.md, "Post-game review"):

- **One per player and match.** The request is a ``get_or_create`` on the unique
  (match, player): asking again, or two requests at once, return the one review.
- **Each decision once.** An opinion is written with its unique (review, ply) and
  ``ignore_conflicts``, and a run starts from the decisions that have none yet. So a
  task run twice, a redelivered one, or two runs at once write each row once; an
  opinion is deterministic (``expert.py``), so whichever run writes it, it is the same.
- **In chunks.** Bots' turns and reviews share the workers' one queue, and a review is
  a minute of the expert's time or more; so one task works for ``CHUNK_SECONDS`` (and
  at least one decision), then queues the next one behind whatever came meanwhile.
- **Stalled work is resumed by asking again.** A worker killed mid-chunk has its task
  delivered again by Celery (late acknowledgement, rejection on worker loss). If the
  chain still breaks (the next task could not be queued, the broker lost it), the
  review goes silent; after ``selectors.STALLED_SECONDS`` its page says so and offers
  the button again, and a request then starts a new run: ``attempt`` goes up by one,
  in one conditional update (two clicks start one run), and a task of an older run
  stops when it sees the new number. No sweep: a review is wanted by the person
  looking at its page, who is shown that it stopped.
"""

from __future__ import annotations

import time
from datetime import timedelta
from enum import StrEnum
from typing import Any

from celery import current_app
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from accounts.models import User
from games.boards import presenter_for
from games.effects import after_commit
from games.engine import IllegalAction
from games.engine.log import render_text
from games.errors import ErrorCode, MatchError
from games.models import Match, Move
from games.replays import states
from games.review import expert, selectors
from games.review.models import Review, ReviewedDecision
from games.selectors import seat_names

# The task that works on a review (tasks.py).
REVIEW_TASK = "games.review.tasks.review_work"
# The work one task does before it queues the next: at least one decision, and more
# while the chunk's time lasts (each task also replays the match up to its decisions).
CHUNK_SECONDS = 5.0


class ReviewOutcome(StrEnum):
    """What review_advance did."""

    DONE = "done"  # every decision has its opinion (now or before)
    MORE = "more"  # a chunk done, the next queued
    SUPERSEDED = "superseded"  # another run took the review over
    GONE = "gone"  # the review (its match) was deleted
    FAILED = "failed"  # the match could not be rebuilt: the review says why


def review_request(*, match_id: int, user: User) -> Review:
    """``user``'s review of their own decisions in finished match ``match_id``: made and
    queued the first time, the same one after (resumed if it stalled). Refused with a
    ``MatchError`` for a match that does not exist, one not over, and anyone but its players.
    A finished review made before decisions were graded is graded now: asking again reopens it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchError(ErrorCode.NO_SUCH_MATCH, f"There is no match {match_id!r}.")
    refusal = selectors.refusal(match, user)
    if refusal is not None:
        raise refusal
    with transaction.atomic():
        review, created = Review.objects.get_or_create(
            match=match,
            user=user,
            defaults={
                "decisions": selectors.my_decisions(match, user),
                "iterations": expert.iterations_for(match.game),
                "progressed_at": timezone.now(),
            },
        )
        if created:
            after_commit(_queue_work, review.pk, review.attempt)
        elif not review.is_done:
            _take_over(review)
        elif _ungraded(review).exists():
            _grade_again(review)
    return review


def _ungraded(review: Review) -> QuerySet[ReviewedDecision]:
    """The opinions of decisions with a choice written before decisions were graded."""
    return ReviewedDecision.objects.filter(review=review, choices__gt=1, value_best__isnull=True)


def _grade_again(review: Review) -> None:
    """Reopen a finished review made before grades as run ``attempt + 1``, without its
    ungraded opinions, so the run writes them again with their grades (the rest stay).
    One conditional update claims it: of two requests at once, one deletes and queues."""
    reopened = Review.objects.filter(pk=review.pk, attempt=review.attempt, finished_at__isnull=False).update(
        attempt=F("attempt") + 1, finished_at=None, progressed_at=timezone.now(), problem=""
    )
    if reopened:
        _ungraded(review).delete()
        review.refresh_from_db()
        after_commit(_queue_work, review.pk, review.attempt)


def _take_over(review: Review) -> None:
    """Start run ``attempt + 1`` of ``review`` if it has stalled (no sign of life for
    ``selectors.STALLED_SECONDS``); of two requests at once, one does."""
    stalled_before = timezone.now() - timedelta(seconds=selectors.STALLED_SECONDS)
    taken = Review.objects.filter(
        pk=review.pk, attempt=review.attempt, finished_at__isnull=True, progressed_at__lt=stalled_before
    ).update(attempt=F("attempt") + 1, progressed_at=timezone.now())
    if taken:
        review.refresh_from_db()
        after_commit(_queue_work, review.pk, review.attempt)


def review_advance(*, review_id: int, attempt: int, seconds: float = CHUNK_SECONDS) -> ReviewOutcome:
    """Work on review ``review_id`` as run ``attempt``: give the expert's opinion of the
    player's next decisions without one, for ``seconds`` (at least one decision), then
    queue the next chunk, or mark the review finished. Safe to call again at any point."""
    review = Review.objects.select_related("match").filter(pk=review_id).first()
    if review is None:
        return ReviewOutcome.GONE
    if review.is_done:
        return ReviewOutcome.DONE
    if not _alive(review.pk, attempt):
        return ReviewOutcome.SUPERSEDED
    match = review.match
    pending = list(
        Move.objects.filter(match=match, user_id=review.user_id)
        .exclude(ply__in=ReviewedDecision.objects.filter(review=review).values("ply"))
        .order_by("ply")
        .only("ply", "seat", "action")
    )
    if not pending:
        Review.objects.filter(pk=review.pk, finished_at__isnull=True).update(finished_at=timezone.now())
        return ReviewOutcome.DONE
    started = time.perf_counter()
    wanted = {move.ply: move for move in pending}
    seats = list(match.seats.select_related("user").order_by("index"))
    names = seat_names(seats)
    written = 0
    try:
        # One replay up to the last pending decision: the state before each move is the
        # state after ``ply`` moves, which ``states`` yields as ``ply``.
        for ply, state in states(match, until=pending[-1].ply):
            move = wanted.get(ply)
            if move is None:
                continue
            ReviewedDecision.objects.bulk_create(
                [_opinion_of(review, match, move, state, names)], ignore_conflicts=True
            )
            written += 1
            if not _alive(review.pk, attempt):
                return ReviewOutcome.SUPERSEDED
            if time.perf_counter() - started >= seconds:
                break
    except IllegalAction as error:
        Review.objects.filter(pk=review.pk, finished_at__isnull=True).update(
            finished_at=timezone.now(), problem=f"The match could not be rebuilt: {error}"[:300]
        )
        return ReviewOutcome.FAILED
    if written == len(pending):
        Review.objects.filter(pk=review.pk, finished_at__isnull=True).update(finished_at=timezone.now())
        return ReviewOutcome.DONE
    after_commit(_queue_work, review.pk, attempt)
    return ReviewOutcome.MORE


def _alive(review_id: int, attempt: int) -> bool:
    """Mark run ``attempt`` alive now, if it is still the review's run (one statement:
    a run taken over in between stops at its next decision)."""
    return bool(
        Review.objects.filter(pk=review_id, attempt=attempt, finished_at__isnull=True).update(
            progressed_at=timezone.now()
        )
    )


def _opinion_of(review: Review, match: Match, move: Move, state: Any, names: list[str]) -> ReviewedDecision:
    """The expert's opinion of ``move`` from the view its player had (``state``: before it),
    and, when the player had a choice, what it cost by the expert's estimate."""
    game = match.engine
    view = game.view(state, move.seat)
    started = time.perf_counter()
    found = expert.opinion(
        game, view, move.seat, match_id=match.pk, ply=move.ply, iterations=review.iterations
    )
    choices = len(game.legal_actions(state, move.seat))
    appraised = None
    if choices > 1:
        appraised = expert.appraisal(
            game,
            view,
            move.seat,
            best=found.action,
            played=move.action,
            match_id=match.pk,
            ply=move.ply,
            rounds=expert.appraisal_rounds(review.iterations),
        )
    label = presenter_for(game).label
    # The actions in words as the player reads them: other seats by name, their own as "you".
    return ReviewedDecision(
        review=review,
        ply=move.ply,
        seat=move.seat,
        played=move.action,
        expert=found.action,
        agrees=expert.action_key(move.action) == expert.action_key(found.action),
        played_label=render_text(label(view, move.action), names, move.seat),
        expert_label=render_text(label(view, found.action), names, move.seat),
        choices=choices,
        seconds=time.perf_counter() - started,
        playouts=found.playouts + (appraised.playouts if appraised else 0),
        value_best=appraised.best if appraised else None,
        value_played=appraised.played if appraised else None,
        value_error=appraised.error if appraised else None,
        appraisal_rounds=appraised.rounds if appraised else None,
    )


def _queue_work(review_id: int, attempt: int) -> None:
    current_app.send_task(REVIEW_TASK, args=[review_id, attempt])
