"""Celery task of ratings: thin, it calls one service.

``match_finished`` is told by the core when a match finishes (``settings.MATCH_FINISHED_TASKS``),
at least once; ``services.match_rate`` makes it count once (docs/site.md, "Ratings").
"""

from __future__ import annotations

from celery import shared_task

from games.ratings import services


@shared_task(name=services.MATCH_FINISHED_TASK)
def match_finished(match_id: int) -> str:
    return services.match_rate(match_id=match_id)
