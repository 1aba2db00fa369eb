"""Untrusted input from outside (API bodies, form fields, socket messages), checked
once at the edge, so that nothing deeper can crash on it.

Python's JSON parser raises ``RecursionError`` (not ``ValueError``) on deeply nested
text, and a string may hold what no database column stores: a NUL character
(PostgreSQL refuses it) or a lone surrogate (not encodable as UTF-8, so the driver
raises). Each of those once killed a socket or answered 500. Here they become a
``BadInput`` with a stable code and a message for people.
"""

from __future__ import annotations

import json
from typing import Any

from games.errors import ErrorCode

# Far deeper than any action or message needs (an action is two levels), far
# shallower than the parser's recursion limit.
MAX_DEPTH = 16


class BadInput(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_json(text: str | bytes) -> Any:
    """JSON text as data, or ``BadInput(ErrorCode.MALFORMED_JSON, ...)``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise BadInput(ErrorCode.MALFORMED_JSON, "That is not valid JSON.") from None
    _check_data(data)
    return data


def _check_data(data: Any) -> None:
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise BadInput(
                ErrorCode.MALFORMED_JSON, f"JSON nested deeper than {MAX_DEPTH} levels is refused."
            )
        if isinstance(value, str):
            check_text(value, code=ErrorCode.MALFORMED_JSON)
        elif isinstance(value, dict):
            for key, item in value.items():
                check_text(key, code=ErrorCode.MALFORMED_JSON)
                pending.append((item, depth + 1))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def whole_number(text: str, *, most_digits: int = 9) -> int | None:
    """``text`` as a whole number of at most ``most_digits`` ASCII digits, or None.
    (``str.isdigit`` says yes to "²" and "①", which ``int`` refuses, and ``int`` refuses
    more than 4,300 digits: both once answered 500.)"""
    if 0 < len(text) <= most_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def check_text(text: str, *, code: str = ErrorCode.BAD_TEXT) -> None:
    """Refuse text no database column can store: NUL characters, lone surrogates."""
    if "\x00" in text:
        raise BadInput(code, "Text may not contain NUL characters.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(code, "Text must be valid Unicode (a lone surrogate is not).") from None
