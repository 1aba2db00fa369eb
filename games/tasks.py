"""Celery tasks: bots take their turns here, from their seat's view only.

A bot task is queued (after commit) for a (match, ply). It is idempotent: if the
match has moved past that ply, or no bot seat owes a decision there, it does
nothing; if two copies race, the service's ply check lets exactly one move in.
Tasks are acknowledged late and rejected when their worker dies (settings), and
``sweep_bot_turns`` re-queues any bot turn left waiting, so a lost task delays a
bot but never stalls a match.
"""

from __future__ import annotations

import logging
import random
import secrets
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.bots import AVAILABLE_LEVELS, choose_action
from games.models import Match, Seat
from games.services import AUTOPILOT_LEVEL, MatchError, match_play_for_seat

logger = logging.getLogger(__name__)

_BOT_PLAYED = Q(user__is_bot=True) | Q(forfeited_at__isnull=False)


def bot_turn_owed(match_id: int, ply: int) -> bool:
    return Seat.objects.filter(
        _BOT_PLAYED, match_id=match_id, match__ply=ply, match__status=Match.Status.RUNNING, owes_decision=True
    ).exists()


def play_bot_turn(match_id: int, ply: int) -> bool:
    """Play one bot decision owed at ``ply``; False when there was nothing (left) to do."""
    match = Match.objects.filter(pk=match_id, ply=ply, status=Match.Status.RUNNING).first()
    if match is None:
        return False  # moved on, finished or gone: someone else played this turn
    seat = match.seats.select_related("user").filter(_BOT_PLAYED, owes_decision=True).first()
    if seat is None:
        return False
    game = match.engine
    level = AUTOPILOT_LEVEL
    if seat.forfeited_at is None and seat.user is not None and seat.user.bot_level in AVAILABLE_LEVELS:
        level = seat.user.bot_level
    # The bot decides from its seat's view alone, with a fresh random source.
    view = game.view(match.decoded_state(), seat.index)
    action = choose_action(game, view, seat.index, level, random.Random(secrets.randbits(64)))
    try:
        match_play_for_seat(match_id=match_id, seat_index=seat.index, action=action, ply=ply)
    except MatchError as error:
        if error.code == "stale_ply":
            return False  # another copy of this task played first
        raise
    return True


@shared_task
def bot_play(match_id: int, ply: int) -> bool:
    return play_bot_turn(match_id, ply)


@shared_task
def sweep_bot_turns() -> int:
    """Queue again every bot turn that has waited too long (its task was lost)."""
    stale_before = timezone.now() - timedelta(seconds=settings.BOT_TURN_STALE_SECONDS)
    waiting = (
        Match.objects.filter(status=Match.Status.RUNNING, updated_at__lt=stale_before)
        .filter(seats__in=Seat.objects.filter(_BOT_PLAYED, owes_decision=True))
        .values_list("pk", "ply")
        .distinct()
    )
    count = 0
    for match_id, ply in waiting:
        bot_play.delay(match_id, ply)
        count += 1
    if count:
        logger.info("re-queued %d waiting bot turn(s)", count)
    return count
