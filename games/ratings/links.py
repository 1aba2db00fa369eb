"""What ratings offer the core's pages (``games/feature_links.py`` and
``games/match_notes.py``, listed in settings)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.engine import Game
from games.feature_links import FeatureLink
from games.match_notes import MatchNote
from games.models import Match
from games.ratings import rules, selectors


def leaderboard_link(game: Game[Any]) -> FeatureLink | None:
    """A rated game's leaderboard, on the game's page (an unrated game has none)."""
    if not game.is_rated:
        return None
    return FeatureLink(
        text="Leaderboard",
        url=reverse("ratings:leaderboard", args=[game.slug]),
        id="leaderboard-link",
        hint=f"The best players of {game.name}, bots included.",
    )


def match_note(match: Match) -> MatchNote | None:
    """Under a rated match's title once it is rated (``settings.MATCH_NOTES``), what it
    did to each player's rating, by seat: "Ratings: Ann 1574? (+74), Bob 1426? (-74)",
    linking to the game's leaderboard. None for a match not rated; no query before the
    match has finished."""
    if match.status != Match.Status.FINISHED:
        return None
    changes = selectors.match_rating_changes(match.pk)
    if not changes:
        return None
    parts = [
        f"{one.user.public_name} {rules.shown(one.point.display_after, provisional=one.point.is_provisional)}"
        f" ({rules.signed(one.point.change)})"
        for one in changes
    ]
    return MatchNote(
        text="Ratings: " + ", ".join(parts), url=reverse("ratings:leaderboard", args=[match.game])
    )
