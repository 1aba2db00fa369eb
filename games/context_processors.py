"""The count of matches waiting for the signed-in person (their turn, or an invitation)
on every page: the navigation's badge and the tab's title (one query)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User
from games.selectors import waiting_for_me_count


def your_turn(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if not isinstance(user, User) or not user.is_authenticated:
        return {}
    return {"waiting_count": waiting_for_me_count(user)}
