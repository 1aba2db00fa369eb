"""Every write to matches goes through here: views, consumers, the API and bots alike.

A package: ``matches`` (create, join, leave), ``moves`` (play, bots), ``state`` (keeping
each new state, which every move and start goes through), ``decisions`` (which board a
move may be made on, and its clock), ``endings`` (results, resignations), ``clocks``
(timeouts, vacation), ``chat``, ``announcements`` (the match-finished outbox); the public names are re-exported here, so callers
write ``from games.services import match_submit_action``. Row locks and their order:
``games/locks.py``.

Each service runs in one transaction that locks the match row first, so two moves
can never interleave. Side effects (the doorbell, bot turns, "match finished") are
handed to ``games.effects``, which runs them after the commit: nothing is announced
that did not happen. Every
failure is a ``MatchError`` with a stable ``code`` and a message for people, and
leaves the database as it was.
"""

from games.errors import MatchError
from games.services.announcements import (
    announcement_delivered,
    announcement_give_up,
    announcements_prune,
    announcements_send_again,
)
from games.services.chat import chat_post
from games.services.common import AUTOPILOT_LEVEL, BOT_USERNAMES, bot_account
from games.services.endings import match_resign
from games.services.matches import (
    PlacedSeat,
    SeatRequest,
    match_create,
    match_create_seated,
    match_decline,
    match_join,
    match_leave,
    match_rematch,
)
from games.services.moves import (
    SubmitResult,
    bot_play_turn,
    bot_turns_queue_again,
    match_play_for_seat,
    match_submit_action,
)

__all__ = [
    "AUTOPILOT_LEVEL",
    "BOT_USERNAMES",
    "MatchError",
    "PlacedSeat",
    "SeatRequest",
    "SubmitResult",
    "announcement_delivered",
    "announcement_give_up",
    "announcements_prune",
    "announcements_send_again",
    "bot_account",
    "bot_play_turn",
    "bot_turns_queue_again",
    "chat_post",
    "match_create",
    "match_create_seated",
    "match_decline",
    "match_join",
    "match_leave",
    "match_play_for_seat",
    "match_rematch",
    "match_resign",
    "match_submit_action",
]
