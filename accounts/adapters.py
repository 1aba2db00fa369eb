from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.core.exceptions import PermissionDenied

RESERVED_USERNAME_PREFIXES = ("bot-", "bot_")


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        if username.lower().startswith(RESERVED_USERNAME_PREFIXES):
            raise forms.ValidationError("Usernames starting with “bot-” are kept for the site's bots.")
        return username

    def pre_login(self, request: Any, user: Any, **kwargs: Any) -> Any:
        # A second guard besides the backends: no flow (email confirmation,
        # password reset) may end with a bot logged in.
        if getattr(user, "is_bot", False):
            raise PermissionDenied("Bot accounts cannot log in.")
        return super().pre_login(request, user, **kwargs)
