"""A player's review of one finished match, and the expert's opinion of each decision.

Writes go through ``games.review.services``; reads through ``games.review.selectors``.
Exactly-once is the database's: one review per (match, player), one opinion per
(review, ply), so a request made twice, a task run twice or two runs at once never
write a second row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.review import grades


class Review(models.Model):
    """One player's review of one finished match: their own decisions (moves they made
    themselves, not the autopilot's), each looked at by the expert bot."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="reviews")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews")
    # How many decisions the review covers: fixed when it is requested (the match is over).
    decisions = models.PositiveIntegerField()
    # The expert's search budget per decision, in playouts: a fixed count, not a time, so
    # an opinion is the same whenever and wherever it is worked out (expert.py).
    iterations = models.PositiveIntegerField()
    # Which run may work on the review: a re-request of a stalled review starts run
    # ``attempt + 1``, and a run that finds another number stops (services.review_advance).
    attempt = models.PositiveIntegerField(default=1)
    requested_at = models.DateTimeField(auto_now_add=True)
    # The last sign of life of the run: its start and each opinion written. A review
    # unfinished and silent for ``selectors.STALLED_SECONDS`` may be taken over.
    progressed_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # Why the review could not be made (a recorded move no longer applies); empty when it could.
    problem = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_review_per_match_and_player")
        ]

    def __str__(self) -> str:
        return f"{self.user}'s review of {self.match}"

    @property
    def is_done(self) -> bool:
        return self.finished_at is not None


class ReviewedDecision(models.Model):
    """One of the player's moves and the expert's choice from the same view."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="reviewed_decisions")
    ply = models.PositiveIntegerField(help_text="The match's ply when the move was made (the replay's step).")
    seat = models.PositiveSmallIntegerField()
    played = models.JSONField()
    expert = models.JSONField()
    # The two actions' canonical JSON are equal.
    agrees = models.BooleanField()
    # The actions in words, as the board's buttons said them (names in place of seat marks).
    played_label = models.TextField()
    expert_label = models.TextField()
    # The legal actions the player had: 1 is a forced move, nothing to decide.
    choices = models.PositiveIntegerField()
    # What the expert's work cost: wall-clock seconds and playouts (the duel's and the
    # appraisal's included).
    seconds = models.FloatField()
    playouts = models.PositiveIntegerField()
    # The appraisal (expert.appraisal): the seat's worth by the expert's estimate, in
    # search.reward units (0 to 1), after the expert's action and after the one played,
    # the standard error of their difference, and the re-deals each was played on. Null
    # for a forced move (nothing to grade) and for opinions written before grades were
    # (then the page says "not graded").
    value_best = models.FloatField(null=True, blank=True)
    value_played = models.FloatField(null=True, blank=True)
    value_error = models.FloatField(null=True, blank=True)
    appraisal_rounds = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["ply"]
        constraints = [
            models.UniqueConstraint(fields=["review", "ply"], name="one_opinion_per_review_and_ply")
        ]

    def __str__(self) -> str:
        return f"{self.review} ply {self.ply}"

    @property
    def is_forced(self) -> bool:
        return self.choices <= 1

    @property
    def is_graded(self) -> bool:
        return self.value_best is not None and self.value_played is not None

    @property
    def cost(self) -> float:
        """What the decision cost by the expert's estimate (0 when the appraisal found the
        played action as good or better, and for a decision not graded)."""
        if self.value_best is None or self.value_played is None:
            return 0.0
        return max(0.0, self.value_best - self.value_played)

    @property
    def grade(self) -> grades.Grade:
        if self.is_forced:
            return grades.FORCED
        if not self.is_graded:
            return grades.NOT_GRADED
        return grades.grade_of(self.cost, agrees=self.agrees)
