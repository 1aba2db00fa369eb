"""The tournaments' side effects, all after commit (through the core's ``after_commit``):
the live page's doorbell, and the emails: a new round's "your table is ready", the
tournament's start (with each entrant's first table) and end, and the "match over" of
the tables it tells itself (docs/tournaments.md, "People are told")."""

from __future__ import annotations

from celery import current_app

from games.effects import after_commit
from games.live import broadcast

# By name: effects must not import the tasks, whose bodies call the services.
ROUND_SEATED_TASK = "games.tournaments.tasks.round_seated"
STARTED_TASK = "games.tournaments.tasks.tournament_started"
ENDED_TASK = "games.tournaments.tasks.tournament_ended"
TABLES_OVER_TASK = "games.tournaments.tasks.tables_over"


def group_name(tournament_id: int) -> str:
    """The channel group of a tournament's page sockets."""
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """A table finished, a round was seated, someone registered or left, or the status
    changed: ring the tournament page's sockets, which fetch the page again."""
    after_commit(_ring, tournament_id)


def round_seated(round_id: int, after_match_ids: list[int]) -> None:
    """A round after the first has its tables: tell their people (through their email
    preferences), with how their table among ``after_match_ids`` (recorded in the same
    moment) ended. Round 1 is told by the start's email."""
    after_commit(_queue, ROUND_SEATED_TASK, round_id, after_match_ids)


def tournament_started(tournament_id: int) -> None:
    """Round 1 is seated: tell each person entered, with their first table or their bye."""
    after_commit(_queue, STARTED_TASK, tournament_id)


def tournament_ended(tournament_id: int, last_match_ids: list[int]) -> None:
    """It finished or was cancelled: tell each person entered. ``last_match_ids``: the
    tables whose results ended it, whose "match over" the end's email tells."""
    after_commit(_queue, ENDED_TASK, tournament_id, last_match_ids)


def tables_over(match_ids: list[int], next_round_id: int | None = None) -> None:
    """Tables whose results were recorded and did not end the tournament: their people
    get the usual "match over" email (games/notify leaves the tournament's tables to it),
    but for those seated in ``next_round_id``, seated in the same moment, whose "your
    table is ready" tells it."""
    after_commit(_queue, TABLES_OVER_TASK, match_ids, next_round_id)


def _ring(tournament_id: int) -> None:
    broadcast.ring(group_name(tournament_id), "tournament.changed")


def _queue(task_name: str, *arguments: object) -> None:
    current_app.send_task(task_name, args=list(arguments))
