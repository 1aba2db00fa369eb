"""Open sockets follow the session they were opened with.

A socket is authorised once, when it opens, with the browser's session. Pages and
the API ask again on every request, so without more a socket kept its user's
authority after a logout, a password change elsewhere or a deactivation. So:

- every socket of a signed-in person listens on ``user_group(user_id)``;
- a logout tells the sockets of that one session to close (``session.ended`` with
  the session's tag); a change to the account (password, active flag, deletion)
  asks all its sockets to check their session again (``session.check``), and those
  whose session no longer signs the person in close themselves;
- a socket checks its session again before every move and chat (``signed_in_user``).

Nothing here imports the games: the consumers call ``signed_in_user`` and handle
the two events. The announcements are sent after commit, and a failed one is
logged (the check before every move and chat still holds).
"""

from __future__ import annotations

import hashlib
import logging
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import auth
from django.db import transaction

from accounts.models import User

logger = logging.getLogger(__name__)

CLOSE_SIGNED_OUT = 4401  # the WebSocket close code a socket gets when its session ends


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def session_tag(session_key: str | None) -> str:
    """A name for a session that can cross the channel layer (the key itself must not)."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:24]


def signed_in_user(session_key: str | None) -> User | None:
    """Who the session signs in now, read afresh from the session store: None for a
    session that ended (logout, expiry), whose password hash no longer matches (a
    password change elsewhere), or whose user may not sign in (deactivated)."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    # django.contrib.auth.get_user reads only ``request.session``: the same checks as
    # every page request (the backend, the session's password hash, is_active).
    user = auth.get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return user if isinstance(user, User) and user.is_authenticated else None


def _send(user_id: int, message: dict[str, Any]) -> None:
    def send() -> None:
        try:
            layer = get_channel_layer()
            if layer is not None:
                async_to_sync(layer.group_send)(user_group(user_id), message)
        except Exception:
            # The check before every move and chat still holds; this only makes it prompt.
            logger.exception("could not tell user %s's sockets to %s", user_id, message["type"])

    transaction.on_commit(send)


def end_session_sockets(*, user_id: int, session_key: str | None) -> None:
    """After a logout: the sockets opened with that session close."""
    _send(user_id, {"type": "session.ended", "session": session_tag(session_key)})


def recheck_user_sockets(*, user_id: int) -> None:
    """After a change to the account: every socket of the user checks its session."""
    _send(user_id, {"type": "session.check"})
