"""Where a history page ends: the keyset cursor that the next page starts after.

The list is ordered by (``Match.finished_at``, ``Seat.id``) newest first, so a page is
"the rows before this pair", whatever was added since the first page: no OFFSET to
count through, and no row skipped or shown twice when a match finishes meanwhile. The
id is the player's seat's: a person has one seat per match, a bot seated twice at a
table ("Basic Bot A", "Basic Bot B") has two rows, and the pair stays unique.

Cursors are signed (``django.core.signing``, their own salt) so that a hand-made or
truncated one is refused with a clear error rather than read as some other position.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core import signing

_SALT = "games.history.cursor"
# A signed cursor is about 70 characters; anything much longer is not one of ours.
MAX_LENGTH = 200


class BadCursor(ValueError):
    """Not a cursor this site made (changed, truncated, or made with another key)."""


@dataclass(frozen=True)
class Cursor:
    finished_at: datetime
    seat_id: int


def encode(cursor: Cursor) -> str:
    return signing.dumps([cursor.finished_at.isoformat(), cursor.seat_id], salt=_SALT)


def decode(text: str) -> Cursor:
    if len(text) > MAX_LENGTH:
        raise BadCursor("That page link is not valid.")
    try:
        finished_at, seat_id = signing.loads(text, salt=_SALT)
        moment = datetime.fromisoformat(finished_at)
    except (signing.BadSignature, ValueError, TypeError):
        raise BadCursor("That page link is not valid: start again from the first page.") from None
    # Signed by us, so well formed; checked anyway, since a wrong type here would be a 500.
    if moment.tzinfo is None or type(seat_id) is not int or seat_id < 1:
        raise BadCursor("That page link is not valid: start again from the first page.")
    return Cursor(moment, seat_id)
