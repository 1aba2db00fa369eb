"""Pages of notifications (games/notify/views.py): the one-click unsubscribe, which a
POST from a mail client does without a login and a GET never does, and vacation from
the account page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import signing
from django.test import Client
from django.utils import timezone

from accounts.models import Notify, User
from games.models import Match
from games.notify import tokens
from tests.games.helpers import logged_in, on_turn, seat
from tests.games.notify.helpers import Outbox, header, sweep

pytestmark = pytest.mark.django_db

ONE_CLICK = {"List-Unsubscribe": "One-Click"}  # the body RFC 8058 has mail clients send


def link_path(token: str) -> str:
    return f"/notify/unsubscribe/{token}/"


def preferences(user: User) -> tuple[str, str, str]:
    user.refresh_from_db()
    return (user.notify_turn, user.notify_invitation, user.notify_game_over)


def test_the_link_in_a_real_email_unsubscribes_by_post_without_a_login(
    outbox: Outbox, clocked: Match
) -> None:
    waiting = seat(clocked, on_turn(clocked))
    assert waiting.user is not None and waiting.nudge_at is not None
    with time_machine.travel(waiting.nudge_at + timedelta(seconds=1), tick=False):
        sweep()
    (mail,) = outbox.mails()
    found = re.match(r"<https://boom\.example(/notify/unsubscribe/[^>]+/)>", header(mail, "List-Unsubscribe"))
    assert found
    mail_client = Client(enforce_csrf_checks=True)  # no session, no CSRF token: a mail client

    page = mail_client.get(found.group(1))
    assert page.status_code == 200
    assert "Stop “your turn” and “about to lose on time” emails" in page.content.decode()
    assert preferences(waiting.user) == ("each", "each", "each")  # a GET (a mail scanner) changes nothing

    done = mail_client.post(found.group(1), ONE_CLICK)
    assert done.status_code == 200 and "Done: no more" in done.content.decode()
    assert preferences(waiting.user) == ("off", "each", "each")
    assert mail_client.post(found.group(1), ONE_CLICK).status_code == 200  # again: still off, no error


@pytest.mark.parametrize(
    ("kind", "after"),
    [
        ("turn", ("off", "digest", "each")),
        ("alarm", ("off", "digest", "each")),  # the alarm follows the "your turn" choice
        ("invitation", ("each", "off", "each")),
        ("game_over", ("each", "digest", "off")),
        ("digest", ("each", "off", "each")),  # every kind set to the digest
    ],
)
def test_each_kind_of_link_turns_off_its_own_kind(ann: User, kind: str, after: tuple[str, str, str]) -> None:
    User.objects.filter(pk=ann.pk).update(notify_invitation=Notify.DIGEST)
    asked = Client().get(link_path(tokens.make(ann.pk, kind))).content.decode()
    done = Client().post(link_path(tokens.make(ann.pk, kind)))
    assert done.status_code == 200
    assert preferences(ann) == after
    # The pages offer a daily digest instead only for kinds that can come as one.
    offers_digest = kind in ("turn", "alarm", "invitation")
    for page in (asked, done.content.decode()):
        assert ("choose a daily digest" in page) == offers_digest, kind


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        signing.dumps({"user": 1, "kind": "turn"}, salt="another.purpose"),  # signed for something else
        signing.dumps({"user": 1, "kind": "everything"}, salt=tokens.SALT),  # no such kind
        signing.dumps({"user": 99999, "kind": "turn"}, salt=tokens.SALT),  # no such person
    ],
    # Named, not shown: a signature differs between xdist workers (each its own key).
    ids=["nonsense", "another-purpose", "no-such-kind", "no-such-person"],
)
def test_a_bad_link_is_refused_clearly_and_changes_nothing(ann: User, token: str) -> None:
    for method in ("get", "post"):
        response = getattr(Client(), method)(link_path(token))
        assert response.status_code == 400
        assert "This unsubscribe link is not valid" in response.content.decode()
    assert preferences(ann) == ("each", "each", "each")


def test_a_link_changed_by_one_character_is_refused(ann: User) -> None:
    token = tokens.make(ann.pk, "turn")
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert Client().post(link_path(tampered)).status_code == 400
    # Another person's id in the payload, the signature kept: refused too.
    _payload, signature = token.split(":", 1)
    other = signing.b64_encode(b'{"user":2,"kind":"turn"}').decode()
    assert Client().post(link_path(f"{other}:{signature}")).status_code == 400
    assert preferences(ann) == ("each", "each", "each")


# -- vacation from the account page --------------------------------------------------


def test_the_account_page_shows_the_bank_and_takes_a_vacation_and_a_return(ann: User) -> None:
    client = logged_in(ann)
    page = client.get("/accounts/settings/").content.decode()
    assert (
        f"You have <strong>{settings.VACATION_DAYS_PER_YEAR} days</strong> of vacation left this year" in page
    )
    assert 'action="/notify/vacation/begin"' in page

    response = client.post("/notify/vacation/begin", {"days": "3"}, follow=True)
    page = response.content.decode()
    assert "Enjoy your vacation" in page and "You are on vacation until" in page
    ann.refresh_from_db()
    assert ann.on_vacation(timezone.now()) and ann.vacation_days_left == settings.VACATION_DAYS_PER_YEAR - 3

    page = client.post("/notify/vacation/end", follow=True).content.decode()
    assert "Welcome back" in page
    ann.refresh_from_db()
    assert ann.vacation_until is None
    # The day begun is spent; the two not begun go back to the bank.
    assert ann.vacation_days_left == settings.VACATION_DAYS_PER_YEAR - 1


@pytest.mark.parametrize(
    ("days", "error"),
    [
        ("", "Say how many days you will be away"),
        ("soon", "Say how many days you will be away"),
        ("0", "Say how many days you will be away"),
        ("99", f"Choose between 1 and {settings.VACATION_DAYS_PER_YEAR} days of vacation."),
    ],
)
def test_a_bad_vacation_shows_the_error_and_changes_nothing(ann: User, days: str, error: str) -> None:
    response = logged_in(ann).post("/notify/vacation/begin", {"days": days}, follow=True)
    assert error in response.content.decode()
    ann.refresh_from_db()
    assert ann.vacation_until is None and ann.vacation_days_left == settings.VACATION_DAYS_PER_YEAR


def test_vacation_needs_a_login_and_a_post(ann: User) -> None:
    assert Client().post("/notify/vacation/begin", {"days": "2"}).status_code == 302
    assert logged_in(ann).get("/notify/vacation/begin").status_code == 405
    ann.refresh_from_db()
    assert ann.vacation_until is None
