"""Every error code the site answers with, in one place, and how HTTP says each.

A refusal carries a stable snake_case code (for programs) and a message (for
people). The services raise ``MatchError(ErrorCode.X, ...)``; the API answers
``http_status(code)``; the form views show the message; the socket sends the code.
The engine's own codes (``IllegalAction.code``: ``not_your_turn``, ``no_such_card``,
...) pass through unchanged and are a 400 unless listed below.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    ACTION_ID_TAKEN = "action_id_taken"
    ALREADY_SEATED = "already_seated"
    BAD_ACTION_ID = "bad_action_id"
    BAD_CURSOR = "bad_cursor"
    BAD_FILTER = "bad_filter"
    BAD_PLAYER_COUNT = "bad_player_count"
    BAD_PLY = "bad_ply"
    BAD_SEAT = "bad_seat"
    BAD_TEXT = "bad_text"
    BAD_TURN_LIMIT = "bad_turn_limit"
    BAD_VACATION = "bad_vacation"
    BAD_VISIBILITY = "bad_visibility"
    BUSY = "busy"
    CHAT_CLOSED = "chat_closed"
    EMPTY_MESSAGE = "empty_message"
    GAME_OVER = "game_over"
    INVITED_TWICE = "invited_twice"
    LOGIN_REQUIRED = "login_required"
    MALFORMED_ACTION = "malformed_action"
    MALFORMED_JSON = "malformed_json"
    MALFORMED_MESSAGE = "malformed_message"
    MATCH_FULL = "match_full"
    MESSAGE_TOO_LONG = "message_too_long"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NO_SUCH_BOT = "no_such_bot"
    NO_SUCH_GAME = "no_such_game"
    NO_SUCH_MATCH = "no_such_match"
    NO_SUCH_PLAYER = "no_such_player"
    NOT_A_BOT_SEAT = "not_a_bot_seat"
    NOT_ALLOWED = "not_allowed"
    NOT_FINISHED = "not_finished"
    NOT_INVITED = "not_invited"
    NOT_OPEN = "not_open"
    NOT_PLAYING = "not_playing"
    NOT_RUNNING = "not_running"
    NOT_SEATED = "not_seated"
    NOT_YOUR_SEAT = "not_your_seat"
    RATE_LIMITED = "rate_limited"
    RESIGNED = "resigned"
    SEAT_YOURSELF = "seat_yourself"
    SIGNED_OUT = "signed_out"
    STALE_PLY = "stale_ply"
    TOO_LARGE = "too_large"
    TOO_MANY_SOCKETS = "too_many_sockets"
    UNAUTHORISED = "unauthorised"
    UNKNOWN_MESSAGE = "unknown_message"


# Not listed: 400 (a request the match cannot take as it is).
_HTTP_STATUS: dict[str, int] = {
    "action_id_taken": 409,
    "already_seated": 409,
    "busy": 503,
    "game_over": 409,
    "login_required": 401,
    "match_full": 409,
    "method_not_allowed": 405,
    "no_such_game": 404,
    "no_such_match": 404,
    "not_finished": 409,
    "not_open": 409,
    "not_running": 409,
    "not_your_seat": 403,
    "not_your_turn": 409,
    "rate_limited": 429,
    "resigned": 403,
    "signed_out": 401,
    "stale_ply": 409,
    "too_large": 413,
    "unauthorised": 401,
}


def http_status(code: str) -> int:
    """The HTTP status of a refusal with ``code`` (the site's or the engine's)."""
    return _HTTP_STATUS.get(code, 400)


class MatchError(Exception):
    """A request the match cannot take. ``str(error)`` is shown to the player as is;
    ``code`` is an ``ErrorCode`` (or an engine code passed through)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


BUSY_MESSAGE = "The site is busy: every database connection is in use. Try again in a few seconds."
# Seconds a client is told to wait before trying again after a 503 for want of a connection.
BUSY_RETRY_AFTER_SECONDS = 5


def is_pool_exhausted(error: BaseException | None) -> bool:
    """Whether ``error`` (Django's OperationalError wraps psycopg's) is a wait for one
    of the process's pooled database connections that ran out of time
    (``boomsite/database.py``): overload, answered as ``BUSY``, not a fault of the code."""
    from psycopg_pool import PoolTimeout  # only PostgreSQL's settings use the pool

    while error is not None:
        if isinstance(error, PoolTimeout):
            return True
        error = error.__cause__
    return False
