"""Helpers of the tournament tests: a tournament with good settings, people entered, and
tables finished through the core (players resign, worst first), as play would leave them."""

from __future__ import annotations

import html
import importlib
import re
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from celery.signals import before_task_publish
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from accounts.models import User
from boomsite.celery import app as celery_app
from games.clocks import HOUR
from games.models import Match
from games.services import match_resign
from games.tournaments import services
from games.tournaments.models import Entry, Table, Tournament
from games.tournaments.setup import ORGANISERS_GROUP


def organisers_group() -> Group:
    """The Organisers group as migration 0002 makes it (a transactional test flushes it)."""
    importlib.import_module("games.tournaments.migrations.0002_organisers_group").add_group(apps, None)
    return Group.objects.get(name=ORGANISERS_GROUP)


def make_tournament(organiser: User, **settings: Any) -> Tournament:
    """A Go Fox! tournament open for registration now, starting in an hour: pairs,
    single elimination, unless ``settings`` say otherwise."""
    now = timezone.now()
    fields: dict[str, Any] = {
        "name": "Autumn Cup",
        "game": "go-fox",
        "format": Tournament.Format.SINGLE_ELIMINATION,
        "table_size": 2,
        "advance": 1,
        "registration_opens_at": now - timedelta(hours=1),
        "registration_closes_at": now + timedelta(minutes=59),
        "starts_at": now + timedelta(hours=1),
        "max_entrants": 64,
        "seeding": Tournament.Seeding.RANDOM,
        "turn_limit": HOUR,
        **settings,
    }
    status = fields.pop("status", Tournament.Status.REGISTRATION)
    tournament = Tournament.objects.create(created_by=organiser, **fields)
    Tournament.objects.filter(pk=tournament.pk).update(status=status)
    tournament.refresh_from_db()
    return tournament


def enter(tournament: Tournament, people: Sequence[User]) -> list[Entry]:
    return [services.tournament_register(tournament_id=tournament.pk, user=person) for person in people]


def entry_of(table: Table, seat: int) -> Entry:
    return Entry.objects.get(pk=table.entries[seat])


def finish_table(table: Table, best_first: Sequence[int] | None = None) -> Match:
    """End the table's match with its entrants placed in ``best_first`` order (entry
    ids; the seat order when omitted): the others resign, worst first, until one is left."""
    order = list(best_first) if best_first is not None else list(table.entries)
    for entry_id in reversed(order[1:]):
        match = Match.objects.get(pk=table.match_id)
        if match.status != Match.Status.RUNNING:
            break
        match_resign(match_id=table.match_id, user=Entry.objects.get(pk=entry_id).user)
    return Match.objects.get(pk=table.match_id)


def tables_of(tournament: Tournament, round_number: int) -> list[Table]:
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=round_number).order_by("number")
    )


def table_done(table: Table, best_first: Sequence[int] | None = None) -> Match:
    """``finish_table``, then what the match-finished announcement does in the site (a
    Celery task there): the tournament records the result and advances."""
    match = finish_table(table, best_first)
    services.match_finished(match_id=table.match_id)
    return match


class Worker:
    """Plays the Celery worker for the emails' tests, in this process and transaction: it
    records the tasks the code sends after each commit (Celery's ``before_task_publish``,
    as the broker receives them) and runs those of tournaments and notify, oldest first,
    with the tasks they send in turn, until none is left. Others (a bot's turn, the
    ratings) are recorded and not run."""

    RUN = ("games.tournaments.tasks.", "games.notify.tasks.")

    def __init__(self, capture: Callable[..., Any]) -> None:
        self.capture = capture  # pytest-django's django_capture_on_commit_callbacks
        celery_app.loader.import_default_modules()  # as a worker does at start: every tasks module
        self.sent: list[tuple[str, list[Any]]] = []
        self.ran: list[tuple[str, list[Any]]] = []

    def _record(self, sender: str, body: Any, **_: Any) -> None:
        self.sent.append((sender, list(body[0])))

    def __call__(self, action: Callable[[], Any]) -> Any:
        """Do ``action`` as a request or task would (its after-commit work done), then
        run what it sent; ``action``'s result."""
        before_task_publish.connect(self._record, weak=False)
        try:
            with self.capture(execute=True):
                result = action()
            while self.sent:
                name, arguments = self.sent.pop(0)
                if name.startswith(self.RUN):
                    self.ran.append((name, arguments))
                    with self.capture(execute=True):
                        celery_app.tasks[name](*arguments)
        finally:
            before_task_publish.disconnect(self._record)
        return result

    def names(self) -> list[str]:
        """The names of the tasks run so far, without their module, in order."""
        return [name.rsplit(".", 1)[1] for name, _ in self.ran]


# -- reading a page as a person does ---------------------------------------------------


def section(page: str, name: str) -> str:
    """The HTML of ``<section id="name">`` up to its own end (sections nest in the live part)."""
    start = page.index(f'<section id="{name}"')
    depth, position = 0, start
    for tag in re.finditer(r"<(/?)section\b[^>]*>", page[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            position = start + tag.end()
            break
    return page[start:position]


def text_of(fragment: str) -> str:
    """What a person reads: tags gone, entities decoded, spaces squeezed."""
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())
    return re.sub(r" ([.,:;])", r"\1", words)


def page_of(client: Client, tournament: Tournament) -> str:
    response = client.get(f"/tournaments/{tournament.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def messages_on(page: str) -> str:
    found = re.search(r'<ul class="messages".*?</ul>', page, re.S)
    return text_of(found.group(0)) if found else ""
