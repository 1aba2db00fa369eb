"""What the post-game review offers the core's pages (``games/feature_links.py``, listed in settings)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from games.feature_links import FeatureLink
from games.models import Match


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
