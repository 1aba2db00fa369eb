from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.conf import settings
from django.core.exceptions import PermissionDenied

from accounts.models import time_zone_choices
from accounts.names import username_checked

RESERVED_USERNAME_PREFIXES = ("bot-", "bot_")


@dataclass(frozen=True)
class SiteIdentity:
    """What allauth's email templates read as ``current_site``: a name and a domain."""

    name: str
    domain: str


def site_identity() -> SiteIdentity:
    """The site's name and its public address (``SITE_URL``'s host and port)."""
    return SiteIdentity(name=settings.SITE_NAME, domain=urlsplit(settings.SITE_URL).netloc)


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # Every allauth email passes here. allauth's own current_site comes from the Sites
        # framework, which this one-site project does not install: its stand-in is named
        # after the request's host, so emails greeted "Hello from 127.0.0.1:8101!".
        super().send_mail(template_prefix, email, {**context, "current_site": site_identity()})

    def save_user(self, request: Any, user: Any, form: Any, commit: bool = True) -> Any:
        # **Decision** (issue 34): the account starts in the browser's time zone, sent by
        # the sign-up page's script (static/js/time_zone.js); one the site does not offer,
        # or none (no script), leaves UTC. The account page changes it later.
        user = super().save_user(request, user, form, commit=False)
        zone = request.POST.get("time_zone", "") if request is not None else ""
        if zone in {name for name, _ in time_zone_choices()}:
            user.time_zone = zone
        if commit:
            user.save()
        return user

    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        if username.lower().startswith(RESERVED_USERNAME_PREFIXES):
            raise forms.ValidationError("Usernames starting with “bot-” are kept for the site's bots.")
        if not shallow:  # shallow: no database lookups (allauth's username generation)
            # A username is shown as the player's name until they pick a display name.
            username_checked(username)
        return username

    def _get_login_attempts_cache_key(self, request: Any, **credentials: Any) -> str:
        # The key of the per-account "login_failed" limit. allauth's puts the request's
        # host in it, and Django accepts any port in Host, so every "localhost:N" was a
        # fresh allowance for the same account. One site, so the login alone. It stays
        # the login as typed (username or email), not the account it names: sharing a
        # lock between the two would tell a stranger which email belongs to which name.
        login = credentials.get("email", credentials.get("username", ""))
        return f"login:{login.lower()}"

    def pre_login(self, request: Any, user: Any, **kwargs: Any) -> Any:
        # A second guard besides the backends: no flow (email confirmation,
        # password reset) may end with a bot logged in.
        if getattr(user, "is_bot", False):
            raise PermissionDenied("Bot accounts cannot log in.")
        return super().pre_login(request, user, **kwargs)
