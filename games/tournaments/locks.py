"""The tournaments' row lock, beside the core's (``games/locks.py``), in the same order.

Every write to a tournament runs in one transaction that first locks its row, so a
registration, a start and an advance never interleave. **The order** is the core's:
tournament → match → seats (a round's tables create and resign matches while the
tournament is locked; never lock a match and then its tournament). On SQLite the lock
does nothing and the IMMEDIATE transaction serialises writers instead; exactly-once
rests on the unique keys (one round per number, one table per match), not on this.
"""

from __future__ import annotations

from games.errors import ErrorCode
from games.tournaments.errors import TournamentError
from games.tournaments.models import Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends (call inside ``atomic``)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError(ErrorCode.NO_SUCH_TOURNAMENT, "There is no such tournament.")
    return tournament
