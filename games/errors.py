"""Every error code the site answers with, in one place, and how HTTP says each.

A refusal carries a stable snake_case code (for programs) and a message (for
people). The services raise ``MatchError(ErrorCode.X, ...)``; the API answers
``http_status(code)``; the form views show the message; the socket sends the code.
Tournaments refuse with ``TournamentError(ErrorCode.X, ...)`` from the same list.
The engine's own codes (``IllegalAction.code``: ``not_your_turn``, ``no_such_card``,
...) pass through unchanged and are a 400 unless listed below.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    ACTION_ID_REUSED = "action_id_reused"
    ACTION_ID_TAKEN = "action_id_taken"
    ALREADY_REGISTERED = "already_registered"
    ALREADY_SEATED = "already_seated"
    ALREADY_STARTED = "already_started"
    # A program's bot account moves through the API only: a page's move is refused.
    API_ONLY = "api_only"
    BAD_ACTION_ID = "bad_action_id"
    BAD_CURSOR = "bad_cursor"
    BAD_FILTER = "bad_filter"
    # The engine's code (games/engine/options.py), named here for the API's checks.
    BAD_OPTION = "bad_option"
    BAD_PLAYER_COUNT = "bad_player_count"
    BAD_PLY = "bad_ply"
    BAD_SEAT = "bad_seat"
    BAD_SUBSCRIPTION = "bad_subscription"
    BAD_TEXT = "bad_text"
    BAD_TOURNAMENT_SETUP = "bad_tournament_setup"
    BAD_TURN_LIMIT = "bad_turn_limit"
    BAD_VACATION = "bad_vacation"
    BAD_VISIBILITY = "bad_visibility"
    # One of two people blocked the other (games/blocks.py): no invitation, challenge or follow between them.
    BLOCKED = "blocked"
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
    # The API token lacks the scope the endpoint needs (docs/api.md, "Scopes").
    MISSING_SCOPE = "missing_scope"
    NO_SUCH_BOT = "no_such_bot"
    NO_SUCH_GAME = "no_such_game"
    NO_SUCH_MATCH = "no_such_match"
    NO_SUCH_PLAYER = "no_such_player"
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    NOT_A_DRAFT = "not_a_draft"
    NOT_A_BOT_SEAT = "not_a_bot_seat"
    NOT_ALLOWED = "not_allowed"
    NOT_FINISHED = "not_finished"
    NOT_INVITED = "not_invited"
    NOT_OPEN = "not_open"
    NOT_PLAYING = "not_playing"
    NOT_RUNNING = "not_running"
    NOT_SEATED = "not_seated"
    NOT_YOUR_SEAT = "not_your_seat"
    # The engine's code (games/engine/base.py), named here for its status: a turn out of order.
    NOT_YOUR_TURN = "not_your_turn"
    PUSH_OFF = "push_off"
    RATE_LIMITED = "rate_limited"
    REGISTRATION_CLOSED = "registration_closed"
    RESIGNED = "resigned"
    SEAT_YOURSELF = "seat_yourself"
    SIGNED_OUT = "signed_out"
    STALE_PLY = "stale_ply"
    STILL_A_DRAFT = "still_a_draft"
    TOO_LARGE = "too_large"
    TOO_MANY_CHALLENGES = "too_many_challenges"
    TOO_FEW_ENTRANTS = "too_few_entrants"
    TOO_MANY_SOCKETS = "too_many_sockets"
    # A program's open streams per token (games/live/socket_limits.py).
    TOO_MANY_STREAMS = "too_many_streams"
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_OVER = "tournament_over"
    UNAUTHORISED = "unauthorised"
    # A field an API request's body has no place for (a misspelt one would else be ignored).
    UNEXPECTED_FIELD = "unexpected_field"
    UNKNOWN_MESSAGE = "unknown_message"


# Not listed: 400 (a request the match cannot take as it is).
_HTTP_STATUS: dict[ErrorCode, int] = {
    ErrorCode.ACTION_ID_REUSED: 409,
    ErrorCode.ACTION_ID_TAKEN: 409,
    ErrorCode.ALREADY_REGISTERED: 409,
    ErrorCode.ALREADY_SEATED: 409,
    ErrorCode.ALREADY_STARTED: 409,
    ErrorCode.API_ONLY: 403,
    ErrorCode.BLOCKED: 403,
    ErrorCode.BUSY: 503,
    ErrorCode.GAME_OVER: 409,
    ErrorCode.LOGIN_REQUIRED: 401,
    ErrorCode.MATCH_FULL: 409,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.MISSING_SCOPE: 403,
    ErrorCode.NO_SUCH_GAME: 404,
    ErrorCode.NO_SUCH_MATCH: 404,
    ErrorCode.NO_SUCH_TOURNAMENT: 404,
    ErrorCode.NOT_A_DRAFT: 409,
    ErrorCode.NOT_FINISHED: 409,
    ErrorCode.NOT_OPEN: 409,
    ErrorCode.NOT_RUNNING: 409,
    ErrorCode.NOT_YOUR_SEAT: 403,
    ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.PUSH_OFF: 503,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.REGISTRATION_CLOSED: 409,
    ErrorCode.RESIGNED: 403,
    ErrorCode.SIGNED_OUT: 401,
    ErrorCode.STALE_PLY: 409,
    ErrorCode.STILL_A_DRAFT: 409,
    ErrorCode.TOO_FEW_ENTRANTS: 409,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.TOO_MANY_CHALLENGES: 409,
    ErrorCode.TOO_MANY_STREAMS: 429,
    ErrorCode.TOURNAMENT_FULL: 409,
    ErrorCode.TOURNAMENT_OVER: 409,
    ErrorCode.UNAUTHORISED: 401,
}


def http_status(code: str) -> int:
    """The HTTP status of a refusal with ``code`` (the site's or the engine's)."""
    try:
        known = ErrorCode(code)
    except ValueError:  # an engine code the site does not name: a refused action
        return 400
    return _HTTP_STATUS.get(known, 400)


class MatchError(Exception):
    """A request the match cannot take. ``str(error)`` is shown to the player as is;
    ``code`` is an ``ErrorCode`` (or an engine code passed through)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


# A page's move by a program's bot account (``User.is_program_bot``): the match page's
# form and its socket refuse it with this, the API plays it (docs/api.md, "Bot accounts").
API_ONLY_MESSAGE = (
    "This is a bot account: its moves come from its program, through the API (see /api/). "
    "The pages do not play for it."
)

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
