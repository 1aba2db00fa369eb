"""The one place that schedules work for after a transaction commits.

Services decide what happened and call one function here; this module turns it
into after-commit work: telling the match's sockets (a move's boards, or a doorbell)
and each person at the table (their badge of matches waiting for them), a bot's
turn, the chat doorbell, a move's count for /metrics, and the **match-finished
announcement**.

The sockets are the live part's (``games/live/``), which the core does not import: it
hears ``MATCH_CHANGED`` and ``CHAT_POSTED``, sent here after the commit, through
receivers it connects when the app is ready (``games/apps.py``). Nothing is
announced that did not happen (every callback waits for the commit), and nothing
here can undo a write: each callback is guarded, so a failure (Redis down, the
broker unreachable) is logged and the rest still run. Sockets refetch when they
reconnect, and a bot turn that could not be queued is queued again by the sweep
(games/tasks.py).

Features hear that a match finished by Celery task name, listed in
``settings.MATCH_FINISHED_TASKS`` (ratings and tournaments add theirs there): the
core imports none of them. The transaction that finishes a match writes one
``Announcement`` row per subscriber (an outbox), and the task is sent the match id
after the commit; a subscriber marks its row delivered when its work is done, and
``resend_announcements`` (games/tasks.py) sends again what stays undelivered. So an
announcement survives a broker outage or a process that dies after the commit:
delivery is at least once, and each subscriber is exactly-once by a unique
constraint of its own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import User
from boomsite import metrics
from games.models import Announcement, Match, Seat
from games.selectors import PLAYED_BY_BOT, people_at

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Played:
    """A move as its service stored it, for drawing its boards after the commit without
    reading the match again: the match row as saved, its seats with their users, and
    the new state, decoded (states are immutable)."""

    match: Match
    seats: list[Seat]
    state: Any

    def __repr__(self) -> str:  # logged when a callback fails: not the whole state
        return f"Played(match={self.match.pk}, ply={self.match.ply})"


# Sent once a change to a match committed, with ``match_id``, ``ply``, ``people`` (the
# user ids whose badges count again), ``committed_at`` (``time.time()``) and ``played``
# (a ``Played`` for a move, whose boards its receiver draws from it; None for any other
# change, after which every socket reads the match again).
MATCH_CHANGED = Signal()
# Sent once a chat message committed, with ``match_id`` and ``message_id``.
CHAT_POSTED = Signal()


def after_commit(callback: Callable[..., None], *arguments: Any) -> None:
    """Run ``callback(*arguments)`` once the transaction has committed; log a failure
    and go on (what was written stands, and is answered as written)."""

    def run() -> None:
        try:
            callback(*arguments)
        except Exception:
            logger.exception("after commit: %s%r failed; the write stands", callback.__name__, arguments)

    # Our own guard rather than on_commit(robust=True): Django's robust handler logs
    # the callback's __qualname__, which a functools.partial lacks, so it raised
    # instead (a stored move answered 500) and skipped the callbacks after it.
    transaction.on_commit(run)


def match_changed(
    match: Match, *, seats: list[Seat] | None = None, left: User | None = None, state: Any = None
) -> None:
    """Tell the match's sockets and each of its people's; queue a bot's turn if one is
    owed now; have the clocks looked at at once if one has run out already.

    Whether a bot owes a turn is decided here, inside the transaction, from ``seats``
    when the caller has them (with their users), or from one query otherwise. ``left``:
    a person who is no longer at the table (they declined), whose badge counts again too.
    ``state``: a move's new state, decoded, with every seat in ``seats``: its boards are
    drawn from them after the commit. Without it the sockets read the match again."""
    # Any change may add or take away a match waiting for someone at the table (a move,
    # a start, an invitation, the end): each person's badge counts again, rung with the
    # match's doorbell. Who they are is read here, in the transaction (from ``seats``
    # when the caller has them): nothing after the commit asks the database what it
    # could know before.
    if seats is None:
        people = people_at(match.pk)
    else:
        people = [seat.user.pk for seat in seats if seat.user is not None and not seat.user.is_bot]
    if left is not None:
        people.append(left.pk)
    played = Played(match, seats, state) if state is not None and seats is not None else None
    after_commit(_ring, match.pk, match.ply, people, played)
    if seats is not None and _a_clock_ran_out(seats):
        # A move made the work due now (a clock resumed with no time left, a turn kept
        # past its deadline in a phase of simultaneous choices): do not wait for the sweep.
        after_commit(_check_clocks)
    if match.status == Match.Status.RUNNING and _bot_owes_a_turn(match, seats):
        after_commit(_queue_bot_turn, match.pk, match.ply)


def move_played(match: Match) -> None:
    """Count the move for /metrics once it is committed: a move rolled back is none."""
    after_commit(metrics.count_move, match.game)


def chat_posted(*, match_id: int, message_id: int) -> None:
    after_commit(_ring_for_chat, match_id, message_id)


def match_finished(match: Match) -> None:
    """Announce that ``match`` finished to every subscriber task: the outbox rows now,
    in the finishing transaction; the tasks after its commit."""
    names = list(settings.MATCH_FINISHED_TASKS)
    Announcement.objects.bulk_create([Announcement(match=match, task_name=name) for name in names])
    for name in names:
        after_commit(_send_announcement, name, match.pk)


def bot_turn_again(match_id: int, ply: int) -> None:
    """Queue a waiting bot turn once more (the recovery sweep's: its task was lost)."""
    after_commit(_queue_bot_turn, match_id, ply)


def announce_again(announcement: Announcement) -> None:
    """Send an undelivered announcement once more (the sweep's resend)."""
    after_commit(_send_announcement, announcement.task_name, announcement.match_id)


def _a_clock_ran_out(seats: list[Seat]) -> bool:
    now = timezone.now()
    return any(seat.deadline_at is not None and seat.deadline_at <= now for seat in seats)


def _check_clocks() -> None:
    current_app.send_task(CLOCK_SWEEP_TASK)


def _bot_owes_a_turn(match: Match, seats: list[Seat] | None) -> bool:
    if seats is None:
        return Seat.objects.filter(PLAYED_BY_BOT, match=match, owes_decision=True).exists()
    return any(seat.owes_decision and seat.played_by_bot for seat in seats)


def _ring(match_id: int, ply: int, people: list[int], played: Played | None) -> None:
    # The time of the commit, as near as after-commit work knows it: each socket that
    # sends its board for this change measures the push from it (boomsite/metrics.py).
    MATCH_CHANGED.send(
        sender=Match, match_id=match_id, ply=ply, people=people, committed_at=time.time(), played=played
    )


def _ring_for_chat(match_id: int, message_id: int) -> None:
    CHAT_POSTED.send(sender=Match, match_id=match_id, message_id=message_id)


# By name, as the match-finished subscribers are: effects must not import the tasks,
# whose bodies call the services that call effects (lint-imports keeps games acyclic).
# Sent through ``celery.current_app``: the app boomsite/celery.py configures (every
# process imports it, boomsite/__init__.py), without the core importing the composition root.
BOT_PLAY_TASK = "games.tasks.bot_play"
CLOCK_SWEEP_TASK = "games.tasks.sweep_clocks"


def _queue_bot_turn(match_id: int, ply: int) -> None:
    current_app.send_task(BOT_PLAY_TASK, args=[match_id, ply])


def _send_announcement(task_name: str, match_id: int) -> None:
    current_app.send_task(task_name, args=[match_id])
    # Counted once it reached the broker: the sweep waits from the last send.
    Announcement.objects.filter(match_id=match_id, task_name=task_name).update(
        sent_at=timezone.now(), attempts=F("attempts") + 1
    )
