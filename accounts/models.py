"""The site's user: people and the bot accounts that play beside them."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from functools import cache

from django.contrib.auth.models import AbstractUser
from django.db import models

BOT_LEVELS = ("random", "basic", "expert")

BOT_DESCRIPTIONS = {
    "random": "Plays a legal move picked at random. Good for learning the rules.",
    "basic": "Follows sensible rules of thumb for each game.",
    "expert": "Searches many possible futures before every move, from what its seat can see.",
}


def default_vacation_days() -> int:
    """A new player's vacation bank: the site's days per year (VACATION_DAYS_PER_YEAR)."""
    from django.conf import settings

    return int(settings.VACATION_DAYS_PER_YEAR)


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="The name other players see. Your username if left empty."
    )
    time_zone = models.CharField(max_length=64, default="UTC", choices=time_zone_choices)
    is_bot = models.BooleanField(default=False, help_text="Bots play from Celery workers and never log in.")
    bot_level = models.CharField(
        max_length=10, blank=True, choices=[(level, level.title()) for level in BOT_LEVELS]
    )
    # Vacation: while ``vacation_until`` is ahead, this player's turn clocks are paused
    # (in matches that allow it) and no nudges go out. The bank holds the whole days
    # left this year (``vacation_year``); it is refilled on the first vacation of a year.
    vacation_until = models.DateTimeField(null=True, blank=True, db_index=True)
    vacation_days_left = models.PositiveSmallIntegerField(default=default_vacation_days)
    vacation_year = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(is_bot=False, bot_level="") | models.Q(is_bot=True, bot_level__in=BOT_LEVELS)
                ),
                name="bot_level_only_for_bots",
            )
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def on_vacation(self, now: datetime) -> bool:
        return self.vacation_until is not None and self.vacation_until > now

    @property
    def bot_description(self) -> str:
        return BOT_DESCRIPTIONS.get(self.bot_level, "")


def display_name_of(user: User) -> str:
    """What allauth shows for a user (ACCOUNT_USER_DISPLAY)."""
    return user.public_name


class ApiToken(models.Model):
    """A personal token for the JSON API (docs/api.md). Only its SHA-256 is stored:
    the token itself is shown once, when it is created."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="What the token is for, e.g. 'my bot'.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=8, editable=False, help_text="The token's first characters.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
