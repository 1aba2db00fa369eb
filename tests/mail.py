"""Reading the email a test caused: the file outbox's messages and their text."""

from __future__ import annotations

from email import message_from_bytes
from email.message import Message
from pathlib import Path


def mails(outbox: Path) -> list[Message]:
    """Every message in a file outbox folder (``boomsite.mail.OutboxBackend``), oldest first."""
    return [message_from_bytes(path.read_bytes()) for path in sorted(outbox.glob("*.eml"))]


def body_of(mail: Message) -> str:
    """The plain-text body of a message, multipart or not."""
    if mail.is_multipart():
        part = next(part for part in mail.walk() if part.get_content_type() == "text/plain")
        payload = part.get_payload(decode=True)
    else:
        payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()
