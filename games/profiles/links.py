"""What profiles offer the core's pages (``games/feature_links.py``, listed in settings)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from games.feature_links import FeatureLink


def nav_link(user: User | AnonymousUser) -> FeatureLink | None:
    """The signed-in person's own profile, under their name (nothing for a visitor)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return None
    return FeatureLink(text=user.public_name, url=player_page(user))


def player_page(user: User) -> str:
    """A player's profile: where their name links on a match page."""
    return reverse("profile", args=[user.username])
