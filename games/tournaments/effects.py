"""The tournaments' side effects, all after commit (through the core's ``after_commit``):
the live page's doorbell, and the "your table is ready" emails of a new round."""

from __future__ import annotations

from celery import current_app

from games.effects import after_commit
from games.live import broadcast

# By name: effects must not import the tasks, whose bodies call the services.
ROUND_SEATED_TASK = "games.tournaments.tasks.round_seated"


def group_name(tournament_id: int) -> str:
    """The channel group of a tournament's page sockets."""
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """A table finished, a round was seated, someone registered or left, or the status
    changed: ring the tournament page's sockets, which fetch the page again."""
    after_commit(_ring, tournament_id)


def round_seated(round_id: int) -> None:
    """A round's tables exist: tell their people (through their email preferences)."""
    after_commit(_queue_round_emails, round_id)


def _ring(tournament_id: int) -> None:
    broadcast.ring(group_name(tournament_id), "tournament.changed")


def _queue_round_emails(round_id: int) -> None:
    current_app.send_task(ROUND_SEATED_TASK, args=[round_id])
