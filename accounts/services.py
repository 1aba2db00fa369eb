"""Writes to accounts. Views and commands call these; nothing else saves a User."""

from __future__ import annotations

import secrets

from allauth.account.models import EmailAddress
from django.db import transaction

from accounts.models import User

DEMO_ADMIN_USERNAME = "admin"


def user_update_settings(*, user: User, display_name: str, time_zone: str) -> User:
    user.display_name = display_name
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
