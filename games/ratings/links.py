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


def match_notes(matches: list[Match]) -> dict[int, MatchNote]:
    """Under a rated match's title and on its history row, once it is rated
    (``settings.MATCH_NOTES``), what it did to each player's rating, by seat: "Ratings:
    Ann 1574? (+74), Bob 1426? (-74)", linking to the game's leaderboard. Nothing for a
    match not rated; one query for all of them, none when none has finished."""
    finished = {match.pk: match for match in matches if match.status == Match.Status.FINISHED}
    if not finished:
        return {}
    return {
        match_id: MatchNote(
            text="Ratings: " + ", ".join(_change_words(one) for one in changes),
            url=reverse("ratings:leaderboard", args=[finished[match_id].game]),
        )
        for match_id, changes in selectors.match_rating_changes(list(finished)).items()
    }


def _change_words(one: selectors.MatchRatingChange) -> str:
    shown = rules.shown(one.point.display_after, provisional=one.point.is_provisional)
    return f"{one.user.public_name} {shown} ({rules.signed(one.point.change)})"
