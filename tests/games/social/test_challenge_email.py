"""A challenge waiting after the grace is mailed as the invitation it is, in a
challenge's words (a lobby invitation keeps its own: tests/games/notify)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from pytest_django.fixtures import Settings

from accounts.models import User
from games.social import services
from tests.games.notify.helpers import SITE_URL, Outbox, sweep, text_of, to

pytestmark = pytest.mark.django_db
GRACE = timedelta(seconds=settings.NUDGE_GRACE_SECONDS + 1)


@pytest.fixture
def outbox(settings: Settings, tmp_path: Path) -> Outbox:
    """The notification tests' file outbox, and their public address (tests/games/notify/conftest.py)."""
    settings.SITE_URL = SITE_URL
    settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
    return Outbox(tmp_path / "mail")


def test_a_challenge_s_email_says_who_challenges_you_to_what(outbox: Outbox, ann: User, bob: User) -> None:
    match = services.challenge(
        challenger=ann, challenged=bob, game_slug="go-fox", options=None, turn_limit=3600
    )
    with time_machine.travel(match.created_at + GRACE, tick=False):
        assert sweep() == {"invitation sent": 1}
    (mail,) = outbox.mails()
    assert to(mail) == bob.email
    assert mail["Subject"] == "[Boomsite] Ann challenges you to a game of Go Fox!"
    assert text_of(mail).startswith(
        "Hello Bob,\n\nAnn challenges you to a game of Go Fox! (1 hour per turn).\n"
    )
    assert f"Accept or decline: https://boom.example/matches/{match.pk}/" in text_of(mail)
