"""What History offers the core's pages (``games/feature_links.py``, listed in settings)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from games.feature_links import FeatureLink


def nav_link(user: User | AnonymousUser) -> FeatureLink:
    """The navigation's "History": finished public matches, and one's own when signed in."""
    return FeatureLink(text="History", url=reverse("history"))
