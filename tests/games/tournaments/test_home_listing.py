"""The home and play pages list open and running tournaments (games/tournaments/links.py,
offered through the core's ``HOME_SECTIONS`` and ``PLAY_SECTIONS`` hooks): a few of each,
each linking to its page (where the Register button is), with a link to them all; none
when there is neither; drafts, finished and cancelled ones never; in a fixed number of
queries however many there are."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.games.helpers import logged_in
from tests.games.tournaments.helpers import enter, make_tournament, table_done, tables_of

pytestmark = pytest.mark.django_db

PAGES = ["/", "/play/"]


@pytest.fixture
def people(make_person: Callable[..., User]) -> list[User]:
    return [make_person(f"player{number}", display_name=f"Player {number}") for number in range(1, 9)]


def tournaments_section(page: str) -> str:
    match = re.search(r'<section aria-labelledby="tournaments">.*?</section>', page, re.S)
    assert match is not None, "no tournaments section"
    return match.group(0)


def rows(section: str) -> list[str]:
    """Each listed tournament as its text, tags taken out and spaces squeezed."""
    items = re.findall(r'<li class="match-row">(.*?)</li>', section, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


@pytest.mark.parametrize("url", PAGES)
def test_open_and_running_tournaments_are_listed_with_links_to_their_pages(
    url: str, client: Client, organiser: User, people: list[User]
) -> None:
    now = timezone.now()
    traveller = time_machine.travel(now, tick=False)  # the hints count from now
    traveller.start()
    open_ = make_tournament(organiser, name="Spring Open", starts_at=now + timedelta(days=2, minutes=1),
                            registration_closes_at=now + timedelta(days=2))  # fmt: skip
    enter(open_, people[:2])
    later = make_tournament(
        organiser, name="Summer Cup", registration_opens_at=now + timedelta(days=1),
        registration_closes_at=now + timedelta(days=3), starts_at=now + timedelta(days=3),
    )  # fmt: skip
    running = make_tournament(organiser, name="Autumn Cup")
    enter(running, people[2:6])
    services.tournament_start(tournament_id=running.pk)
    for table in tables_of(running, 1):
        table_done(table)
    make_tournament(organiser, name="Hidden Draft", status=Tournament.Status.DRAFT)
    over = make_tournament(organiser, name="Old Cup")
    enter(over, people[6:8])
    services.tournament_start(tournament_id=over.pk)
    table_done(tables_of(over, 1)[0])
    cancelled = make_tournament(organiser, name="Rained Off")
    services.tournament_cancel(tournament_id=cancelled.pk, because="Rain.")

    section = tournaments_section(client.get(url).content.decode())
    assert '<h2 id="tournaments">Tournaments</h2>' in section
    assert rows(section) == [
        "Spring Open Go Fox! · registration open, starts in 2 days · 2 entrants",
        "Summer Cup Go Fox! · registration opens in 1 day",
        "Autumn Cup Go Fox! · round 2 being played · 4 entrants",
    ]
    for tournament in (open_, later, running):
        assert f'<a href="/tournaments/{tournament.pk}/">{tournament.name}</a>' in section
    assert '<a href="/tournaments/" id="all-tournaments">All tournaments</a>' in section
    traveller.stop()


def test_the_register_button_is_one_click_from_the_home_page(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser, name="Spring Open")
    browser = logged_in(ann)
    section = tournaments_section(browser.get("/").content.decode())
    link = re.search(r'<a href="(/tournaments/\d+/)">Spring Open</a>', section)
    assert link is not None
    page = browser.get(link.group(1)).content.decode()
    assert f'action="/tournaments/{tournament.pk}/register"' in page


@pytest.mark.parametrize("url", PAGES)
def test_no_section_when_no_tournament_is_open_or_running(url: str, client: Client, organiser: User) -> None:
    make_tournament(organiser, name="Hidden Draft", status=Tournament.Status.DRAFT)
    page = client.get(url).content.decode()
    assert 'aria-labelledby="tournaments"' not in page
    assert "Hidden Draft" not in page


def test_a_few_of_each_are_listed(client: Client, organiser: User) -> None:
    for number in range(5):
        make_tournament(
            organiser, name=f"Open {number}", starts_at=timezone.now() + timedelta(hours=1 + number)
        )
    listed = rows(tournaments_section(client.get("/").content.decode()))
    assert [row.split(" Go Fox!")[0] for row in listed] == ["Open 0", "Open 1", "Open 2"]  # the soonest first


@pytest.mark.parametrize("url", PAGES)
def test_the_section_costs_two_queries_for_none_one_or_many(
    url: str, settings: Settings, organiser: User, people: list[User]
) -> None:
    """Its own queries (the page's others aside: the play page's live matches list the
    running tables): the tournaments open, and those running, with their counts."""
    browser = logged_in(people[0])
    # The tournaments' section alone: the other features' sections count their own.
    hooks = tuple(
        [path for path in paths if path.startswith("games.tournaments.")]
        for paths in (settings.HOME_SECTIONS, settings.PLAY_SECTIONS)
    )

    def section_queries() -> int:
        settings.HOME_SECTIONS, settings.PLAY_SECTIONS = hooks
        with_section = queries(browser, url)
        settings.HOME_SECTIONS = settings.PLAY_SECTIONS = []
        return with_section - queries(browser, url)

    counts = [section_queries()]
    for number in range(4):
        enter(make_tournament(organiser, name=f"Open {number}"), people[:2])
        running = make_tournament(organiser, name=f"Running {number}")
        enter(running, people[2:4])
        services.tournament_start(tournament_id=running.pk)
        counts.append(section_queries())
    assert counts == [2] * 5


def queries(browser: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert browser.get(url).status_code == 200
    return len(captured.captured_queries)
