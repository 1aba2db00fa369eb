"""What tournaments offer the core's pages (``games/feature_links.py``, listed in settings)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from games.feature_links import FeatureLink


def nav_link(user: User | AnonymousUser) -> FeatureLink:
    """The navigation's "Tournaments": the list, for everyone."""
    return FeatureLink(text="Tournaments", url=reverse("tournaments:list"))
