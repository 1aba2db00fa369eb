"""Every account email speaks as the site, Boomsite, not as the host a request came to (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from tests.mail import body_of, mails

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery 42"


@pytest.fixture
def outbox(settings: Settings, tmp_path: Path) -> Path:
    settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
    settings.SITE_URL = "https://boom.example"
    return tmp_path / "mail"


def test_the_signup_and_reset_emails_greet_from_boomsite_at_its_public_address(outbox: Path) -> None:
    client = Client(HTTP_HOST="127.0.0.1:8101")  # the host a local run answers on
    response = client.post(
        "/accounts/signup/",
        {"username": "ann", "email": "ann@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    client.post("/accounts/password/reset/", {"email": "ann@example.com"})
    sent = mails(outbox)
    assert len(sent) == 2
    for mail in sent:
        body = body_of(mail)
        assert body.startswith("Hello from Boomsite!"), body
        assert "Thank you for using Boomsite!\nboom.example" in body, body
        assert mail["Subject"].startswith("[Boomsite] ")
        # The request's host is only in the links (allauth builds them from the request).
        assert all(
            "127.0.0.1:8101" not in line or "http://127.0.0.1:8101/" in line for line in body.splitlines()
        )
    assert "register an account on boom.example" in body_of(sent[0])
