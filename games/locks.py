"""Row locks, in one place, taken in one order.

Every write to a match runs in one transaction that first locks the match row
(``SELECT ... FOR UPDATE``), so two moves, a move and a resignation, or two joins
can never interleave: the second waits, then sees the first's result (a stale ply,
a taken seat) and is refused.

**The order** when a service needs more than one lock (later features must follow
it, or two transactions can deadlock): tournament → match → seats. Take the outer
row first; never lock a match and then its tournament.

**On SQLite** (the embedded default) ``select_for_update`` does nothing. What
serialises writes there is the settings' ``transaction_mode: IMMEDIATE``: every
transaction takes SQLite's single write lock when it begins (waiting up to 20 s), so
a second service runs only after the first has committed, and then sees its result.
What both databases guarantee, and what exactly-once rests on, are the unique
constraints: one move per (match, ply), one per (match, action id). Never rely on a
lock alone for "exactly once".
"""

from __future__ import annotations

import functools

from django.db import connection

from games.errors import ErrorCode, MatchError
from games.models import Match


def lock_match(match_id: int) -> Match:
    """The match row, locked until the transaction ends. Call inside ``transaction.atomic``.

    ``select_for_update`` in SQL made once (every move takes this lock: building the
    query each time cost more CPU than reading the row, ``games/services/rows.py``)."""
    match = next(iter(Match.objects.raw(_lock_sql(), [match_id])), None)
    if match is None:
        raise MatchError(ErrorCode.NO_SUCH_MATCH, "There is no such match.")
    return match


@functools.cache
def _lock_sql() -> str:
    quote = connection.ops.quote_name
    # SQLite has no FOR UPDATE (see above): there the IMMEDIATE transaction is the lock.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return f"SELECT * FROM {quote(Match._meta.db_table)} WHERE {quote('id')} = %s{lock}"
