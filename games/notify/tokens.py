"""The one-click unsubscribe link's token: who, and which kind of email.

Signed with the site's key (``django.core.signing``, its own salt), so the token is
the authority: the link works without logging in, and a token changed by one
character is refused. It does not expire: an old email's link must still work.
"""

from __future__ import annotations

from django.core import signing

from accounts.models import User

SALT = "games.notify.unsubscribe"
# Every kind an email can be about (games.notify.models.Notice.Kind).
KINDS = ("turn", "alarm", "invitation", "game_over", "digest", "table", "started", "ended")


class BadToken(Exception):
    """The link was not made by this site, was changed, or names no active person."""


def make(user_id: int, kind: str) -> str:
    assert kind in KINDS, kind
    return signing.dumps({"user": user_id, "kind": kind}, salt=SALT)


def read(token: str) -> tuple[User, str]:
    """The person and the kind a token names; raises ``BadToken``."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        raise BadToken from None
    if not isinstance(data, dict) or data.get("kind") not in KINDS or type(data.get("user")) is not int:
        raise BadToken
    user = User.objects.filter(pk=data["user"], is_active=True, is_bot=False).first()
    if user is None:
        raise BadToken
    return user, str(data["kind"])
