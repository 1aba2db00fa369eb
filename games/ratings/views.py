"""The leaderboard page. Thin: one selector, one template."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from games.errors import MatchError
from games.ratings import rules, selectors


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """A rated game's best established, active players; 404 for an unknown or unrated game."""
    try:
        game = selectors.rated_game(slug)
    except MatchError as error:
        raise Http404(str(error)) from None
    mine = selectors.rating_of(request.user, game.slug) if isinstance(request.user, User) else None
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "game": game,
            "rows": selectors.leaderboard(game.slug),
            "mine": mine,
            "established": rules.PROVISIONAL_BELOW,
            "active_days": selectors.ACTIVE_DAYS,
        },
    )
