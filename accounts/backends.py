"""Authentication that refuses bot accounts, whatever their password field holds."""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth.backends import ModelBackend


def _is_human(user: Any) -> bool:
    return not getattr(user, "is_bot", False)


class HumansOnlyModelBackend(ModelBackend):
    """Django's backend (used by the admin login), minus bots."""

    def user_can_authenticate(self, user: Any) -> bool:
        return super().user_can_authenticate(user) and _is_human(user)


class HumansOnlyAllauthBackend(AuthenticationBackend):
    """allauth's username-or-email backend, minus bots.

    allauth checks the password without asking ``user_can_authenticate``, so the
    refusal is applied to what ``authenticate`` returns.
    """

    def authenticate(self, request: Any, **credentials: Any) -> Any:
        user = super().authenticate(request, **credentials)
        return user if user is not None and _is_human(user) else None
