"""The leaderboard page. Thin: one selector, one template."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from games.errors import MatchError
from games.ratings import rules, selectors


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """A rated game's active players, the established first, then the provisional
    under their own heading; 404 for an unknown or unrated game."""
    try:
        game = selectors.rated_game(slug)
    except MatchError as error:
        raise Http404(str(error)) from None
    mine = selectors.rating_of(request.user, game.slug) if isinstance(request.user, User) else None
    rows = selectors.leaderboard(game.slug)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "game": game,
            "established_rows": [row for row in rows if not row.rating.is_provisional],
            "provisional_rows": [row for row in rows if row.rating.is_provisional],
            "mine": mine,
            "established": rules.PROVISIONAL_BELOW,
            "active_days": selectors.ACTIVE_DAYS,
        },
    )
