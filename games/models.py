"""Matches and what happens in them. Writes go through ``games.services``, never views.

A match's truth is its ``state`` (the engine's encoded state) and ``ply`` (how many
moves were made). Every move is kept, so a match can be rebuilt from (game, options,
seed, moves). The seed and the state never leave the server: pages, sockets and the
API show views only.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from games import clocks
from games.engine import Game, all_games, get
from games.engine.rng import GENERATORS


def game_choices() -> list[tuple[str, str]]:
    """The games on the site, read from the registry each time: a callable, so that a
    migration records this function rather than today's list, and adding a game
    needs no migration."""
    return [(game.slug, game.name) for game in all_games()]


GENERATOR_CHOICES = [(name, name) for name in GENERATORS]


# Per-turn limits a match can be created with (seconds; None is no limit). The
# clocks that act on them come with the notifications issue; the choice is stored now.
def validate_time_control(seconds: int | None) -> None:
    if not clocks.is_time_control(seconds):
        raise ValidationError("A time control is 5 minutes, 1 hour, or 1 to 14 days per turn.")


class SeedField(models.CharField):
    """A match seed: a whole number of any width (256 bits for new matches), kept as
    its decimal digits in a text column, since a 64-bit integer column cannot hold it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 80)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> int | None:
        return None if value is None else int(value)

    def to_python(self, value: Any) -> int | None:
        return None if value in (None, "") else int(value)

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else str(int(value))


def new_invite_token() -> str:
    """An invitation link's secret: 128 random bits, not guessable like an id."""
    return secrets.token_urlsafe(16)


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        RUNNING = "running", "In play"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public: listed in the lobby, anyone may watch"
        PRIVATE = "private", "Private: only people with the link may join; no spectators"

    game = models.CharField(max_length=40, choices=game_choices)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    # A private match is joined through its invitation link, which carries this token:
    # ids are sequential, so the plain id must show strangers nothing.
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token, editable=False)
    # Secret: with the moves it rebuilds every hidden card. Never shown to anyone.
    seed = SeedField(null=True, blank=True, editable=False)
    # The fair-deal commitment, published when the match starts: SHA-256 of the seed and
    # this salt (games/replays.py). The salt and seed are shown once the match is over,
    # so anyone can check the deal was the one committed to. Empty for older matches.
    # The finished match this one replays with the same game, options and players: one
    # rematch per match (the unique link decides when two players ask at once).
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch", editable=False
    )
    seed_salt = models.CharField(max_length=64, blank=True, default="", editable=False)
    seed_commitment = models.CharField(max_length=64, blank=True, default="", editable=False)
    # Which engine generator the seed starts (games/engine/rng.py): "keyed" for every
    # match since the keyed generator came; "splitmix64" for the matches before it,
    # which finish on the generator they started with.
    generator = models.CharField(max_length=12, choices=GENERATOR_CHOICES, default="keyed", editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)
    ply = models.PositiveIntegerField(default=0)
    # Seconds per turn, or none (games/clocks.py: the presets, or 1 to 14 whole days).
    turn_limit = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[validate_time_control],
        help_text="Seconds per turn; empty for no limit.",
    )
    # Turns in a row a player may lose on time before they forfeit (timeouts play the
    # autopilot for them), and whether their vacation pauses this match's clocks (a
    # tournament may forbid it).
    timeouts_to_forfeit = models.PositiveSmallIntegerField(default=3)
    vacation_allowed = models.BooleanField(default=True)
    # False keeps the match off the ratings whatever its result (an unrated tournament's
    # tables); True leaves it to the ratings' rule (competitive, two accounts, ...).
    rated = models.BooleanField(default=True, help_text="May this match move ratings?")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the recovery sweep last queued this match's waiting bot turn again (its task
    # died with a worker, or waits behind a backlog): a turn is queued again only once
    # it has waited BOT_TURN_STALE_SECONDS since the later of this and ``updated_at``
    # (games/tasks.py), so a backlog gets one copy of a turn per interval, not one a sweep.
    bot_requeued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The engine's result ({"scores", "ranks", "won"?}) or, for a match ended by
    # resignations, {"ranks", "resigned"}. Null until the match is over.
    result = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["status", "visibility"])]

    def __str__(self) -> str:
        return f"{self.game_name} #{self.pk}"

    @property
    def engine(self) -> Game[Any]:
        return get(self.game)

    def decoded_state(self) -> Any:
        """The engine's state (server side only: never shown, never sent)."""
        if self.state is None:
            raise ValueError(f"{self} has not started: it has no state yet")
        return self.engine.decode(self.state)

    @property
    def time_control(self) -> str:
        """The time control in words: "No time limit", "1 hour per turn", "7 days per turn"."""
        return clocks.describe(self.turn_limit)

    @property
    def game_name(self) -> str:
        return str(self.engine.name)

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC

    @property
    def is_challenge(self) -> bool:
        """A challenge waiting for its answer: a private match of two seats, its creator
        seated in one, the other an invitation to one person. It is known by this shape,
        with no column of its own: a challenge from a profile (``games/social``) is made
        so, and the lobby's "me and one invited player, private" is the same thing. The
        invitation's email and rows say "challenges you". Reads the seats (prefetched
        by the lists that ask)."""
        if self.visibility != self.Visibility.PRIVATE or self.status != self.Status.OPEN:
            return False
        seats = list(self.seats.all())
        return (
            len(seats) == 2
            and any(seat.user_id == self.created_by_id and seat.joined_at is not None for seat in seats)
            and any(
                seat.user_id not in (None, self.created_by_id) and seat.joined_at is None for seat in seats
            )
        )

    def invite_matches(self, invite: object) -> bool:
        """``invite`` is this match's invitation token (compared in constant time)."""
        return isinstance(invite, str) and hmac.compare_digest(invite.encode(), self.invite_token.encode())


class ResignReason(models.TextChoices):
    RESIGNED = "resigned", "Resigned"
    TIMED_OUT = "timed_out", "Forfeited on time"


class Seat(models.Model):
    """One place at the table. ``user`` is empty while the seat is open.

    An invited person's seat holds their user with ``joined_at`` empty until they
    accept; bots join at once. ``resigned_at`` marks a player who is out of the game,
    for ``resigned_reason``: the autopilot plays the seat from then on and it is
    ranked last. ``display_name``
    is the player's name when the match started (see ``public_name``).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    joined_at = models.DateTimeField(null=True, blank=True)
    # Fixed when the match starts, so renaming mid-game changes nothing at the table
    # (It's a Bomb!'s silenced Crisis Unit could otherwise hint through its name).
    # As long as a username, which is the name shown when there is no display name.
    display_name = models.CharField(max_length=150, blank=True, editable=False)
    resigned_at = models.DateTimeField(null=True, blank=True)
    # Why the seat is out: the player resigned (clocks will add timed_out, tournaments
    # no_show). Empty while the player plays on.
    resigned_reason = models.CharField(max_length=12, choices=ResignReason.choices, blank=True, default="")
    # Denormalised from the engine after every move, so dashboards and the bot
    # sweep can query "who owes a decision" without decoding states.
    owes_decision = models.BooleanField(default=False)
    # The ply at which the decision this seat owes opened, and a fingerprint of its
    # legal actions then: a move made on any board since is still good, although other
    # seats may have chosen meanwhile (games/services/decisions.py). Empty when the seat
    # owes nothing.
    decision_ply = models.PositiveIntegerField(null=True, blank=True, editable=False)
    decision_digest = models.CharField(max_length=16, blank=True, default="", editable=False)
    # The turn clock of a person's pending decision (games/clocks.py): when the autopilot
    # plays for them, when the "about to lose on time" email and the "your turn" email
    # fall due. Indexed: sweeps find what is due by range, and clear what they did.
    # Empty when nothing is owed, for bots, and while the player is on vacation, when
    # ``clock_left`` keeps what was left of the turn instead.
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    alarm_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    nudge_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    clock_left = models.DurationField(null=True, blank=True, editable=False)
    # Turns in a row the autopilot played because the clock ran out; a move of the
    # player's own starts it again from zero. At the match's limit, the player forfeits.
    timeouts = models.PositiveSmallIntegerField(default=0, editable=False)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="one_seat_per_index")]
        indexes = [
            models.Index(fields=["user", "owes_decision"]),
            # The recovery sweep's autopilot seats that owe a decision (games/selectors.py:
            # bot_turns_waiting_since): a handful, found without reading every seat.
            models.Index(
                fields=["match"],
                condition=models.Q(owes_decision=True, resigned_at__isnull=False),
                name="seat_autopilot_owes",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.index + 1}"

    @property
    def public_name(self) -> str:
        """The name this seat is shown by: fixed once the match starts, the player's current one before."""
        if self.display_name:
            return self.display_name
        if self.user is not None:
            return self.user.public_name
        return f"Open seat {self.index + 1}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None

    @property
    def is_invitation(self) -> bool:
        return self.user_id is not None and self.joined_at is None

    @property
    def played_by_bot(self) -> bool:
        """A bot account, or the autopilot for a player who resigned."""
        return self.resigned_at is not None or (self.user is not None and self.user.is_bot)


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(help_text="The match's ply when this move was made (0 for the first).")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # Who sent it: the seat's player, a bot account, or nobody (the autopilot).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # The client's id for this action: a resent action returns the first answer.
    action_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ply"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="one_move_per_ply"),
            models.UniqueConstraint(
                fields=["match", "action_id"],
                condition=models.Q(action_id__isnull=False),
                name="one_move_per_action_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} ply {self.ply}"


class ChatMessage(models.Model):
    MAX_LENGTH = 500

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    # The writer's seat name when they wrote (``Seat.public_name``): a later rename changes nothing.
    author_name = models.CharField(max_length=150, blank=True, editable=False)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Announcement(models.Model):
    """ "This match finished", owed to one subscriber task (``settings.MATCH_FINISHED_TASKS``).

    A transactional outbox: the row is written in the transaction that finishes the
    match, so the announcement cannot be lost between the commit and the broker (a
    process that dies there, a broker that is down). ``games/effects.py`` sends it after
    the commit; the subscriber marks it delivered when its work is done
    (``services.announcement_delivered``), and the ``resend_announcements`` sweep sends
    again what is still undelivered. Delivery is at least once: each subscriber makes
    its own work exactly-once with a unique constraint of its own.

    Not forever: after ``ANNOUNCEMENT_MAX_ATTEMPTS`` sends the sweep gives the row up
    (``gave_up_at``, logged, shown in the admin, which may send it again), and a delivered
    row is deleted ``ANNOUNCEMENT_RETENTION_DAYS`` after its delivery.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="announcements")
    task_name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)  # the last time it went to the broker
    attempts = models.PositiveIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # When the sweep stopped sending it, undelivered after ANNOUNCEMENT_MAX_ATTEMPTS sends:
    # a subscriber that fails every time must not be sent a copy every two minutes forever.
    gave_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "task_name"], name="one_announcement_per_subscriber")
        ]
        # The sweep's question, "what is still owed?", reads only undelivered rows.
        indexes = [
            models.Index(
                fields=["created_at"], condition=models.Q(delivered_at__isnull=True), name="announcement_owed"
            )
        ]

    def __str__(self) -> str:
        return f"{self.match} finished → {self.task_name}"
