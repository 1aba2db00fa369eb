"""The devices a person gets pushes on, and which kinds they want: the writes of the
account page's "Notifications on this device", and its reads.

A subscription comes from the browser (``PushSubscription.toJSON()``), through a
signed-in page's script: an endpoint at a push service and two keys. It is checked
strictly before anything is written: the site will POST to that endpoint, so it must be
HTTPS at one of the push services the site knows (``settings.WEB_PUSH_SERVICES``),
never an address of the site's own network, and the keys must be a real P-256 point and
a 16-byte secret, or no push could ever be encrypted for it.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.notify.models import PushChoices, PushSubscription

# A person's devices: a subscription past this many replaces their least recently used.
MAX_DEVICES = 10
ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length or 0
USER_AGENT_MAX = PushSubscription._meta.get_field("user_agent").max_length or 0
# The kinds of push a person chooses, as the account page names them.
KINDS = ("turn", "invitation", "table")


class BadSubscription(ValueError):
    """What the browser sent is not a subscription the site can push to (the message says why)."""


def push_enabled() -> bool:
    """Whether this site can push at all: it has a VAPID key (README: Configuration)."""
    return bool(settings.VAPID_PRIVATE_KEY)


def b64url_decode(text: str) -> bytes:
    """Base64url, with or without its padding; raises ``ValueError`` for anything else."""
    if not text or any(char not in _B64URL for char in text.rstrip("=")):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error as error:
        raise ValueError(str(error)) from None


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass(frozen=True)
class Subscription:
    """A browser's subscription, checked."""

    endpoint: str
    p256dh: str
    auth: str


def push_service_allowed(endpoint: str) -> bool:
    """Whether the site may POST pushes to ``endpoint``: HTTPS, the default port or an
    explicit one, no user name or password, on one of ``WEB_PUSH_SERVICES`` (a host, or
    a subdomain of one)."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (reading it checks the port is a number)
    except ValueError:
        return False
    if parts.scheme != "https" or not host or parts.username or parts.password or parts.fragment:
        return False
    return any(host == service or host.endswith("." + service) for service in settings.WEB_PUSH_SERVICES)


def subscription_from_json(data: Any) -> Subscription:
    """The subscription in ``data`` (``{"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}``,
    what ``PushSubscription.toJSON()`` gives); raises ``BadSubscription`` saying what is wrong."""
    if not isinstance(data, dict):
        raise BadSubscription("Send the subscription as a JSON object.")
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or not endpoint:
        raise BadSubscription("The subscription has no endpoint.")
    if len(endpoint) > ENDPOINT_MAX:
        raise BadSubscription(f"The endpoint is too long ({ENDPOINT_MAX} characters at most).")
    if not push_service_allowed(endpoint):
        raise BadSubscription("The endpoint is not an HTTPS address of a push service this site knows.")
    if not isinstance(keys, dict):
        raise BadSubscription("The subscription has no keys.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str):
        raise BadSubscription("The subscription's keys need p256dh and auth, as base64url text.")
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("not an uncompressed point")
    except ValueError:
        raise BadSubscription("The p256dh key is not a P-256 public key (65 bytes, base64url).") from None
    try:
        secret = b64url_decode(auth)
    except ValueError:
        secret = b""
    if len(secret) != 16:
        raise BadSubscription("The auth secret is not 16 bytes, base64url.")
    return Subscription(endpoint=endpoint, p256dh=p256dh.rstrip("="), auth=auth.rstrip("="))


# -- writes ---------------------------------------------------------------------------


@transaction.atomic
def device_subscribe(*, user: User, subscription: Subscription, user_agent: str = "") -> PushSubscription:
    """Keep ``subscription`` as one of ``user``'s devices. The same endpoint again (the page
    posts it on every visit) updates its keys; an endpoint another person had (one browser,
    a new person signed in) becomes this person's: a browser's pushes go to whoever turned
    them on last. A person's devices past ``MAX_DEVICES``: the least recently used goes."""
    if user.is_bot or not user.is_active:
        raise BadSubscription("This account gets no notifications.")
    now = timezone.now()
    device, _ = PushSubscription.objects.update_or_create(
        endpoint=subscription.endpoint,
        defaults={
            "user": user,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "user_agent": user_agent[:USER_AGENT_MAX],
        },
        create_defaults={
            "user": user,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "user_agent": user_agent[:USER_AGENT_MAX],
            "created_at": now,
        },
    )
    others = PushSubscription.objects.filter(user=user).exclude(pk=device.pk)
    extra = others.order_by("-last_success_at", "-created_at").values_list("pk", flat=True)[MAX_DEVICES - 1 :]
    PushSubscription.objects.filter(pk__in=list(extra)).delete()
    return device


def device_unsubscribe(*, user: User, endpoint: str) -> bool:
    """Forget ``user``'s device at ``endpoint``; False if they had none there (nothing changes)."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def device_remove(*, user: User, device_id: int) -> bool:
    """Forget one of ``user``'s devices by its id (the account page's list); False if not theirs."""
    deleted, _ = PushSubscription.objects.filter(user=user, pk=device_id).delete()
    return bool(deleted)


def push_choices_update(*, user: User, turn: bool, invitation: bool, table: bool) -> PushChoices:
    choices, _ = PushChoices.objects.update_or_create(
        user=user, defaults={"turn": turn, "invitation": invitation, "table": table}
    )
    return choices


# -- reads ----------------------------------------------------------------------------


def push_choices_of(user: User) -> PushChoices:
    """``user``'s choices, the defaults (every kind) when they never chose."""
    return PushChoices.objects.filter(user=user).first() or PushChoices(user=user)


def devices_of(user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user).order_by("-created_at"))
