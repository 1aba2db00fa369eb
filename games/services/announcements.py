"""The match-finished outbox's writes: a subscriber says it is done (see ``Announcement``)."""

from __future__ import annotations

from django.utils import timezone

from games.models import Announcement


def announcement_delivered(*, match_id: int, task_name: str) -> bool:
    """Mark ``task_name``'s announcement of ``match_id`` delivered; call it at the end of
    the subscriber's task, after its own work committed. True the first time only (a
    resent announcement whose work was already done is told so)."""
    return bool(
        Announcement.objects.filter(match_id=match_id, task_name=task_name, delivered_at__isnull=True).update(
            delivered_at=timezone.now()
        )
    )
