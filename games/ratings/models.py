"""Ratings: one per player per game, the change each rated match made, and one lock row per game.

Writes go through ``games.ratings.services``; reads through ``games.ratings.selectors``.
The rules (which matches count, the update, the number shown) are ``rules.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import game_choices


class RatingLedger(models.Model):
    """One row per game, locked (``SELECT ... FOR UPDATE``) by every transaction that
    changes that game's ratings, so they are changed one match at a time, in order, and
    no update of a ``Rating`` row is lost to another (on SQLite, where row locks do
    nothing, every write transaction already runs alone: ``transaction_mode`` IMMEDIATE)."""

    game = models.CharField(max_length=40, primary_key=True, choices=game_choices)

    def __str__(self) -> str:
        return f"ratings of {self.game}"


class Rating(models.Model):
    """A player's skill in one game (OpenSkill's mu and sigma), after every rated match
    of that game applied so far, in finishing order."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40, choices=game_choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma (rules.conservative): tournaments seed by it, and the leaderboard
    # breaks ties of mu by it. The leaderboard was once ordered by it alone, by the index
    # below; it now puts the established first, then orders by mu (rules' docstring).
    conservative = models.FloatField()
    rated_matches = models.PositiveIntegerField(default=0)
    # When the latest rated match of this player in this game finished (the
    # leaderboard lists those who played one in the last 30 days).
    last_rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_player_and_game")
        ]
        indexes = [models.Index(fields=["game", "-conservative"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: written in the transaction that
    updates the ``Rating``, and at most once per (match, player), by the database's
    unique constraint. A bot seated twice moves once (``rules.rated_seats``): ``seat``
    is the seat whose result moved it."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    # The match's, copied: the order in which one game's changes are applied is
    # (finished_at, match) and is read from these columns by one index.
    game = models.CharField(max_length=40, choices=game_choices)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_rating_change_per_match_and_player")
        ]
        indexes = [
            models.Index(fields=["game", "finished_at", "match"], name="rating_change_order"),
            models.Index(fields=["user", "game", "finished_at"], name="rating_change_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.match}: {self.mu_before:.2f} → {self.mu_after:.2f}"
