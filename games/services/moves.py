"""Playing: a person's move, a bot's, the autopilot's; the state and what follows from it."""

from __future__ import annotations

import json
import random
import secrets
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import User
from boomsite import metrics
from games import effects
from games.bots import choose_action, levels_for
from games.engine import IllegalAction
from games.errors import ErrorCode, MatchError
from games.locks import lock_match
from games.models import Match, Move, Seat
from games.selectors import bot_seat_owing, bot_turns_waiting_since
from games.services import rows
from games.services.common import autopilot_level
from games.services.decisions import made_on_current_picture
from games.services.state import store_state


@dataclass(frozen=True)
class SubmitResult:
    ply: int  # the match's ply after the move
    duplicate: bool = False  # True when this action id had already been played


def _parse_ply(ply: Any) -> int:
    if type(ply) is not int or ply < 0:
        raise MatchError(
            ErrorCode.BAD_PLY, "Say which position you are moving from (the ply, a whole number)."
        )
    return ply


def _parse_action_id(action_id: Any) -> uuid.UUID | None:
    if action_id is None or action_id == "":
        return None
    try:
        return uuid.UUID(str(action_id))
    except ValueError:
        raise MatchError(ErrorCode.BAD_ACTION_ID, "The action id must be a UUID.") from None


@metrics.MOVE_SECONDS.time()
def match_submit_action(
    *, match_id: int, user: User, action: Any, ply: Any, action_id: Any = None
) -> SubmitResult:
    """``user`` plays ``action`` in their seat, if the match is still at ``ply``.

    A resent ``action_id`` (a retry after a lost answer) returns the first answer
    instead of failing or playing twice.

    The action id is looked up only when the move is refused or its id is already
    stored (no query on the way of every move): a resent move always is one or the
    other, since the move it repeats moved the match, and its seat's decision, on
    (``decisions.made_on_current_picture``). ``UNIQUE(match, action_id)`` backs it.
    """
    ply = _parse_ply(ply)
    move_id = _parse_action_id(action_id)
    try:
        with transaction.atomic():
            match = lock_match(match_id)
            try:
                return _submit(match, user, action, ply, move_id)
            except MatchError:
                earlier = _played_before(match_id, user, move_id, action)
                if earlier is None:
                    raise
                return earlier
    except IntegrityError:
        # Its id is stored already (a retry, or another move's id): nothing was written.
        earlier = _played_before(match_id, user, move_id, action)
        if earlier is None:
            raise
        return earlier


def _submit(match: Match, user: User, action: Any, ply: int, move_id: uuid.UUID | None) -> SubmitResult:
    seats = rows.seats_with_players(match.pk)
    seat = next((seat for seat in seats if seat.user_id == user.pk and seat.joined_at is not None), None)
    if seat is None or user.is_bot:
        raise MatchError(ErrorCode.NOT_YOUR_SEAT, "You are not playing in this match.")
    if seat.resigned_at is not None:
        raise MatchError(ErrorCode.RESIGNED, "You resigned from this match.")
    return _play(match, seat.index, action, ply, user=user, action_id=move_id, seats=seats)


def _played_before(match_id: int, user: User, move_id: uuid.UUID | None, action: Any) -> SubmitResult | None:
    """The first answer to a move whose action id is stored already, if it is a retry of
    that move: the same player, the same action, and no move of theirs since (a retry
    repeats the latest). Raises when the id is another player's, or theirs reused for
    another move (issue 35, bug 1: that was answered as a duplicate, and the new move
    silently not played)."""
    if move_id is None:
        return None
    earlier = Move.objects.filter(match_id=match_id, action_id=move_id).first()
    if earlier is None:
        return None
    if earlier.user_id != user.pk:
        raise MatchError(ErrorCode.ACTION_ID_TAKEN, "That action id was used for another move.")
    moved_since = Move.objects.filter(match_id=match_id, seat=earlier.seat, ply__gt=earlier.ply).exists()
    if moved_since or _canonical(earlier.action) != _canonical(action):
        raise MatchError(
            ErrorCode.ACTION_ID_REUSED,
            f"That action id was used for your move at ply {earlier.ply}, not this one: send a new id"
            " for each new move (the same id only to retry the same move).",
        )
    return SubmitResult(ply=earlier.ply + 1, duplicate=True)


def _canonical(action: Any) -> str:
    """An action's JSON with sorted keys: a retry's action equals the stored one."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), default=str)


@metrics.MOVE_SECONDS.time()
def match_play_for_seat(*, match_id: int, seat_index: int, action: Any, ply: Any) -> SubmitResult:
    """A bot's or the autopilot's move for a seat it plays (bot account, or a resigned player)."""
    ply = _parse_ply(ply)
    with transaction.atomic():
        match = lock_match(match_id)
        seats = rows.seats_with_players(match.pk)
        seat = next((seat for seat in seats if seat.index == seat_index), None)
        if seat is None or not seat.played_by_bot:
            raise MatchError(ErrorCode.NOT_A_BOT_SEAT, "That seat is not played by a bot.")
        user = seat.user if seat.resigned_at is None else None
        return _play(match, seat_index, action, ply, user=user, action_id=None, seats=seats)


def bot_play_turn(*, match_id: int, ply: int) -> bool:
    """Play the decision a bot seat owes at ``ply``; False when there was nothing (left)
    to do: the match moved on, finished or is gone, or another copy played first."""
    started = time.perf_counter()
    seat = bot_seat_owing(match_id, ply)
    if seat is None:
        return False
    game = seat.match.engine
    level = autopilot_level(game)
    if seat.resigned_at is None and seat.user is not None and seat.user.bot_level in levels_for(game):
        level = seat.user.bot_level
    # The bot decides from its seat's view alone, with a fresh random source.
    view = game.view(seat.match.decoded_state(), seat.index)
    action = choose_action(game, view, seat.index, level, random.Random(secrets.randbits(64)))
    try:
        match_play_for_seat(match_id=match_id, seat_index=seat.index, action=action, ply=ply)
    except MatchError as error:
        if error.code == ErrorCode.STALE_PLY:
            return False  # another copy of this task played first
        raise
    metrics.observe_bot_turn(level=level, seconds=time.perf_counter() - started)
    return True


def bot_turns_queue_again(*, now: datetime, waited_seconds: float, limit: int) -> int:
    """Queue again each bot turn last queued more than ``waited_seconds`` before ``now``
    (its task died with its worker, was lost with the broker, or waits behind a backlog),
    the longest waiting first, at most ``limit``; how many were queued.

    Each is stamped (``Match.bot_requeued_at``) before it is sent, in its own short
    update and only while the match still waits at that ply, so a turn played meanwhile
    is not queued and a waiting one is queued once per ``waited_seconds``, however often
    the sweep runs. A copy that finds its turn played does nothing (``bot_play_turn``)."""
    queued = 0
    for match_id, ply in bot_turns_waiting_since(now - timedelta(seconds=waited_seconds), limit=limit):
        still_waiting = Match.objects.filter(pk=match_id, ply=ply, status=Match.Status.RUNNING)
        if still_waiting.update(bot_requeued_at=now):
            effects.bot_turn_again(match_id, ply)
            queued += 1
    return queued


def play_for_timed_out_seat(match: Match, seat_index: int, action: Any) -> SubmitResult:
    """The autopilot's move for a seat whose clock ran out (``clocks.seat_time_out``).
    Call with the match row locked (``games/locks.py``)."""
    return _play(match, seat_index, action, match.ply, user=None, action_id=None)


# What a move changes on the match row (``finish`` included): the rest is saved as it was read.
PLAYED_FIELDS = ["state", "ply", "status", "result", "finished_at", "updated_at"]


def _play(
    match: Match,
    seat_index: int,
    action: Any,
    ply: int,
    *,
    user: User | None,
    action_id: uuid.UUID | None,
    seats: list[Seat] | None = None,
) -> SubmitResult:
    """Apply one move made on the board of ``ply`` and store what follows, at the
    match's current ply. Call with the match row locked (``games/locks.py``);
    ``UNIQUE(match, ply)`` backs the ply check on every database. ``seats``: the
    match's seats with their users, read under the lock, when the caller has them.
    Saves ``PLAYED_FIELDS`` of the match: a caller changes nothing else on it first."""
    if match.status == Match.Status.FINISHED:
        raise MatchError(ErrorCode.GAME_OVER, "The game is over.")
    if match.status != Match.Status.RUNNING:
        raise MatchError(ErrorCode.NOT_RUNNING, "This match has not started.")
    if seats is None:
        seats = rows.seats_with_players(match.pk)
    # Another seat's choice made meanwhile does not make this one stale (decisions.py).
    if ply > match.ply:  # not a board anyone saw: a client's mistake, not a race (issue 35, bug 3)
        raise MatchError(ErrorCode.BAD_PLY, f"There is no ply {ply} yet: the game is at ply {match.ply}.")
    if not made_on_current_picture(seats[seat_index], ply, match.ply):
        raise MatchError(
            ErrorCode.STALE_PLY,
            f"The game has moved on since you looked (your move was made at ply {ply}; it is at ply"
            f" {match.ply} now): look again and choose anew.",
        )
    game = match.engine
    try:
        state = game.apply(match.decoded_state(), seat_index, action)
    except IllegalAction as error:
        raise MatchError(error.code, str(error)) from None
    rows.insert(
        Move(match=match, ply=match.ply, seat=seat_index, action=action, user=user, action_id=action_id)
    )
    match.ply += 1
    mover = seats[seat_index]
    if user is not None and not user.is_bot and mover.timeouts:
        # The player moved themselves: timeouts count again from zero.
        mover.timeouts = 0
        rows.update(mover, ["timeouts"])
    store_state(match, seats, state, mover=seat_index)
    rows.update(match, PLAYED_FIELDS)
    effects.match_changed(match, seats=seats, state=state)
    effects.move_played(match)
    return SubmitResult(ply=match.ply)
