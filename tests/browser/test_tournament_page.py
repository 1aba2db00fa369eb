"""A tournament's page as people see it in chromium (issue 33, bugs 2, 3 and 5): an
entrant watching it live when the organiser starts it, their own table linked, the
standings' states after a table is played, and the standings and bracket at desktop
widths (whole, nothing clipped) and on a phone (scrolled sideways by keyboard); axe-core
finds nothing serious in any of these states. And the page's downloads (issue 33,
item 8): a click downloads the file under the tournament's name, and what a spreadsheet
opens is the standings with a formula-like name made harmless. One module, so one site
and one chromium serve them all."""

from __future__ import annotations

import csv
import io
import json
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.models import User
from games.tournaments import effects, services
from games.tournaments.models import Entry, Tournament
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.games.tournaments.helpers import enter, make_tournament, table_done, tables_of

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOPS = ((1280, 800), (1440, 900), (1920, 1080))
PHONE = (390, 844)

# Whether an element's content is wider than its box, and each heading cell's.
CLIPPED = """(selector) => {
  const box = document.querySelector(selector);
  const cells = [...box.querySelectorAll('th, td')].filter(cell => cell.scrollWidth > cell.clientWidth + 1);
  return {box: box.clientWidth, content: box.scrollWidth, cells: cells.map(cell => cell.textContent.trim())};
}"""


def people(count: int) -> list[User]:
    # Long names, as people choose them: the standings must still fit a desktop.
    return [
        User.objects.create_user(
            username=f"player{number}", display_name=f"Player {number} with a long display name", password="x"
        )
        for number in range(1, count + 1)
    ]


def keyboard_scrolls_to_the_end(page: Any, selector: str) -> bool:
    """Focus the scroll box (it is in the Tab order) and press the right arrow until it can
    go no further: whether it then shows its right edge. The browser scrolls smoothly, so
    the end is waited for, not read at once."""
    page.focus(selector)
    assert page.evaluate(
        "(selector) => document.activeElement === document.querySelector(selector)", selector
    )
    # In rounds: on a loaded machine a smooth scroll still under way swallows the presses
    # that come during it (the full suite once stopped short of the end).
    for _ in range(4):
        for _ in range(60):
            page.keyboard.press("ArrowRight")
        try:
            page.wait_for_function(
                "(s) => { const b = document.querySelector(s); return b.scrollLeft + b.clientWidth >= b.scrollWidth - 1; }",
                arg=selector,
                timeout=3_000,
            )
        except PlaywrightTimeout:
            continue
        return True
    return False


def test_a_swiss_page_live_your_table_and_standings_that_fit(live_site: str, browser: Any) -> None:
    organiser = User.objects.create_user(username="organiser", password="x", is_staff=True)
    field = people(8)
    tournament = make_tournament(
        organiser, name="Winter Swiss", format=Tournament.Format.SWISS, swiss_rounds=3,
        seeding=Tournament.Seeding.RATING,
    )  # fmt: skip
    off_the_event_loop(lambda: enter(tournament, field))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    log_in(context, live_site, field[0])
    page = context.new_page()
    page.goto(f"{live_site}/tournaments/{tournament.pk}/")
    page.wait_for_selector("#tournament-page[data-connected='yes']")
    assert serious_findings(page) == []

    # The organiser starts it: the open page says since when, and links the person's table.
    off_the_event_loop(lambda: services.tournament_start(tournament_id=tournament.pk))
    page.wait_for_selector("#my-table", timeout=10_000)
    tournament.refresh_from_db()
    assert tournament.started_at is not None
    assert re.search(
        r"Running since \w{3} \d+ \w{3} \d{4}, \d\d:\d\d\. Round 1 is being played",
        page.inner_text("#status-line"),
    )
    mine = next(
        table for table in tables_of(tournament, 1) if Entry.objects.get(user=field[0]).pk in table.entries
    )
    assert page.get_attribute("#my-table", "href") == f"/matches/{mine.match_id}/"
    assert page.inner_text("#my-table") == f"Your table: round 1, table {mine.number}"

    # Their table is played, the round goes on: their row says so, not "playing".
    refreshed = int(page.get_attribute("#tournament-page", "data-refreshed") or 0)
    off_the_event_loop(lambda: table_done(mine))
    page.wait_for_function(
        f"() => parseInt(document.getElementById('tournament-page').dataset.refreshed || '0', 10) > {refreshed}"
    )
    row = page.inner_text(f"#standings tr[data-entry='{Entry.objects.get(user=field[0]).pk}']")
    assert "round 1 played: 1st, waiting for the other tables" in row
    caption = page.inner_text("#standings caption")
    assert "No round finished yet" in caption and "Before the first result" not in caption
    assert "Your table in round 1 is played" in page.inner_text("#tournament-actions")

    # The rest of round 1 is played: standings with every tie-break, round 2 seated.
    for table in tables_of(tournament, 1):
        if table.pk != mine.pk:
            off_the_event_loop(partial(table_done, table))
    page.wait_for_function(
        "() => /After round 1 of 3/.test(document.querySelector('#standings caption').textContent)"
    )
    for width, height in DESKTOPS:
        page.set_viewport_size({"width": width, "height": height})
        shown = page.evaluate(CLIPPED, "#standings-scroll")
        assert shown["content"] <= shown["box"] + 1, (width, shown)
        assert shown["cells"] == [], (width, shown)
    assert serious_findings(page) == []

    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    assert keyboard_scrolls_to_the_end(page, "#standings-scroll")
    # A ring swaps the live part in again: the focus and the scroll stay where the person left them.
    refreshed = int(page.get_attribute("#tournament-page", "data-refreshed") or 0)
    off_the_event_loop(lambda: effects.tournament_changed(tournament.pk))
    page.wait_for_function(
        f"() => parseInt(document.getElementById('tournament-page').dataset.refreshed || '0', 10) > {refreshed}"
    )
    assert page.evaluate("() => document.activeElement.id") == "standings-scroll"
    assert page.evaluate("() => document.getElementById('standings-scroll').scrollLeft") > 0
    assert serious_findings(page) == []
    context.close()


def test_an_eight_place_bracket_on_a_phone_scrolls_to_the_final_by_keyboard(
    live_site: str, browser: Any
) -> None:
    organiser = User.objects.create_user(username="organiser", password="x", is_staff=True)
    tournament = make_tournament(organiser, name="Phone Cup", seeding=Tournament.Seeding.RATING)
    field = people(8)

    def round_one_played() -> None:
        enter(tournament, field)
        services.tournament_start(tournament_id=tournament.pk)
        for table in tables_of(tournament, 1):
            table_done(table)

    off_the_event_loop(round_one_played)
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
    page = context.new_page()
    page.goto(f"{live_site}/tournaments/{tournament.pk}/")
    page.wait_for_selector("#tournament-page[data-refreshed]")  # the socket's first fetch, swapped in
    final = page.locator("#bracket article[data-round='3']")
    assert final.count() == 1
    box = page.evaluate("() => document.getElementById('bracket-scroll').getBoundingClientRect().right")
    assert final.bounding_box()["x"] > box  # off to the right at first
    assert keyboard_scrolls_to_the_end(page, "#bracket-scroll")
    edge = final.bounding_box()
    assert edge["x"] >= 0 and edge["x"] + edge["width"] <= box + 1
    assert serious_findings(page) == []
    for width, height in DESKTOPS:
        page.set_viewport_size({"width": width, "height": height})
        shown = page.evaluate(CLIPPED, "#standings-scroll")
        assert shown["content"] <= shown["box"] + 1, (width, shown)
    assert serious_findings(page) == []
    # The list that leads here, on a phone too.
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.goto(f"{live_site}/tournaments/")
    assert "Phone Cup" in page.inner_text("main")
    assert serious_findings(page) == []
    context.close()


def test_an_entrant_downloads_a_finished_round_robins_standings_and_document(
    live_site: str, browser: Any
) -> None:
    def a_played_round_robin() -> Tournament:
        organiser = User.objects.create_user(username="organiser", password="x", is_staff=True)
        people = [
            User.objects.create_user(username=username, display_name=name, password="x")
            for username, name in (("ann", "Ann"), ("bob", "Bob"), ("mallory", "=cmd()"))
        ]
        tournament = make_tournament(
            organiser, name="Winter Cup", format=Tournament.Format.ROUND_ROBIN, max_entrants=8,
            seeding=Tournament.Seeding.RATING,
        )  # fmt: skip
        enter(tournament, people)
        services.tournament_start(tournament_id=tournament.pk)
        for number in (1, 2, 3):  # three in pairs: three rounds, each with a bye
            for table in tables_of(tournament, number):
                table_done(table)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        return tournament

    tournament = off_the_event_loop(a_played_round_robin)
    context = browser.new_context(accept_downloads=True)
    log_in(context, live_site, User.objects.get(username="ann"))
    page = context.new_page()
    page.goto(f"{live_site}/tournaments/{tournament.pk}/")
    export = page.locator("#export")
    assert export.locator("h2").inner_text() == "Export"
    assert export.locator("a").all_inner_texts() == [
        "Download the tables and results (CSV)",
        "Download the standings (CSV)",
        "Download everything (JSON)",
    ]
    assert serious_findings(page) == []

    with page.expect_download() as standings_download:
        export.get_by_text("Download the standings (CSV)").click()
    download = standings_download.value
    assert download.suggested_filename == f"winter-cup-{tournament.pk}-standings.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.path()).read_text("utf-8-sig"), newline="")))
    assert [row["place"] for row in rows] == ["1", "2", "3"]
    assert {row["name"] for row in rows} == {"Ann", "Bob", "'=cmd()"}
    assert all(row["byes"] == "1" for row in rows)

    with page.expect_download() as document_download:
        export.get_by_text("Download everything (JSON)").click()
    download = document_download.value
    assert download.suggested_filename == f"winter-cup-{tournament.pk}.json"
    document = json.loads(Path(download.path()).read_text("utf-8"))
    assert document["status"] == "finished" and document["standings"]["is_final"] is True
    assert [row["name"] for row in document["standings"]["rows"]] == [row["name"].lstrip("'") for row in rows]
    context.close()
