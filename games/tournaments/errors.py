"""The tournaments' refusals: one exception, with the site's error codes."""

from __future__ import annotations

from games.errors import ErrorCode


class TournamentError(Exception):
    """A request a tournament refuses; nothing was changed. ``str(error)`` is the reason
    in words, shown as it is; ``code`` is an ``ErrorCode`` (games/errors.py), the same
    list and HTTP statuses as the matches' refusals."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = code
