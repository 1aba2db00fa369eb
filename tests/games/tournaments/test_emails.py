"""The "your table is ready" emails of a new round (games/tournaments/emails.py, through
games/notify's ``table_ready_notice``): one per person and table, through a real SMTP
server and the file outbox, following the person's invitation choice, and once however
often the round's task runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import Notify, User
from games.notify import services as notify_services
from games.notify.models import Notice
from games.tournaments import services
from games.tournaments.emails import round_seated_emails
from games.tournaments.models import Round, Tournament
from tests.games.notify.helpers import (
    SITE_URL,
    Mailbox,
    Outbox,
    SmtpServer,
    header,
    html_of,
    links_in,
    text_of,
    to,
)
from tests.games.tournaments.helpers import enter, make_tournament, table_done, tables_of
from tests.processes import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def public_address(settings: Settings) -> None:
    settings.SITE_URL = SITE_URL


@pytest.fixture(params=["outbox", "smtp"])
def mailbox(request: pytest.FixtureRequest, settings: Settings, tmp_path: Path) -> Iterator[Mailbox]:
    """Each test using it runs twice: through the file outbox and a real SMTP server."""
    if request.param == "outbox":
        settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
        settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
        yield Outbox(tmp_path / "mail")
        return
    server = SmtpServer()
    controller = Controller(server, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    try:
        yield server
    finally:
        controller.stop()


@pytest.fixture
def organiser(make_person: Callable[..., User]) -> User:
    return make_person("organiser", is_staff=True)


@pytest.fixture
def people(make_person: Callable[..., User]) -> list[User]:
    return [make_person(f"player{number}", display_name=f"Player {number}") for number in range(1, 4)]


def started(tournament: Tournament) -> Round:
    services.tournament_start(tournament_id=tournament.pk)
    return Round.objects.get(tournament=tournament, number=1)


def test_each_person_seated_gets_one_email_and_bots_none(
    mailbox: Mailbox, organiser: User, people: list[User]
) -> None:
    # Three people and a basic bot filling the fourth place: two tables of two.
    tournament = make_tournament(organiser, name="Autumn Cup", bot_fill_level="basic", max_entrants=4)
    enter(tournament, people)
    round_1 = started(tournament)
    assert tournament.entries.filter(bot_number__isnull=False).count() == 1

    assert round_seated_emails(round_id=round_1.pk) == 3
    mails = mailbox.mails()
    assert sorted(to(mail) for mail in mails) == [person.email for person in people]
    mail = next(mail for mail in mails if to(mail) == people[0].email)
    table = next(table for table in tables_of(tournament, 1) if any(
        entry.user == people[0] for entry in tournament.entries.filter(pk__in=table.entries)
    ))  # fmt: skip
    assert header(mail, "Subject") == "[Boomsite] Your table is ready: round 1 of Autumn Cup"
    text = text_of(mail)
    assert "Your table for round 1 of Autumn Cup is ready: Go Fox! with" in text
    assert "1 hour per turn" in text
    assert f"Go to your table: {SITE_URL}/matches/{table.match_id}/" in text
    assert f'href="{SITE_URL}/matches/{table.match_id}/"' in html_of(mail)
    assert all(link.startswith(SITE_URL) for link in links_in(text) + links_in(html_of(mail)))
    assert header(mail, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
    assert header(mail, "Auto-Submitted") == "auto-generated"
    notices = Notice.objects.filter(kind=Notice.Kind.TABLE)
    assert notices.count() == 3 and set(notices.values_list("status", flat=True)) == {Notice.Status.SENT}


def test_running_the_round_twice_sends_nothing_more(
    mailbox: Mailbox, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:2])
    round_1 = started(tournament)
    assert round_seated_emails(round_id=round_1.pk) == 2
    assert round_seated_emails(round_id=round_1.pk) == 0
    assert len(mailbox.mails()) == 2
    assert Notice.objects.filter(kind=Notice.Kind.TABLE).count() == 2


def test_the_next_round_is_a_new_email(
    mailbox: Mailbox, organiser: User, make_person: Callable[..., User]
) -> None:
    players = [make_person(f"p{number}") for number in range(4)]
    tournament = make_tournament(organiser)
    enter(tournament, players)
    round_1 = started(tournament)
    assert round_seated_emails(round_id=round_1.pk) == 4
    for table in tables_of(tournament, 1):
        table_done(table)
    round_2 = Round.objects.get(tournament=tournament, number=2)
    assert round_seated_emails(round_id=round_2.pk) == 2  # the final's two players
    assert sum("round 2" in header(mail, "Subject") for mail in mailbox.mails()) == 2


@pytest.mark.parametrize(
    ("choice", "sent"), [(Notify.OFF, 0), (Notify.DIGEST, 1), (Notify.EACH, 1)], ids=["off", "digest", "each"]
)
def test_the_email_follows_the_invitation_choice(
    mailbox: Mailbox, organiser: User, people: list[User], choice: str, sent: int
) -> None:
    """**Decision**: a table follows the invitation choice, and goes at once also to a
    person on the digest (the table's clock runs from the seating)."""
    chooser, other = people[:2]
    User.objects.filter(pk=chooser.pk).update(notify_invitation=choice)
    tournament = make_tournament(organiser)
    enter(tournament, [chooser, other])
    round_1 = started(tournament)
    assert round_seated_emails(round_id=round_1.pk) == 1 + sent
    assert sum(to(mail) == chooser.email for mail in mailbox.mails()) == sent
    notice = Notice.objects.get(kind=Notice.Kind.TABLE, user=chooser)
    if sent:
        assert notice.status == Notice.Status.SENT
    else:
        assert notice.status == Notice.Status.DROPPED and notice.note == "invitation emails are off"
    assert round_seated_emails(round_id=round_1.pk) == 0  # decided once


def test_a_person_on_vacation_gets_none(mailbox: Mailbox, organiser: User, people: list[User]) -> None:
    away, other = people[:2]
    User.objects.filter(pk=away.pk).update(vacation_until=timezone.now() + timedelta(days=2))
    tournament = make_tournament(organiser)
    enter(tournament, [away, other])
    assert round_seated_emails(round_id=started(tournament).pk) == 1
    assert [to(mail) for mail in mailbox.mails()] == [other.email]


def test_a_cancelled_tournament_tells_nobody(mailbox: Mailbox, organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:2])
    round_1 = started(tournament)
    services.tournament_cancel(tournament_id=tournament.pk, because="Rain.")
    assert round_seated_emails(round_id=round_1.pk) == 0
    assert round_seated_emails(round_id=10**6) == 0
    assert mailbox.mails() == []


def test_the_unsubscribe_link_turns_off_the_invitations_it_follows(
    mailbox: Mailbox, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:2])
    round_seated_emails(round_id=started(tournament).pk)
    mail = next(mail for mail in mailbox.mails() if to(mail) == people[0].email)
    link = header(mail, "List-Unsubscribe").strip("<>")
    assert "invitation and “your tournament table is ready” emails" in text_of(mail)
    path = link.removeprefix(SITE_URL)
    assert "Stop invitation and" in Client().get(path).content.decode()
    assert Client().post(path).status_code == 200
    people[0].refresh_from_db()
    assert people[0].notify_invitation == Notify.OFF


def test_a_table_email_the_mail_server_refused_is_sent_again_the_same(
    settings: Settings, tmp_path: Path, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, people[:2])
    round_1 = started(tournament)
    # Nothing listens there: the mail server is down.
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    assert round_seated_emails(round_id=round_1.pk) == 0
    claimed = list(Notice.objects.filter(kind=Notice.Kind.TABLE, status=Notice.Status.CLAIMED))
    assert len(claimed) == 2 and {notice.about for notice in claimed} == {"round 1 of Autumn Cup"}

    outbox = Outbox(tmp_path / "mail")
    settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
    with time_machine.travel(timezone.now() + notify_services.RETRY_AFTER + timedelta(seconds=1)):
        counts = notify_services.sweep(timezone.now())
    assert counts == {"retry sent": 2}
    assert (
        sorted(header(mail, "Subject") for mail in outbox.mails())
        == ["[Boomsite] Your table is ready: round 1 of Autumn Cup"] * 2
    )
    assert round_seated_emails(round_id=round_1.pk) == 0
