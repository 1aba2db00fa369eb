"""The site's user: people and the bot accounts that play beside them."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta
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


class Notify(models.TextChoices):
    """How a player wants one kind of email (games/notify, docs/site.md "Notifications")."""

    EACH = "each", "Every time"
    DIGEST = "digest", "In my daily digest"
    OFF = "off", "Off"


# The preference of each kind a player chooses, by the name the unsubscribe links use.
# The "about to lose on time" alarm follows ``turn``. Game over has no digest: a result
# is news once, and the digest lists what waits for the player, which a result does not.
NOTIFY_FIELDS = {"turn": "notify_turn", "invitation": "notify_invitation", "game_over": "notify_game_over"}
DEFAULT_DIGEST_HOUR = 8


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """UTC and the places ("Europe/Paris"): not the system's "localtime", "Factory" or
    "posixrules", nor the "Etc/GMT+5" kind, whose sign runs backwards."""
    places = (
        name
        for name in zoneinfo.available_timezones()
        if "/" in name and not name.startswith(("Etc/", "posix/", "right/", "SystemV/"))
    )
    return [("UTC", "UTC")] + [(name, name.replace("_", " ")) for name in sorted(places)]


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
    # Email notifications (games/notify): per kind, every time, in the daily digest, or
    # off. The digest goes at ``digest_hour`` o'clock in the player's time zone;
    # ``next_digest_at`` is that moment, kept by the services whenever a preference, the
    # hour or the zone changes and after each digest, and indexed, so the sweep finds who
    # is due without reading every user. Empty when no kind is set to the digest.
    notify_turn = models.CharField(max_length=6, choices=Notify.choices, default=Notify.EACH)
    notify_invitation = models.CharField(max_length=6, choices=Notify.choices, default=Notify.EACH)
    notify_game_over = models.CharField(
        max_length=6,
        choices=[(Notify.EACH, Notify.EACH.label), (Notify.OFF, Notify.OFF.label)],
        default=Notify.EACH,
    )
    digest_hour = models.PositiveSmallIntegerField(
        default=DEFAULT_DIGEST_HOUR, choices=[(hour, f"{hour:02d}:00") for hour in range(24)]
    )
    next_digest_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    # A bot account for a program (docs/api.md, "Bot accounts"): a person's account that
    # its owner marked, once and for good, as played by their program through the API.
    # Not ``is_bot``, which is the house bots' (played by Celery, never signed in): this
    # one signs in, holds tokens and is played by its owner's program, never by us.
    bot_account_since = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(is_bot=False, bot_level="") | models.Q(is_bot=True, bot_level__in=BOT_LEVELS)
                ),
                name="bot_level_only_for_bots",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    notify_turn__in=Notify.values,
                    notify_invitation__in=Notify.values,
                    notify_game_over__in=[Notify.EACH, Notify.OFF],
                    digest_hour__lte=23,
                ),
                name="notification_preferences_valid",
            ),
        ]
        # The bot accounts, a handful among every person's: read every few seconds by
        # the bots' recovery sweep, found here without reading every account.
        indexes = [models.Index(fields=["id"], condition=models.Q(is_bot=True), name="user_bots")]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    @property
    def is_program_bot(self) -> bool:
        """A bot account for a program: it plays through the API only, unrated."""
        return self.bot_account_since is not None

    @property
    def labelled_bot(self) -> bool:
        """Shown as a bot wherever its name shows: a house bot or a program's."""
        return self.is_bot or self.is_program_bot

    def on_vacation(self, now: datetime) -> bool:
        return self.vacation_until is not None and self.vacation_until > now

    def vacation_days_available(self, now: datetime) -> int:
        """The bank as the next vacation will find it: a new year refills it
        (games/services/clocks.py does the refill when the vacation begins)."""
        from django.conf import settings

        if self.vacation_year != now.year:
            return int(settings.VACATION_DAYS_PER_YEAR)
        return self.vacation_days_left

    def notify_preference(self, name: str) -> str:
        """The player's choice for ``name``, one of ``NOTIFY_FIELDS``: a ``Notify`` value."""
        return str(getattr(self, NOTIFY_FIELDS[name]))

    @property
    def wants_digest(self) -> bool:
        return Notify.DIGEST in (self.notify_turn, self.notify_invitation)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The player's time zone (UTC if the stored name is unknown to this machine)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    def next_digest_after(self, now: datetime) -> datetime | None:
        """The first ``digest_hour`` o'clock in the player's time zone after ``now``, or
        None when no kind is set to the digest. Compared in UTC: two datetimes of one zone
        compare by wall time, which a change of daylight saving time makes wrong."""
        if not self.wants_digest:
            return None
        zone = self.zone
        today = now.astimezone(zone).date()
        moment = datetime.combine(today, time(self.digest_hour), tzinfo=zone).astimezone(UTC)
        if moment <= now:
            tomorrow = today + timedelta(days=1)
            moment = datetime.combine(tomorrow, time(self.digest_hour), tzinfo=zone).astimezone(UTC)
        return moment

    @property
    def bot_description(self) -> str:
        return BOT_DESCRIPTIONS.get(self.bot_level, "")


def display_name_of(user: User) -> str:
    """What allauth shows for a user (ACCOUNT_USER_DISPLAY)."""
    return user.public_name


class ApiScope(models.TextChoices):
    """What a token may do (docs/api.md, "Scopes"). Each endpoint names the one it needs."""

    PLAY = "play", "Play: create, join and leave matches, move, resign, chat, challenge"
    READ = "read", "Read: your matches, their views, your history, your challenges, the games"
    EXPORT = "export", "Export: download finished matches with their seeds and every move"


# **Decision**: a token made without a choice, and every token made before scopes
# existed, may play and read: what a token could do then, so no program breaks. Export
# is asked for: it hands over every private match of the account in one download.
DEFAULT_API_SCOPES = (ApiScope.PLAY.value, ApiScope.READ.value)


class ApiToken(models.Model):
    """A personal token for the JSON API (docs/api.md). Only its SHA-256 is stored:
    the token itself is shown once, when it is created. Its scopes are chosen then and
    kept as their names, space-separated and sorted ("play read"), as OAuth writes them."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="What the token is for, e.g. 'my bot'.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=8, editable=False, help_text="The token's first characters.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    scopes = models.CharField(max_length=60, default=" ".join(sorted(DEFAULT_API_SCOPES)))

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def scope_names(self) -> list[str]:
        return self.scopes.split()

    def allows(self, scope: str) -> bool:
        return scope in self.scope_names
