"""Celery task of reviews: thin, it calls one service (which queues the next chunk)."""

from __future__ import annotations

from celery import shared_task

from games.review import services


@shared_task(name=services.REVIEW_TASK)
def review_work(review_id: int, attempt: int) -> str:
    return services.review_advance(review_id=review_id, attempt=attempt)
