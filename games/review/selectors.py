"""Reads of reviews: who may have one (``refusal``), a player's review of a match, its
progress, and its decisions for the page."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.bots import levels_for
from games.errors import ErrorCode, MatchError
from games.models import Match, Move
from games.review import grades
from games.review.models import Review, ReviewedDecision

# A review unfinished with no opinion written for this long is taken to be stalled (its
# worker died, its next task was lost): the page says so and a new request resumes it.
# Far above one task's work (services.CHUNK_SECONDS and one more decision) and the
# wait behind other tasks in the queue.
STALLED_SECONDS = 120


def refusal(match: Match, user: User | AnonymousUser) -> MatchError | None:
    """Why ``user`` may not review ``match``, or None: only its players (not bots), only
    once it is over (the expert would otherwise play the rest of the game for them),
    only in a game the expert plays."""
    if not isinstance(user, User):
        return MatchError(ErrorCode.LOGIN_REQUIRED, "Log in to review your moves.")
    if user.is_bot:
        return MatchError(ErrorCode.NOT_ALLOWED, "Bots do not review their matches.")
    if not match.seats.filter(user=user, joined_at__isnull=False).exists():
        return MatchError(
            ErrorCode.NOT_PLAYING, "Only the match's players can review it, each their own decisions."
        )
    if match.status != Match.Status.FINISHED:
        return MatchError(
            ErrorCode.NOT_ALLOWED,
            "A match is reviewed once it is over: until then the expert would be playing it for you.",
        )
    if "expert" not in levels_for(match.engine):
        return MatchError(ErrorCode.NOT_ALLOWED, f"The expert bot does not play {match.game_name}.")
    return None


def my_decisions(match: Match, user: User) -> int:
    """How many of ``match``'s moves ``user`` made themselves (the autopilot's are not theirs)."""
    return Move.objects.filter(match=match, user=user).count()


def review_of(match: Match, user: User | AnonymousUser) -> Review | None:
    if not isinstance(user, User):
        return None
    return Review.objects.filter(match=match, user=user).first()


@dataclass(frozen=True)
class Progress:
    reviewed: int
    decisions: int
    is_done: bool
    is_stalled: bool
    problem: str

    @property
    def words(self) -> str:
        noun = "decision" if self.decisions == 1 else "decisions"
        return f"{self.reviewed} of {self.decisions} {noun} reviewed"

    def as_json(self) -> dict[str, object]:
        return {
            "reviewed": self.reviewed,
            "decisions": self.decisions,
            "done": self.is_done,
            "stalled": self.is_stalled,
            "words": self.words,
        }


def progress(review: Review) -> Progress:
    stalled_before = timezone.now() - timedelta(seconds=STALLED_SECONDS)
    return Progress(
        reviewed=review.reviewed_decisions.count(),
        decisions=review.decisions,
        is_done=review.is_done,
        is_stalled=not review.is_done and review.progressed_at < stalled_before,
        problem=review.problem,
    )


# How many of the costliest decisions the page lists first.
COSTLIEST = 3


def scale_of(match: Match) -> grades.Scale:
    """How a seat's worth reads in ``match``: a chance to win or an expected place
    (``grades.Scale``); the seats are the match's prefetched ones when it has them."""
    return grades.Scale.for_table(len(match.seats.all()), cooperative=match.engine.is_cooperative)


@dataclass(frozen=True)
class Graded:
    """One reviewed decision as the page says it: its grade, and the expert's estimates in
    the table's words (empty for a forced move and a decision not graded)."""

    decision: ReviewedDecision
    grade: grades.Grade
    cost: str  # "-6% chance to win"
    with_best: str  # "52% chance to win"
    with_played: str

    @property
    def words(self) -> str:
        """The grade and its cost: "Mistake: -12% chance to win", "Best", "Good"."""
        if self.grade.is_costly:
            return f"{self.grade.word}: {self.cost}"
        return self.grade.word


def graded(decision: ReviewedDecision, scale: grades.Scale) -> Graded:
    if decision.value_best is None or decision.value_played is None or decision.is_forced:
        return Graded(decision=decision, grade=decision.grade, cost="", with_best="", with_played="")
    return Graded(
        decision=decision,
        grade=decision.grade,
        cost=scale.cost(decision.cost),
        with_best=scale.worth(decision.value_best),
        with_played=scale.worth(decision.value_played),
    )


@dataclass(frozen=True)
class Summary:
    decisions: list[Graded]  # in ply order
    costliest: list[Graded]  # the costliest inaccuracies or worse, costliest first
    scale: grades.Scale
    choices: int  # decisions with more than one legal action
    agreed: int  # of those, the ones the expert would have played the same
    ungraded: int  # of those, the ones written before decisions were graded
    seconds: float  # the expert's time over the whole review

    @property
    def disagreed(self) -> int:
        return self.choices - self.agreed

    def count(self, grade: grades.Grade) -> int:
        return sum(entry.grade == grade for entry in self.decisions)

    @property
    def tally(self) -> list[tuple[grades.Grade, int]]:
        """How many decisions got each grade, for the summary line (grades given only)."""
        shown = [grades.BEST, grades.GOOD, grades.INACCURATE, grades.MISTAKEN, grades.BLUNDERED]
        return [(grade, number) for grade in shown if (number := self.count(grade))]


def summary(review: Review) -> Summary:
    """The finished review for its page: every decision graded, in ply order, and the
    costliest few (an inaccuracy or worse; the earlier first among equal costs)."""
    scale = scale_of(review.match)
    entries = [graded(decision, scale) for decision in review.reviewed_decisions.order_by("ply")]
    chosen = [entry.decision for entry in entries if not entry.decision.is_forced]
    costly = [entry for entry in entries if entry.grade.is_costly]
    return Summary(
        decisions=entries,
        costliest=sorted(costly, key=lambda entry: -entry.decision.cost)[:COSTLIEST],
        scale=scale,
        choices=len(chosen),
        agreed=sum(decision.agrees for decision in chosen),
        ungraded=sum(not decision.is_graded for decision in chosen),
        seconds=sum(entry.decision.seconds for entry in entries),
    )


def review_data(review: Review) -> dict[str, Any]:
    """A review as JSON: its progress and each decision reviewed so far, in ply order.

    Each decision names its replay step, so a script (the replay page's) can mark it
    knowing nothing else of reviews: ``step`` is the replay's ``?step=``, the board just
    before the move (the ply it was made at), and ``replay_url`` that step through the
    player's eyes, as the review page links it; ``grade`` its grade's slug (``best``,
    ``good``, ``inaccuracy``, ``mistake``, ``blunder``, ``forced``, ``not-graded``),
    ``value_best`` and ``value_played`` the expert's estimates (0 to 1, ``search.reward``;
    null when not graded) and ``cost`` what it lost (null when not graded). ``problem`` is why a finished review
    could not be made (then its decisions are not the whole match's), empty otherwise."""
    replay = reverse("match_replay", args=[review.match_id])
    return {
        **progress(review).as_json(),
        "problem": review.problem,
        "iterations": review.iterations,
        "reviewed_decisions": [
            {
                "ply": decision.ply,
                "step": decision.ply,
                "replay_url": f"{replay}?step={decision.ply}&eyes=seat-{decision.seat}",
                "seat": decision.seat,
                "agrees": decision.agrees,
                "forced": decision.is_forced,
                "played": decision.played,
                "played_label": decision.played_label,
                "expert": decision.expert,
                "expert_label": decision.expert_label,
                "grade": decision.grade.slug,
                "value_best": decision.value_best,
                "value_played": decision.value_played,
                "cost": decision.cost if decision.is_graded else None,
            }
            for decision in review.reviewed_decisions.order_by("ply")
        ],
    }
