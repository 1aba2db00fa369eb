"""Helpers for the notification tests: mailboxes that read what was really sent (the
file outbox, and a real SMTP server), and playing a match to someone's turn."""

from __future__ import annotations

import asyncio
import re
import threading
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from django.utils import timezone

from accounts.models import User
from games.live import presence
from games.models import Match, Seat
from games.notify import services
from tests.games.helpers import on_turn, seat, until_turn_passes
from tests.mail import body_of, mails

SITE_URL = "https://boom.example"


class Mailbox(Protocol):
    def mails(self) -> list[Message]: ...


class Outbox:
    """The file outbox (``boomsite.mail.OutboxBackend``): one .eml file per email."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def mails(self) -> list[Message]:
        return mails(self.folder) if self.folder.exists() else []


class SmtpServer:
    """An aiosmtpd handler keeping every message it accepted. With ``stall_first``, the
    first delivery waits at RCPT (before the message is transferred) until ``release``
    is set, so a test can kill the sender mid-send."""

    def __init__(self, *, stall_first: bool = False) -> None:
        self.received: list[bytes] = []
        self.stall_first = stall_first
        self.stalled = threading.Event()
        self.release = threading.Event()

    # aiosmtpd's hook names.
    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.stall_first and not self.stalled.is_set():
            self.stalled.set()
            await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 60)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(envelope.original_content or envelope.content)
        return "250 Message accepted for delivery"

    def mails(self) -> list[Message]:
        return [message_from_bytes(raw) for raw in list(self.received)]


def html_of(mail: Message) -> str:
    part = next(part for part in mail.walk() if part.get_content_type() == "text/html")
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode().replace("\r\n", "\n")


def text_of(mail: Message) -> str:
    """The plain-text part, with the line ends SMTP puts in (CRLF) read as the outbox's."""
    return body_of(mail).replace("\r\n", "\n")


def links_in(text: str) -> list[str]:
    return re.findall(r"https?://[^\s\"'<>]+", text)


def to(mail: Message) -> str:
    return header(mail, "To")


def header(mail: Message, name: str) -> str:
    """A header's value unfolded (a long one, like List-Unsubscribe, is folded onto a
    continuation line on the wire, RFC 5322)."""
    return " ".join(str(mail[name]).split())


def seat_of(match: Match, user: User) -> Seat:
    return Seat.objects.select_related("user").get(match=match, user=user)


def until_turn_of(match: Match, user: User) -> None:
    """Play the others' turns until ``user`` is on turn."""
    while seat(match, on_turn(match)).user != user:
        until_turn_passes(match)


def at_the_table(match: Match, user: User) -> None:
    """``user`` has the match open now (as their socket records it)."""
    async_to_sync(presence.record)(match.pk, "a-socket", "seat-0", user.pk)


def sweep() -> dict[str, int]:
    return services.sweep(timezone.now())
