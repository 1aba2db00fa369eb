"""Account events that open sockets must hear about (accounts/sessions.py).

Signals, because these changes happen in Django and allauth code (logout, the
password forms, the admin's active flag) that the site does not call itself.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.models import User
from accounts.sessions import end_session_sockets, recheck_user_sockets

# Saves that can end a session's right to act: a new password, the active flag.
_ACCESS_FIELDS = {"password", "is_active"}


@receiver(user_logged_out)
def close_sockets_of_the_ended_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and request is not None:
        end_session_sockets(user_id=user.pk, session_key=request.session.session_key)


@receiver(post_save, sender=User)
def recheck_sockets_after_an_account_change(
    sender: Any, instance: User, created: bool, update_fields: Any, **kwargs: Any
) -> None:
    if created or (update_fields is not None and not _ACCESS_FIELDS & set(update_fields)):
        return  # e.g. last_login on every login
    recheck_user_sockets(user_id=instance.pk)


@receiver(post_delete, sender=User)
def recheck_sockets_after_an_account_is_deleted(sender: Any, instance: User, **kwargs: Any) -> None:
    recheck_user_sockets(user_id=instance.pk)
