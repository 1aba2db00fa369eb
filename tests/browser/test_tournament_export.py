"""A tournament's downloads as an entrant finds them (issue 33, item 8): the page's Export
section links them, a click downloads the file under the tournament's name, and what a
spreadsheet opens is the standings with a formula-like name made harmless."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.games.tournaments.helpers import enter, make_tournament, table_done, tables_of

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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
