"""Celery tasks of tournaments: thin, each calls one service.

``match_finished`` is told by the core when a match finishes (``settings.MATCH_FINISHED_TASKS``),
at least once; ``sweep`` runs on the beat with the clock sweep's period: it starts the
tournaments whose time has come (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games.tournaments import effects, emails, services


@shared_task(name=services.MATCH_FINISHED_TASK)
def match_finished(match_id: int) -> str:
    return services.match_finished(match_id=match_id)


@shared_task(name="games.tournaments.tasks.sweep")
def sweep() -> dict[str, Any]:
    return services.tournaments_sweep()


@shared_task(name=effects.ROUND_SEATED_TASK)
def round_seated(round_id: int, after_match_ids: list[int] | None = None) -> int:
    return emails.round_seated_emails(round_id=round_id, after_match_ids=after_match_ids)


@shared_task(name=effects.STARTED_TASK)
def tournament_started(tournament_id: int) -> int:
    return emails.tournament_started_emails(tournament_id=tournament_id)


@shared_task(name=effects.ENDED_TASK)
def tournament_ended(tournament_id: int, last_match_ids: list[int]) -> int:
    return emails.tournament_ended_emails(tournament_id=tournament_id, last_match_ids=last_match_ids)


@shared_task(name=effects.TABLES_OVER_TASK)
def tables_over(match_ids: list[int], next_round_id: int | None = None) -> int:
    return emails.tables_over_emails(match_ids=match_ids, next_round_id=next_round_id)
