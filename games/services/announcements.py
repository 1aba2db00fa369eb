"""The match-finished outbox's writes (see ``Announcement``): a subscriber says it is done;
the sweep gives up on one that never is; an operator sends one again; old delivered
rows are pruned."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import effects
from games.models import Announcement

# Rows deleted per statement when pruning: short statements, so a prune of a month's
# backlog never holds the table long (SQLite has one writer).
PRUNE_BATCH = 1000


def announcement_delivered(*, match_id: int, task_name: str) -> bool:
    """Mark ``task_name``'s announcement of ``match_id`` delivered; call it at the end of
    the subscriber's task, after its own work committed. True the first time only (a
    resent announcement whose work was already done is told so)."""
    return bool(
        Announcement.objects.filter(match_id=match_id, task_name=task_name, delivered_at__isnull=True).update(
            delivered_at=timezone.now()
        )
    )


def announcement_give_up(*, announcement_id: int, now: datetime) -> bool:
    """Stop sending an announcement (the sweep's, after ``ANNOUNCEMENT_MAX_ATTEMPTS``
    sends). True if it was given up now; False if it was delivered meanwhile or given
    up already (one conditional update: two sweeps at once give it up once)."""
    return bool(
        Announcement.objects.filter(
            pk=announcement_id, delivered_at__isnull=True, gave_up_at__isnull=True
        ).update(gave_up_at=now)
    )


def announcements_send_again(*, announcement_ids: Iterable[int]) -> int:
    """An operator's "send again now": each undelivered one of ``announcement_ids`` is sent
    once the transaction commits. One the sweep had given up on is owed again, its count
    of attempts from zero, since whatever stopped it was presumably mended. Returns how
    many were sent (delivered ones are left alone)."""
    with transaction.atomic():
        owed = list(
            Announcement.objects.select_for_update().filter(
                pk__in=list(announcement_ids), delivered_at__isnull=True
            )
        )
        Announcement.objects.filter(pk__in=[row.pk for row in owed if row.gave_up_at is not None]).update(
            gave_up_at=None, attempts=0
        )
        for announcement in owed:
            effects.announce_again(announcement)
    return len(owed)


def announcements_prune(*, delivered_before: datetime) -> int:
    """Delete the announcements delivered before ``delivered_before``, in batches; the
    undelivered (owed or given up) are kept whatever their age. Returns how many went."""
    deleted = 0
    while True:
        batch = list(
            Announcement.objects.filter(delivered_at__lt=delivered_before).values_list("pk", flat=True)[
                :PRUNE_BATCH
            ]
        )
        if not batch:
            return deleted
        deleted += Announcement.objects.filter(pk__in=batch).delete()[0]
