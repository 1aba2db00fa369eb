"""What ratings offer the core's pages (``games/feature_links.py``, listed in settings)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.engine import Game
from games.feature_links import FeatureLink


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
