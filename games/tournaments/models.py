"""A tournament, its entries, its rounds and their tables (each table one match).

Exactly once, as database facts: one round per (tournament, number), one table per
(round, number), one table per match, one entry per person. The services build a
round under the tournament's row lock in one transaction (docs/tournaments.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.models import Match, game_choices, validate_time_control
from games.tournaments.formats import MAX_ENTRANTS


class Tournament(models.Model):
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"

    class Seeding(models.TextChoices):
        RATING = "rating", "By rating (best first; unrated players after, in the order they registered)"
        RANDOM = "random", "Random"

    class Status(models.TextChoices):
        DRAFT = "draft", "Being set up (not shown)"
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, help_text="Shown on the tournament's page above its rules.")
    game = models.CharField(max_length=40, choices=game_choices)
    options = models.JSONField(default=dict, blank=True, help_text="The game's options, as on a match.")
    format = models.CharField(max_length=20, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(help_text="Seats at each table: 2 to the game's maximum.")
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="Single elimination: how many go on from each table."
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text="Swiss only: the number of rounds.",
    )  # fmt: skip
    registration_opens_at = models.DateTimeField()
    registration_closes_at = models.DateTimeField()
    starts_at = models.DateTimeField(
        help_text="Round 1 is seated at this time (not before registration closes)."
    )
    max_entrants = models.PositiveIntegerField(
        default=64, validators=[MinValueValidator(2), MaxValueValidator(MAX_ENTRANTS)]
    )
    seeding = models.CharField(max_length=10, choices=Seeding.choices, default=Seeding.RATING)
    # Required: a round never waits longer than its clocks allow (timeouts play the
    # autopilot, then forfeit), so a tournament cannot run without a time control.
    turn_limit = models.PositiveIntegerField(
        validators=[validate_time_control], help_text="Seconds per turn: 300, 3600, or whole days (1 to 14)."
    )
    timeouts_to_forfeit = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="Timeouts in a row after which a player forfeits (and is out of the tournament).",
    )  # fmt: skip
    vacation_allowed = models.BooleanField(
        default=False, help_text="May a player's vacation pause their clocks?"
    )
    bot_fill_level = models.CharField(
        max_length=20, blank=True, default="",
        help_text="Fill the empty places with bots of this level when the tournament starts; empty for none.",
    )  # fmt: skip
    rated = models.BooleanField(default=True, help_text="Do its matches move ratings?")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)
    cancelled_because = models.CharField(max_length=200, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.CANCELLED}


class Entry(models.Model):
    """A place in the tournament: a person who registered, or a bot filling a place.

    ``user`` is the bot's account for a bot entry; one bot account may fill several
    places, told apart by ``bot_number``."""

    class Out(models.TextChoices):
        WITHDREW = "withdrew", "Withdrew"
        FORFEITED = "forfeited", "Forfeited on time"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    bot_number = models.PositiveSmallIntegerField(null=True, blank=True)
    display_name = models.CharField(max_length=60)
    registered_at = models.DateTimeField(auto_now_add=True)
    # 1 is the best seed; set when the tournament starts.
    seed = models.PositiveIntegerField(null=True, blank=True)
    # Before the start: the entry no longer counts. After it: out of the rest.
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    out = models.CharField(max_length=10, choices=Out.choices, blank=True, default="")
    out_in_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(bot_number__isnull=True),
                name="one_entry_per_person",
            ),
            models.UniqueConstraint(
                fields=["tournament", "bot_number"],
                condition=Q(bot_number__isnull=False),
                name="one_entry_per_bot_place",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    byes = models.JSONField(default=list, blank=True)  # entry ids sitting this round out with a bye
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="tournament_table")
    entries = models.JSONField()  # entry ids in seat order
    # {entry id (as text): place}, written when the match is over.
    places = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"

    def place_of(self, entry_id: int) -> int | None:
        places: dict[str, Any] = self.places or {}
        value = places.get(str(entry_id))
        return int(value) if value is not None else None
