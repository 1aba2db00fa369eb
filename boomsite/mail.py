"""EMAIL_URL parsing and the file outbox used by the embedded default.

EMAIL_URL forms: ``smtp://user:pass@host:587?tls=true``, ``smtps://user:pass@host:465``,
``file:///path/to/outbox``, ``console://``, ``locmem://``. Empty means the outbox
under var/mail/: one ``.eml`` file per email, readable with any text editor.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

_TRUE = {"1", "true", "yes", "on"}


def email_settings(url: str, default_outbox: Path) -> dict[str, Any]:
    if not url:
        return {"EMAIL_BACKEND": "boomsite.mail.OutboxBackend", "EMAIL_OUTBOX_DIR": default_outbox}
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    if parts.scheme == "file":
        return {"EMAIL_BACKEND": "boomsite.mail.OutboxBackend", "EMAIL_OUTBOX_DIR": Path(parts.path)}
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme == "locmem":
        return {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    if parts.scheme in {"smtp", "smtps"}:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtps" else 25),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_SSL": parts.scheme == "smtps",
            "EMAIL_USE_TLS": query.get("tls", "").lower() in _TRUE,
            "EMAIL_TIMEOUT": 10,
        }
    raise ValueError(f"EMAIL_URL scheme {parts.scheme!r} is not one of smtp, smtps, file, console, locmem")


class OutboxBackend(BaseEmailBackend):
    """Writes each message to its own file: ``<UTC time>-<pid>-<n>.eml``."""

    _counter = itertools.count()

    def __init__(self, fail_silently: bool = False, **kwargs: Any) -> None:
        super().__init__(fail_silently=fail_silently)
        self.outbox = Path(kwargs.get("outbox_dir") or getattr(settings, "EMAIL_OUTBOX_DIR"))  # noqa: B009  (a setting of ours, unknown to django-stubs)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        self.outbox.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%f")
            name = f"{stamp}-{os.getpid()}-{next(self._counter)}.eml"
            temporary = self.outbox / f".{name}.tmp"
            # Written under a hidden name, then renamed: a reader never sees half a mail.
            temporary.write_bytes(message.message().as_bytes())
            temporary.rename(self.outbox / name)
            sent += 1
        return sent
