"""Celery tasks: thin wrappers that take ids, and call one service inside the task.

A bot task is queued (after commit, games/effects.py) for a (match, ply). It is
idempotent: if the match has moved past that ply, or no bot seat owes a decision
there, the service does nothing; if two copies race, the service's ply check lets
exactly one move in. Tasks are acknowledged late and rejected when their pool process
dies (settings), so the broker hands such a task out again at once. A task whose whole
worker died stays unacknowledged in Redis for the visibility timeout (an hour), so the
two recovery sweeps find that work from the database instead, every
``RECOVERY_SWEEP_SECONDS``: ``sweep_bot_turns`` queues again a bot turn left waiting,
``resend_announcements`` an undelivered announcement (settings: why not a short
visibility timeout). A lost task delays a bot or a feature by seconds, never stalls a match.

The services are imported inside the tasks, and games/effects.py queues ``bot_play``
by its name: nothing that the services import imports this module, so games/ has no
import cycle (lint-imports checks it).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)


@shared_task
def bot_play(match_id: int, ply: int) -> bool:
    from games.services import bot_play_turn

    return bot_play_turn(match_id=match_id, ply=ply)


# What one recovery sweep sends at most, of each kind. A dead worker leaves no more
# tasks than it had pool processes (each holds one: prefetch multiplier 1), so more
# than that waiting is a backlog or a broker outage, where every copy sent is one more
# message in the queue; at this bound the copies cost the workers a few queries a
# second, and 1,200 lost tasks a minute are sent again after an outage.
RECOVERY_LIMIT = 100


@shared_task
def sweep_bot_turns() -> int:
    """Queue again every bot turn that has waited too long since it was queued (its
    task was lost: a dead worker, a broker outage; or it waits behind a backlog)."""
    from games.services import bot_turns_queue_again

    count = bot_turns_queue_again(
        now=timezone.now(), waited_seconds=settings.BOT_TURN_STALE_SECONDS, limit=RECOVERY_LIMIT
    )
    if count:
        logger.info("re-queued %d waiting bot turn(s)", count)
    return count


@shared_task
def resend_announcements() -> int:
    """Send again every match-finished announcement still undelivered a while after its
    last send (a worker died with it, the broker was down, a process died after the
    commit, a subscriber failed or is still at work); give up, with a warning, on one
    whose last send was its ``ANNOUNCEMENT_MAX_ATTEMPTS``-th and still is not delivered
    (the admin shows it and can send it again). Returns how many were sent."""
    from games.effects import announce_again
    from games.selectors import announcements_owed
    from games.services import announcement_give_up

    now = timezone.now()
    owed = announcements_owed(
        now,
        first_retry=settings.ANNOUNCEMENT_RETRY_SECONDS,
        longest_retry=settings.ANNOUNCEMENT_RETRY_MAX_SECONDS,
        limit=RECOVERY_LIMIT,
    )
    sent = 0
    for announcement in owed:
        # Judged once its last copy had its wait to be delivered, as a send would be: in
        # the same one query, so a sweep with nothing to do stays one query.
        if announcement.attempts >= settings.ANNOUNCEMENT_MAX_ATTEMPTS:
            if announcement_give_up(announcement_id=announcement.pk, now=now):
                logger.warning(
                    "gave up the match-finished announcement of match %s to %s after %d attempts",
                    announcement.match_id,
                    announcement.task_name,
                    announcement.attempts,
                )
            continue
        announce_again(announcement)
        sent += 1
    if sent:
        logger.warning("sent %d match-finished announcement(s) again", sent)
    return sent


@shared_task
def prune_announcements() -> int:
    """Delete the announcements delivered more than ``ANNOUNCEMENT_RETENTION_DAYS`` ago
    (beat, hourly); the undelivered stay. Returns how many were deleted."""
    from games.services import announcements_prune

    cutoff = timezone.now() - timedelta(days=settings.ANNOUNCEMENT_RETENTION_DAYS)
    deleted = announcements_prune(delivered_before=cutoff)
    if deleted:
        logger.info("pruned %d delivered match-finished announcement(s)", deleted)
    return deleted


# Due clocks read per query: the due set is read by its index a batch at a time.
BATCH = 200


@shared_task
def sweep_clocks() -> dict[str, int]:
    """Act on every turn clock that ran out (the autopilot plays, or a forfeit) and end
    every vacation that ran out (its paused clocks run again). Each is done under the
    match's row lock and only if still due, so two sweeps at once do it once."""
    from accounts.models import User
    from games.services.clocks import deadlines_due, seat_time_out, vacation_end, vacations_ended

    now = timezone.now()
    ended = 0
    for user_id in vacations_ended(now):
        vacation_end(user=User.objects.get(pk=user_id))
        ended += 1
    timed_out, failed = 0, set[tuple[int, int]]()
    # In batches, until nothing due is left or the next sweep is due (it goes on).
    budget_ends = time.monotonic() + settings.CLOCK_SWEEP_SECONDS
    while time.monotonic() < budget_ends:
        due = [item for item in deadlines_due(now, limit=BATCH + len(failed)) if item[:2] not in failed]
        for match_id, seat_index, deadline in due[:BATCH]:
            try:
                timed_out += seat_time_out(match_id=match_id, seat_index=seat_index, deadline=deadline)
            except Exception:
                # One broken match must not stop the others' clocks: logged, tried next sweep.
                logger.exception("clock of match %s seat %s: time-out failed", match_id, seat_index)
                failed.add((match_id, seat_index))
        if len(due) < BATCH:
            break
    return {"timed_out": timed_out, "vacations_ended": ended}
