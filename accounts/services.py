"""Writes to accounts. Views and commands call these; nothing else saves a User."""

from __future__ import annotations

import hashlib
import secrets

from allauth.account.models import EmailAddress
from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.names import display_name_checked

DEMO_ADMIN_USERNAME = "admin"


def user_update_settings(*, user: User, display_name: str, time_zone: str) -> User:
    """Raises ``ValidationError`` for a name the rules refuse (``accounts.names``) or a bad time zone."""
    user.display_name = display_name_checked(display_name, user=user)
    user.time_zone = time_zone
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name", "time_zone"])
    return user


@transaction.atomic
def demo_admin_create_once() -> str | None:
    """Create the embedded mode's admin with a fresh password; ``None`` if it exists.

    The password is returned so the run command can print it once; it is stored
    only as a hash, so a lost one is reset with ``manage.py changepassword admin``.
    """
    if User.objects.filter(username=DEMO_ADMIN_USERNAME).exists():
        return None
    password = secrets.token_urlsafe(12)
    user = User.objects.create_superuser(
        username=DEMO_ADMIN_USERNAME, email="admin@boomsite.local", password=password
    )
    # Mark the address verified so the admin can also use the site's own login.
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return password


# -- API tokens ---------------------------------------------------------------

API_TOKEN_PREFIX = "bst_"  # makes a leaked token easy to recognise in logs and scanners
MAX_API_TOKENS = 10


class TokenError(ValueError):
    pass


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns it with its secret, which is never stored."""
    name = name.strip()
    if not name:
        raise TokenError("Give the token a name, so you know later what it is for.")
    if len(name) > ApiToken._meta.get_field("name").max_length:  # type: ignore[operator]
        raise TokenError("That name is too long (60 characters at most).")
    if user.is_bot:
        raise TokenError("Bot accounts have no API tokens.")
    User.objects.select_for_update().filter(pk=user.pk).first()  # one creation at a time per user
    if ApiToken.objects.filter(user=user).count() >= MAX_API_TOKENS:
        raise TokenError(f"You have {MAX_API_TOKENS} tokens already: revoke one first.")
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, key_hash=_token_hash(secret), prefix=secret[:8])
    return token, secret


def api_token_revoke(*, user: User, token_id: int) -> None:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenError("No such token.")


def api_token_user(secret: str) -> User | None:
    """The active, human user a presented token belongs to, or None; notes its use."""
    if not secret.startswith(API_TOKEN_PREFIX) or len(secret) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=_token_hash(secret)).first()
    if token is None or not token.user.is_active or token.user.is_bot:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
