"""The "your turn" count on every page's navigation (one indexed query for signed-in people)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User
from games.selectors import your_turn_count


def your_turn(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if not isinstance(user, User) or not user.is_authenticated:
        return {}
    return {"your_turn_count": your_turn_count(user)}
