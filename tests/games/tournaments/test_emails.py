"""What a tournament's entrants are told by email (games/tournaments/emails.py, through
games/notify): "your table is ready" for a new round, one per person and table; the
start, with the first table or the bye, instead of round 1's; "match over" per table
and, for the tables that end it, the end's email instead, with the place and the
winner, or that it was cancelled and why. Through a real SMTP server and the file
outbox, following the person's choices, once however often a task runs. The tasks the
code sends after its commits are run here, as a worker would (``helpers.Worker``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from email.message import Message
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
import time_machine
from aiosmtpd.controller import Controller
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import Notify, User
from games.notify import services as notify_services
from games.notify.models import Notice
from games.tournaments import services
from games.tournaments.emails import (
    round_seated_emails,
    tables_over_emails,
    tournament_ended_emails,
    tournament_started_emails,
)
from games.tournaments.models import Entry, Round, Table, Tournament
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
from tests.games.tournaments.helpers import (
    Worker,
    enter,
    entry_of,
    finish_table,
    make_tournament,
    table_done,
    tables_of,
)
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


# -- the start and the end (each person entered, once) ----------------------------------


@pytest.fixture
def worker(broker: redis.Redis, django_capture_on_commit_callbacks: Callable[..., Any]) -> Worker:
    """Runs the tasks the code sends after its commits (the queue itself is emptied by
    ``broker``: no worker process reads it here)."""
    return Worker(django_capture_on_commit_callbacks)


def mail_to(mailbox: Mailbox, person: User) -> list[Message]:
    return [mail for mail in mailbox.mails() if to(mail) == person.email]


def entry_of_person(tournament: Tournament, person: User) -> Entry:
    return tournament.entries.get(user=person, bot_number__isnull=True)


def table_of(tournament: Tournament, round_number: int, person: User) -> Table:
    entry = entry_of_person(tournament, person)
    return next(table for table in tables_of(tournament, round_number) if entry.pk in table.entries)


def test_the_start_tells_each_person_their_first_table_in_one_email(
    mailbox: Mailbox, worker: Worker, organiser: User, people: list[User]
) -> None:
    """**Decision**: round 1's "your table is ready" is the start's email, not a second
    one in the same second. Bots get none."""
    tournament = make_tournament(organiser, name="Autumn Cup", bot_fill_level="basic", max_entrants=4)
    enter(tournament, people)
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    assert worker.names() == ["tournament_started"]  # no round_seated for round 1
    mails = mailbox.mails()
    assert sorted(to(mail) for mail in mails) == sorted(person.email for person in people)
    table = table_of(tournament, 1, people[0])
    (mail,) = mail_to(mailbox, people[0])
    assert header(mail, "Subject") == "[Boomsite] Autumn Cup has started: your table is ready"
    text = text_of(mail)
    assert "Autumn Cup (Go Fox!) has started, with 4 entrants." in text
    others = [
        entry.display_name for entry in Entry.objects.filter(pk__in=table.entries).exclude(user=people[0])
    ]
    assert (
        f"Your first table is ready: round 1, table {table.number}, with {others[0]} (1 hour per turn)."
        in text
    )
    assert f"Go to your table: {SITE_URL}/matches/{table.match_id}/" in text
    assert f"See the tournament: {SITE_URL}/tournaments/{tournament.pk}/" in text
    assert f'href="{SITE_URL}/matches/{table.match_id}/"' in html_of(mail)
    assert all(link.startswith(SITE_URL) for link in links_in(text) + links_in(html_of(mail)))
    assert "Stop invitation, “tournament started” and “your tournament table is ready” emails" in text
    assert header(mail, "Auto-Submitted") == "auto-generated"
    assert Notice.objects.filter(kind=Notice.Kind.TABLE).count() == 0
    assert Notice.objects.filter(kind=Notice.Kind.STARTED, status=Notice.Status.SENT).count() == 3
    # The task run again (a broker's second delivery) sends nothing more.
    assert tournament_started_emails(tournament_id=tournament.pk) == 0
    assert len(mailbox.mails()) == 3


def test_a_bye_in_round_1_is_said_in_the_start_email(
    mailbox: Mailbox, worker: Worker, organiser: User, people: list[User]
) -> None:
    # Three in pairs, single elimination: a bracket of four, one bye.
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, people)
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    (bye,) = Round.objects.get(tournament=tournament, number=1).byes
    resting = Entry.objects.get(pk=bye).user
    (mail,) = mail_to(mailbox, resting)
    assert header(mail, "Subject") == "[Boomsite] Autumn Cup has started: you have a bye in round 1"
    assert "You have a bye in round 1: you play no table this round." in text_of(mail)
    assert "/matches/" not in text_of(mail)
    assert len(mailbox.mails()) == 3


def test_the_end_tells_each_person_their_place_and_the_winner_and_the_final_in_the_same_email(
    mailbox: Mailbox, worker: Worker, organiser: User, make_person: Callable[..., User]
) -> None:
    """**Decision**: a table's "match over" goes when its result is recorded, except for
    the tables that end the tournament: their people read how that match ended in the
    end's email, so they get one email, not two in the same second."""
    ann, bob, cat, dan = (
        make_person(name, display_name=name.title()) for name in ("ann", "bob", "cat", "dan")
    )
    tournament = make_tournament(organiser, name="Autumn Cup", seeding=Tournament.Seeding.RATING)
    enter(tournament, [ann, bob, cat, dan])
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    started_mails = len(mailbox.mails())
    for table in tables_of(tournament, 1):
        worker(partial(finish_table, table))  # the first seat wins
    # Round 1's tables: their "match over" from the tournament (not from notify's
    # announcement), then round 2's "your table is ready", which tells the winner of the
    # table that finished last how it ended, instead of a "match over" in the same second.
    assert worker.names().count("tables_over") == 2 and worker.names().count("round_seated") == 1
    assert len(mailbox.mails()) == started_mails + 3 + 2
    final = tables_of(tournament, 2)[0]
    winner = entry_of(final, 0).user
    worker(lambda: finish_table(final))
    assert worker.names()[-2:] == ["match_finished", "tournament_ended"]
    assert len(mailbox.mails()) == started_mails + 3 + 2 + 4  # the end's only: no "match over"

    ended = {to(mail): mail for mail in mailbox.mails() if "is over:" in header(mail, "Subject")}
    assert sorted(ended) == sorted(person.email for person in (ann, bob, cat, dan))
    mail = ended[winner.email]
    assert header(mail, "Subject") == "[Boomsite] Autumn Cup is over: you won"
    text = text_of(mail)
    assert "Autumn Cup is over, and you won it, out of 4 entrants." in text
    assert "Your last match, round 2, table 1, is over: you placed 1st of 2." in text
    assert f"See the final standings: {SITE_URL}/tournaments/{tournament.pk}/" in text
    assert f"See your last match: {SITE_URL}/matches/{final.match_id}/" in text
    runner_up = entry_of(final, 1).user
    text = text_of(ended[runner_up.email])
    assert header(ended[runner_up.email], "Subject") == "[Boomsite] Autumn Cup is over: you placed 2nd of 4"
    assert f"Won by {winner.public_name}." in text and "you placed 2nd of 2." in text
    out_in_round_1 = next(person for person in (ann, bob, cat, dan) if person not in (winner, runner_up))
    text = text_of(ended[out_in_round_1.email])
    assert "Your last match" not in text and f"Won by {winner.public_name}." in text
    assert "Stop “match over” and “tournament over” emails" in text
    assert Notice.objects.filter(kind=Notice.Kind.GAME_OVER, match_id=final.match_id).count() == 0
    assert tournament_ended_emails(tournament_id=tournament.pk, last_match_ids=[final.match_id]) == 0


def test_a_table_seated_in_the_moment_the_last_one_ended_tells_both_in_one_email(
    mailbox: Mailbox, worker: Worker, organiser: User, make_person: Callable[..., User]
) -> None:
    """Issue 34, item 6: the table that ends a round seats the next; its winner got "match
    over" and "your table is ready" in the same second. Now one email says both; its
    loser, out, gets the "match over"; the winner of the table that ended earlier got
    theirs then, and a table email without it."""
    ann, bob, cat, dan = (
        make_person(name, display_name=name.title()) for name in ("ann", "bob", "cat", "dan")
    )
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, [ann, bob, cat, dan])
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    first, last = tables_of(tournament, 1)
    worker(partial(finish_table, first))  # the first seat wins
    early_winner, early_loser = entry_of(first, 0).user, entry_of(first, 1).user
    assert sorted(to(mail) for mail in mailbox.mails() if "is over:" in header(mail, "Subject")) == sorted(
        [early_winner.email, early_loser.email]
    )
    before = len(mailbox.mails())
    worker(partial(finish_table, last))
    winner, loser = entry_of(last, 0).user, entry_of(last, 1).user
    new = mailbox.mails()[before:]
    assert sorted((to(mail), header(mail, "Subject")) for mail in new) == sorted([
        (winner.email, "[Boomsite] Your table is ready: round 2 of Autumn Cup"),
        (loser.email, "[Boomsite] Go Fox! is over: you placed 2nd of 2"),
        (early_winner.email, "[Boomsite] Your table is ready: round 2 of Autumn Cup"),
    ])  # fmt: skip
    (told,) = [mail for mail in new if to(mail) == winner.email]
    text = text_of(told)
    assert text.index("Your match in Go Fox! is over: you placed 1st of 2.") < text.index("Your table for")
    assert f"See how it ended: {SITE_URL}/matches/{last.match_id}/" in text
    assert f'href="{SITE_URL}/matches/{last.match_id}/"' in html_of(told)
    (early,) = [mail for mail in new if to(mail) == early_winner.email]
    assert "is over" not in text_of(early)
    dropped = Notice.objects.get(kind=Notice.Kind.GAME_OVER, user=winner)
    assert (dropped.status, dropped.note) == (Notice.Status.DROPPED, "told in the next table's email")
    # Told again (a task run twice): nothing more.
    round_2 = Round.objects.get(tournament=tournament, number=2)
    assert round_seated_emails(round_id=round_2.pk, after_match_ids=[last.match_id]) == 0
    assert tables_over_emails(match_ids=[last.match_id], next_round_id=round_2.pk) == 0


def test_notify_sends_no_match_over_of_its_own_for_a_tournament_table(
    mailbox: Mailbox, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    match = finish_table(tables_of(tournament, 1)[0])
    assert notify_services.game_over_notices(match_id=match.pk) == 0
    assert mailbox.mails() == []


def test_a_cancelled_tournament_says_so_and_its_tables_end_as_ordinary_matches(
    mailbox: Mailbox, worker: Worker, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, people[:2])
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    worker(lambda: services.tournament_cancel(tournament_id=tournament.pk, because="The hall is flooded."))
    cancelled = [mail for mail in mailbox.mails() if "cancelled" in header(mail, "Subject")]
    assert sorted(to(mail) for mail in cancelled) == sorted(person.email for person in people[:2])
    assert header(cancelled[0], "Subject") == "[Boomsite] Autumn Cup was cancelled"
    text = text_of(cancelled[0])
    assert "Autumn Cup was cancelled: The hall is flooded." in text
    assert "Tables still being played go on as ordinary matches." in text
    assert f"See the tournament: {SITE_URL}/tournaments/{tournament.pk}/" in text
    # Its table, played on, ends with the usual "match over".
    worker(lambda: finish_table(tables_of(tournament, 1)[0]))
    assert worker.names()[-1] == "tables_over"
    over = [mail for mail in mailbox.mails() if "Go Fox! is over" in header(mail, "Subject")]
    assert len(over) == 2


def test_a_tournament_cancelled_at_its_start_for_want_of_entrants_says_why(
    mailbox: Mailbox, worker: Worker, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, people[:1])
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    assert worker.names() == ["tournament_ended"]
    (mail,) = mailbox.mails()
    assert to(mail) == people[0].email
    text = text_of(mail)
    assert "Autumn Cup was cancelled: Not enough entrants:" in text
    assert "ordinary matches" not in text


@pytest.mark.parametrize("choice", ["invitation", "game_over"])
def test_the_start_follows_the_invitation_choice_and_the_end_the_match_over_one(
    mailbox: Mailbox, worker: Worker, organiser: User, people: list[User], choice: str
) -> None:
    chooser, other = people[:2]
    User.objects.filter(pk=chooser.pk).update(**{f"notify_{choice}": Notify.OFF})
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, [chooser, other])
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    worker(lambda: finish_table(tables_of(tournament, 1)[0]))
    subjects = [header(mail, "Subject") for mail in mail_to(mailbox, chooser)]
    assert len(mail_to(mailbox, other)) == 2
    if choice == "invitation":
        assert len(subjects) == 1 and "is over" in subjects[0]
        notice = Notice.objects.get(user=chooser, kind=Notice.Kind.STARTED)
        assert (notice.status, notice.note) == (Notice.Status.DROPPED, "invitation emails are off")
    else:
        assert len(subjects) == 1 and "has started" in subjects[0]
        notice = Notice.objects.get(user=chooser, kind=Notice.Kind.ENDED)
        assert (notice.status, notice.note) == (Notice.Status.DROPPED, "game over emails are off")


def test_an_end_email_the_mail_server_refused_is_sent_again_the_same(
    settings: Settings, tmp_path: Path, worker: Worker, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, people[:2])
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False  # nothing listens there: the mail server is down
    worker(lambda: services.tournament_start(tournament_id=tournament.pk))
    final = tables_of(tournament, 1)[0]
    worker(lambda: finish_table(final))
    claimed = Notice.objects.filter(kind=Notice.Kind.ENDED, status=Notice.Status.CLAIMED)
    assert claimed.count() == 2

    outbox = Outbox(tmp_path / "mail")
    settings.EMAIL_BACKEND = "boomsite.mail.OutboxBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "mail"
    with time_machine.travel(timezone.now() + notify_services.RETRY_AFTER + timedelta(seconds=1)):
        assert notify_services.sweep(timezone.now()) == {"retry sent": 4}  # the starts and the ends
    winner = entry_of(final, 0).user
    (mail,) = [
        mail for mail in outbox.mails() if to(mail) == winner.email and "is over" in header(mail, "Subject")
    ]
    assert header(mail, "Subject") == "[Boomsite] Autumn Cup is over: you won"
    assert f"See your last match: {SITE_URL}/matches/{final.match_id}/" in text_of(mail)
    assert tournament_ended_emails(tournament_id=tournament.pk, last_match_ids=[final.match_id]) == 0
