"""Fixtures of the notification tests: where the email goes (the file outbox or a real
SMTP server on a free port, as EMAIL_URL would set them) and clocked matches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from pytest_django.fixtures import Settings

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join
from tests.games.notify.helpers import SITE_URL, Mailbox, Outbox, SmtpServer
from tests.processes import free_port


@pytest.fixture(autouse=True)
def public_address(settings: Settings) -> None:
    settings.SITE_URL = SITE_URL


@pytest.fixture
def outbox(settings: Settings, tmp_path: Path) -> Outbox:
    settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
    return Outbox(tmp_path / "mail")


def serve_smtp(settings: Settings, server: SmtpServer) -> Iterator[SmtpServer]:
    controller = Controller(server, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 10
    try:
        yield server
    finally:
        server.release.set()
        controller.stop()


@pytest.fixture
def smtp(settings: Settings) -> Iterator[SmtpServer]:
    """A real SMTP server (aiosmtpd) the site sends to."""
    yield from serve_smtp(settings, SmtpServer())


@pytest.fixture
def stalling_smtp(settings: Settings) -> Iterator[SmtpServer]:
    """A real SMTP server whose first delivery waits at RCPT until ``release`` is set."""
    yield from serve_smtp(settings, SmtpServer(stall_first=True))


@pytest.fixture(params=["outbox", "smtp"])
def mailbox(request: pytest.FixtureRequest) -> Mailbox:
    """Each test using it runs twice: through the file outbox and through SMTP."""
    box: Mailbox = request.getfixturevalue(request.param)
    return box


@pytest.fixture
def clocked(ann: User, bob: User) -> Match:
    """Go Fox! between Ann and Bob, one hour per turn."""
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)
