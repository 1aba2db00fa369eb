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


@dataclass(frozen=True)
class Summary:
    decisions: list[ReviewedDecision]
    choices: int  # decisions with more than one legal action
    agreed: int  # of those, the ones the expert would have played the same
    seconds: float  # the expert's time over the whole review

    @property
    def disagreed(self) -> int:
        return self.choices - self.agreed


def summary(review: Review) -> Summary:
    decisions = list(review.reviewed_decisions.order_by("ply"))
    chosen = [decision for decision in decisions if not decision.is_forced]
    return Summary(
        decisions=decisions,
        choices=len(chosen),
        agreed=sum(decision.agrees for decision in chosen),
        seconds=sum(decision.seconds for decision in decisions),
    )


def review_data(review: Review) -> dict[str, Any]:
    """A review as JSON: its progress and each decision reviewed so far, in ply order.

    Each decision names its replay step, so a script (the replay page's) can mark it
    knowing nothing else of reviews: ``step`` is the replay's ``?step=``, the board just
    before the move (the ply it was made at), and ``replay_url`` that step through the
    player's eyes, as the review page links it. ``problem`` is why a finished review
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
            }
            for decision in review.reviewed_decisions.order_by("ply")
        ],
    }
