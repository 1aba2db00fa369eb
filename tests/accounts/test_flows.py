"""Every account flow end to end, with links read from the email outbox files."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import Message
from pathlib import Path

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from tests.mail import body_of, mails

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery 42"


@pytest.fixture
def outbox(settings: Settings, tmp_path: Path) -> Path:
    """The real file outbox backend (the embedded default), in a folder of the test's own."""
    settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
    return tmp_path / "mail"


def link_in(mail: Message, pattern: str) -> str:
    match = re.search(r"https?://[^/\s]+(" + pattern + r")", body_of(mail))
    assert match, f"no link matching {pattern} in: {body_of(mail)}"
    return match.group(1)


def sign_up(client: Client, username: str = "ann", email: str = "ann@example.com") -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def test_signup_verification_login_logout_and_password_reset(client: Client, outbox: Path) -> None:
    sign_up(client)
    user = User.objects.get(username="ann")
    assert not user.is_bot

    # Unverified: logging in is refused until the emailed link is followed.
    client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    assert "_auth_user_id" not in client.session

    [verification] = mails(outbox)
    assert verification["To"] == "ann@example.com"
    confirm_path = link_in(verification, r"/accounts/confirm-email/[^\s]+/")
    assert client.get(confirm_path).status_code == 200
    response = client.post(confirm_path)
    assert response.status_code == 302
    assert user.emailaddress_set.get().verified  # type: ignore[attr-defined]

    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session

    response = client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    client.post("/accounts/logout/")

    # Password reset through the outbox.
    response = client.post("/accounts/password/reset/", {"email": "ann@example.com"})
    assert response.status_code == 302
    reset = mails(outbox)[-1]
    reset_path = link_in(reset, r"/accounts/password/reset/key/[^\s]+/")
    response = client.get(reset_path)
    assert response.status_code == 302  # allauth moves the key out of the URL first
    new_password = "a brand new secret 77"
    response = client.post(response["Location"], {"password1": new_password, "password2": new_password})
    assert response.status_code == 302

    assert client.post("/accounts/login/", {"login": "ann", "password": PASSWORD}).status_code == 200
    assert "_auth_user_id" not in client.session
    response = client.post("/accounts/login/", {"login": "ann@example.com", "password": new_password})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_a_lost_verification_email_is_sent_again_by_logging_in_as_the_page_says(
    client: Client, outbox: Path
) -> None:
    sign_up(client)
    assert (
        "logging in with your username and password sends a fresh link"
        in client.get("/accounts/confirm-email/").content.decode()
    )
    assert "contact us" not in client.get("/accounts/password/reset/").content.decode().lower()
    with time_machine.travel(timezone.now() + timedelta(minutes=4)):
        client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    _first, again = mails(outbox)
    assert again["To"] == "ann@example.com" and "/accounts/confirm-email/" in body_of(again)


def test_each_email_is_one_readable_file(outbox: Path, client: Client) -> None:
    sign_up(client, "bo", "bo@example.com")
    sign_up(Client(), "cy", "cy@example.com")
    files = sorted(outbox.glob("*.eml"))
    assert len(files) == 2
    assert [mail["To"] for mail in mails(outbox)] == ["bo@example.com", "cy@example.com"]
    assert "Subject: [Boomsite]" in files[0].read_text()


def test_usernames_of_the_bots_form_cannot_be_taken(client: Client, outbox: Path) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "bot-sneaky", "email": "s@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "kept for the site" in response.content.decode()
    assert not User.objects.filter(username="bot-sneaky").exists()


@pytest.mark.parametrize(
    ("sent", "kept"),
    [("Europe/Berlin", "Europe/Berlin"), ("Mars/Olympus", "UTC"), ("localtime", "UTC"), (None, "UTC")],
)
def test_an_account_starts_in_the_time_zone_its_browser_sent(
    client: Client, outbox: Path, sent: str | None, kept: str
) -> None:
    """The sign-up page's script sends the browser's zone (static/js/time_zone.js); one the
    site does not offer, or none, leaves UTC (issue 34, item 8)."""
    form = {"username": "zed", "email": "z@example.com", "password1": PASSWORD, "password2": PASSWORD}
    client.post("/accounts/signup/", {**form, **({"time_zone": sent} if sent else {})})
    assert User.objects.get(username="zed").time_zone == kept


def test_failed_logins_are_rate_limited(client: Client, outbox: Path) -> None:
    sign_up(client)
    User.objects.get(username="ann").emailaddress_set.update(verified=True)  # type: ignore[attr-defined]
    for _ in range(5):
        client.post("/accounts/login/", {"login": "ann", "password": "wrong"})
    response = client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    # Even the right password is refused while the limit holds.
    assert "_auth_user_id" not in client.session
    assert response.status_code in (200, 429)
    assert "Too many failed login attempts" in response.content.decode()


def test_signups_are_rate_limited_per_address(client: Client, outbox: Path) -> None:
    refused = None
    for number in range(12):
        username = f"player{number}"
        response = client.post(
            "/accounts/signup/",
            {
                "username": username,
                "email": f"{username}@example.com",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        if response.status_code == 429:
            refused = username
            break
        assert response.status_code == 302
        client.post("/accounts/logout/")
    assert refused is not None, "twelve signups from one address in a row were all accepted"
    assert not User.objects.filter(username=refused).exists()
    assert "Too many requests" in response.content.decode()
