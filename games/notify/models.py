"""What was decided about each email, one row per (person, match, turn, kind).

A ``Notice`` is written, with the unique key below, **before** its email is sent. It
is the whole of exactly-once: two sweeps that find the same due turn both try to write
the row, one succeeds and sends, the other is refused by the constraint and sends
nothing (on SQLite too, where row locks do nothing). A worker killed after writing the
row and before the mail left leaves the row ``claimed``; the sweep takes such a row
over after ``RETRY_AFTER`` (games/notify/services.py) and sends it then, so nothing
is lost, and nothing is sent twice unless the process dies in the instant between the
mail server's "accepted" and the row's ``sent``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notice(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        ALARM = "alarm", "About to lose on time"
        INVITATION = "invitation", "Invitation"
        GAME_OVER = "game_over", "Match over"
        DIGEST = "digest", "Daily digest"
        # Asked for by a feature (a tournament's new round), not found by the sweep:
        # its sender names the seat, and ``about`` says what it is for.
        TABLE = "table", "Tournament table ready"
        # Asked for by a feature about an event a person entered (a tournament): that it
        # started (with their first table) and that it is over. About no one match: the
        # feature names the event (``event``) and composes the email (``message``).
        STARTED = "started", "Tournament started"
        ENDED = "ended", "Tournament over"

    class Status(models.TextChoices):
        CLAIMED = "claimed", "Claimed, not sent yet"
        SENT = "sent", "Sent"
        DROPPED = "dropped", "Not sent (see note)"
        FAILED = "failed", "Failed (gave up)"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Empty for the digest, which is about no one match.
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE)
    # The turn: the seat's ``decision_ply`` (turn, alarm), the final ply (game over),
    # 0 (invitation, digest, table). A new turn is a new decision_ply, so it gets its own nudge.
    ply = models.PositiveIntegerField(default=0)
    # The digest's day, in the player's time zone: one digest per local day.
    day = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CLAIMED)
    note = models.CharField(max_length=200, blank=True)
    # What the feature that asked for the email said it is about ("round 2 of Autumn
    # Cup"), kept with the claim so that a retry sends the same email. Notify cannot
    # look it up: it imports no feature.
    about = models.CharField(max_length=200, blank=True)
    # The feature's name for the event a ``started`` or ``ended`` notice is about
    # ("tournament 12"): the key that makes each once per person. Empty for other kinds.
    event = models.CharField(max_length=100, blank=True)
    # The email a feature composed for a ``started`` or ``ended`` notice (its subject,
    # paragraphs and links: ``emails.EventNews``), kept with the claim so that a retry
    # sends the same email.
    message = models.JSONField(default=dict, blank=True)
    claimed_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=1)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match", "ply", "kind"],
                condition=models.Q(match__isnull=False),
                name="one_notice_per_turn_and_kind",
            ),
            models.UniqueConstraint(
                fields=["user", "day"], condition=models.Q(kind="digest"), name="one_digest_per_local_day"
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "event"],
                condition=models.Q(kind__in=["started", "ended"]),
                name="one_notice_per_event_and_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="digest", match__isnull=True, day__isnull=False)
                | models.Q(kind__in=["started", "ended"], match__isnull=True, day__isnull=True, event__gt="")
                | (
                    ~models.Q(kind__in=["digest", "started", "ended"])
                    & models.Q(match__isnull=False, day__isnull=True)
                ),
                name="notice_names_a_match_a_day_or_an_event",
            ),
        ]
        # The retry's question, "what was claimed and never sent?", reads only those rows.
        indexes = [
            models.Index(
                fields=["claimed_at"], condition=models.Q(status="claimed"), name="notice_claimed_unsent"
            )
        ]

    def __str__(self) -> str:
        about = f"match {self.match_id} ply {self.ply}" if self.match_id else self.event or str(self.day)
        return f"{self.get_kind_display()} to {self.user_id}, {about}: {self.status}"


# -- Web Push: notifications on a device (games/notify/push.py) ---------------------


class PushSubscription(models.Model):
    """One browser on one device that turned notifications on: where its push service
    takes pushes for it (``endpoint``) and the keys the payload is encrypted with (RFC
    8291). Deleted when its push service says it is gone (404 or 410), when its person
    turns it off, or when the same browser subscribes again for another person."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=50)  # the 16-byte authentication secret, base64url
    # The browser's own words for itself, cut short: "which device is this?" on the account page.
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    last_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push to {self.user_id} via {self.endpoint[:40]}…"


class PushChoices(models.Model):
    """Which pushes a person wants, whichever device: no row is every kind (the default)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="push_choices"
    )
    turn = models.BooleanField(default=True)  # your turn, and about to lose on time
    invitation = models.BooleanField(default=True)  # invitations and challenges
    table = models.BooleanField(default=True)  # a tournament table is ready

    def __str__(self) -> str:
        return f"push choices of {self.user_id}"


class PushNotice(models.Model):
    """What was decided about one push, one row per (person, match, turn, kind), written
    **before** the push is sent: the whole of exactly-once, as ``Notice`` is for emails.
    One push goes to every device of the person; the words are composed at the claim
    (``message``) so a retry sends the same ones."""

    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        ALARM = "alarm", "About to lose on time"
        INVITATION = "invitation", "Invitation or challenge"
        TABLE = "table", "Tournament table ready"

    Status = Notice.Status

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_notices")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE)
    # The seat's ``decision_ply`` (turn, alarm): a new turn is a new push; 0 otherwise.
    ply = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CLAIMED)
    note = models.CharField(max_length=200, blank=True)
    # The notification as sent: title, body, url (a path on this site), tag.
    message = models.JSONField(default=dict)
    claimed_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=1)
    sent_at = models.DateTimeField(null=True, blank=True)
    # How many devices' push services took it.
    devices = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match", "ply", "kind"], name="one_push_per_turn_and_kind"
            )
        ]
        # The retry's question, "what was claimed and never sent?", reads only those rows.
        indexes = [
            models.Index(
                fields=["claimed_at"], condition=models.Q(status="claimed"), name="push_claimed_unsent"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} push to {self.user_id}, match {self.match_id} ply {self.ply}: {self.status}"
