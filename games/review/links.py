"""What the post-game review offers the core's pages and emails (``games/feature_links.py``,
listed in settings)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from games.bots import levels_for
from games.feature_links import FeatureLink
from games.models import Match, Move
from games.review.models import Review


def replay_link(match: Match, user: User | AnonymousUser) -> FeatureLink | None:
    """Under a finished match's replay, for a signed-in viewer: their review with the
    expert bot; and, for the replay's script, the review's JSON, whose disagreements
    it marks on the steps (no review yet, no marks)."""
    if match.status != Match.Status.FINISHED or not user.is_authenticated:
        return None
    return FeatureLink(
        text="Review your moves with the expert bot",
        url=reverse("review:page", args=[match.pk]),
        id="replay-review-link",
        script_url=reverse("review:json", args=[match.pk]),
    )


def match_link(match: Match, user: User | AnonymousUser) -> FeatureLink | None:
    """On a finished match's page and in its "match over" email, for a player who made
    decisions of their own in it (not a bot, in a game the expert plays): an invitation
    to review them, or their review once they asked for it. At most two queries, none
    while the match runs."""
    if match.status != Match.Status.FINISHED or not isinstance(user, User) or user.is_bot:
        return None
    if "expert" not in levels_for(match.engine):
        return None
    url = reverse("review:page", args=[match.pk])
    if Review.objects.filter(match=match, user=user).exists():
        return FeatureLink(text="See your review", url=url, id="match-review-link")
    if not Move.objects.filter(match=match, user=user).exists():
        return None  # the autopilot's moves are not theirs: nothing to review
    return FeatureLink(
        text="Review your decisions",
        url=url,
        id="match-review-link",
        hint="the expert bot grades each of them and shows your costliest moments",
    )
