"""Celery tasks of notifications: thin, each calls one service.

``sweep_notices`` runs on the beat every ``CLOCK_SWEEP_SECONDS`` (the pushes, then the emails); ``match_finished`` is
told by the core when a match finishes (``settings.MATCH_FINISHED_TASKS``). Both are
safe to run twice at once and after a killed worker: the notices' unique key decides.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from games.notify import push, services

logger = logging.getLogger(__name__)


@shared_task
def sweep_notices() -> dict[str, int]:
    now = timezone.now()
    # Pushes first: the email sweep clears the moments (nudge, alarm) the push sweep reads.
    counts = push.sweep(now) | services.sweep(now)
    if counts:
        logger.info(
            "notify sweep: %s", ", ".join(f"{what} {count}" for what, count in sorted(counts.items()))
        )
    return counts


@shared_task(name=services.MATCH_FINISHED_TASK)
def match_finished(match_id: int) -> int:
    return services.game_over_notices(match_id=match_id)
