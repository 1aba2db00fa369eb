"""Writes to accounts. Views and commands call these; nothing else saves a User."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from accounts.models import DEFAULT_API_SCOPES, NOTIFY_FIELDS, ApiScope, ApiToken, Notify, User
from accounts.names import display_name_checked
from accounts.sessions import recheck_user_sockets

DEMO_ADMIN_USERNAME = "admin"
DEMO_ORGANISER_USERNAME = "organiser"


def user_update_settings(*, user: User, display_name: str, time_zone: str) -> User:
    """Raises ``ValidationError`` for a name the rules refuse (``accounts.names``) or a bad time zone."""
    user.display_name = display_name_checked(display_name, user=user)
    user.time_zone = time_zone
    user.full_clean(exclude=["password"])
    # The digest's hour is in the player's zone: a new zone moves it.
    user.next_digest_at = user.next_digest_after(timezone.now())
    user.save(update_fields=["display_name", "time_zone", "next_digest_at"])
    return user


# -- email notifications (games/notify) ------------------------------------------


def user_update_notifications(
    *, user: User, turn: str, invitation: str, game_over: str, digest_hour: int
) -> User:
    """Set how the player wants each kind of email and the digest's hour (0-23, in their
    time zone). Raises ``ValidationError`` for a value outside the choices, before
    anything changes."""
    choices = {"turn": turn, "invitation": invitation, "game_over": game_over}
    for name, value in choices.items():
        allowed = [Notify.EACH, Notify.OFF] if name == "game_over" else list(Notify)
        if value not in allowed:
            raise ValidationError(f"{value!r} is not a choice for {name.replace('_', ' ')} emails.")
    if type(digest_hour) is not int or not 0 <= digest_hour <= 23:
        raise ValidationError("The digest's hour is a whole hour from 0 to 23.")
    for name, value in choices.items():
        setattr(user, NOTIFY_FIELDS[name], value)
    user.digest_hour = digest_hour
    user.next_digest_at = user.next_digest_after(timezone.now())
    user.save(update_fields=[*NOTIFY_FIELDS.values(), "digest_hour", "next_digest_at"])
    return user


def user_notification_off(*, user: User, name: str) -> User:
    """Turn off one kind of email (``NOTIFY_FIELDS``): the one-click unsubscribe. Only
    that field is written, so a settings page saved at the same moment keeps the rest."""
    if name not in NOTIFY_FIELDS:
        raise ValidationError(f"There are no {name!r} emails.")
    setattr(user, NOTIFY_FIELDS[name], Notify.OFF)
    user.next_digest_at = user.next_digest_after(timezone.now())
    user.save(update_fields=[NOTIFY_FIELDS[name], "next_digest_at"])
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


@transaction.atomic
def demo_organiser_create_once(*, group_name: str) -> str | None:
    """Create the embedded mode's organiser: staff in ``group_name`` (the tournaments'
    "Organisers"), not superuser, with a fresh password; ``None`` if it exists. As the
    demo admin, the password is returned to be printed once."""
    if User.objects.filter(username=DEMO_ORGANISER_USERNAME).exists():
        return None
    password = secrets.token_urlsafe(12)
    user = User.objects.create_user(
        username=DEMO_ORGANISER_USERNAME, email="organiser@boomsite.local", password=password, is_staff=True
    )
    user.groups.add(Group.objects.get(name=group_name))
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return password


# -- API tokens ---------------------------------------------------------------

API_TOKEN_PREFIX = "bst_"  # makes a leaked token easy to recognise in logs and scanners
MAX_API_TOKENS = 10


class TokenError(ValueError):
    pass


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _scopes_checked(scopes: Iterable[str]) -> str:
    """The scopes as stored ("play read"), or ``TokenError`` naming the unknown one."""
    chosen = set()
    for scope in scopes:
        if scope not in ApiScope.values:
            raise TokenError(
                f"There is no scope {str(scope)[:20]!r}: choose among {', '.join(ApiScope.values)}."
            )
        chosen.add(scope)
    if not chosen:
        raise TokenError("Choose what the token may do: at least one scope.")
    return " ".join(sorted(chosen))


@transaction.atomic
def api_token_create(
    *, user: User, name: str, scopes: Iterable[str] = DEFAULT_API_SCOPES
) -> tuple[ApiToken, str]:
    """A new token for ``user`` with these scopes (``ApiScope``); returns it with its
    secret, which is never stored."""
    scope_text = _scopes_checked(scopes)
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
    token = ApiToken.objects.create(
        user=user, name=name, key_hash=_token_hash(secret), prefix=secret[:8], scopes=scope_text
    )
    return token, secret


def api_token_revoke(*, user: User, token_id: int) -> None:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenError("No such token.")
    # A program's open streams check their token again and end (games/live/streams.py).
    recheck_user_sockets(user_id=user.pk)


def api_token_find(secret: str) -> ApiToken | None:
    """The token presented, if it is one of an active account that is not a house bot
    (``token.user`` read with it); notes its use."""
    if not secret.startswith(API_TOKEN_PREFIX) or len(secret) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=_token_hash(secret)).first()
    if token is None or not token.user.is_active or token.user.is_bot:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def api_token_user(secret: str) -> User | None:
    """The active, human user a presented token belongs to, or None; notes its use."""
    token = api_token_find(secret)
    return token.user if token is not None else None


# -- bot accounts for programs ---------------------------------------------------


class BotAccountError(ValueError):
    pass


def _refusal_makers() -> list[Callable[[User], str | None]]:
    return [import_string(path) for path in settings.BOT_ACCOUNT_REFUSALS]


@transaction.atomic
def user_become_bot_account(*, user: User) -> User:
    """Mark ``user``'s own account as a bot account for a program, for good (docs/api.md,
    "Bot accounts"). Refused (``BotAccountError``, nothing changed) for a house bot, an
    account that is one already, and whatever the features listed in
    ``settings.BOT_ACCOUNT_REFUSALS`` say (accounts import nothing from games: ratings
    refuses an account with rated matches, the core one in a running match).

    **Decision**, irreversible: its matches from then on are unrated and show it as a
    bot; an account that could turn back would carry a program's play into a person's
    record, and rating a rebuilt ledger (``ratings_rebuild``) by today's flag would then
    rate those matches after all."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    if locked.is_bot:
        raise BotAccountError("The house bots are bots already.")
    if locked.is_program_bot:
        raise BotAccountError("This account is a bot account already.")
    for refusal in _refusal_makers():
        reason = refusal(locked)
        if reason:
            raise BotAccountError(reason)
    locked.bot_account_since = timezone.now()
    locked.save(update_fields=["bot_account_since"])
    user.bot_account_since = locked.bot_account_since
    return user
