"""Which finished matches count for ratings, as a database condition.

The one place the rule lives until the ratings app (``games/ratings/``) records its own
decision per match: then this function should read that record instead (or the ratings
app may filter with it), and the History lists and their "rated" filter follow.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, Subquery

from games.engine import all_games
from games.models import Move, Seat


def rated_matches() -> Q:
    """A condition on ``Match`` that holds for a finished match that moves ratings.

    The rule (the same as ``games.ratings.rules.why_unrated``): a rated game (never a
    cooperative one), a match not set up unrated (``Match.rated``), every seat with a player and a rank, two accounts at least (so
    two seats at least: a bot seated against itself is no result), and nobody out of
    the game (resigned or timed out) before a move of their own: the autopilot's moves
    (``Move.user`` empty) do not count, so a walk-over is not a result; and no program's
    bot account at the table (``User.bot_account_since``: rated in no pool).
    """
    table = Seat.objects.filter(match_id=OuterRef("pk"))
    first_player = Seat.objects.filter(match_id=OuterRef(OuterRef("pk")), index=0).values("user_id")[:1]
    own_move = Move.objects.filter(
        match_id=OuterRef("match_id"), seat=OuterRef("index"), user_id=OuterRef("user_id")
    )
    return Q(
        Q(game__in=[game.slug for game in all_games() if game.is_rated]),
        Q(rated=True),
        ~Exists(table.filter(Q(user__isnull=True) | Q(rank__isnull=True))),
        Exists(table.exclude(user_id=Subquery(first_player))),
        ~Exists(table.filter(resigned_at__isnull=False).exclude(Exists(own_move))),
        ~Exists(table.filter(user__bot_account_since__isnull=False)),
    )
