"""On every page: the count of matches waiting for the signed-in person (their turn, or
an invitation), for the navigation's badge and the tab's title (one query); and the
links features offer the navigation (``games/feature_links.py``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest

from accounts.models import User
from games.feature_links import nav_links
from games.selectors import waiting_for_me_count


def your_turn(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if not isinstance(user, User) or not user.is_authenticated:
        return {}
    return {"waiting_count": waiting_for_me_count(user)}


def feature_nav_links(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {"nav_links": nav_links(user if isinstance(user, User) else AnonymousUser())}
