"""What a tournament's page says while it runs and once it is over (issue 33, bugs 3-5
and item 5): when it started, each entrant's state in the standings, the caption before
a round is over, a shared place at the cut explained, single elimination's final
standings, and the viewer's own table."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from games.services import match_resign
from games.tournaments import services
from games.tournaments.models import Entry, Table, Tournament
from tests.games.helpers import logged_in
from tests.games.tournaments.helpers import (
    enter,
    make_tournament,
    page_of,
    section,
    table_done,
    tables_of,
    text_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_person: Callable[..., User]) -> list[User]:
    return [make_person(f"player{number}", display_name=f"Player {number}") for number in range(1, 9)]


def shared_first(table: Table) -> None:
    """End the table's match with every seat sharing first place (a draw), then record it
    as the match-finished announcement does."""
    match_resign(match_id=table.match_id, user=Entry.objects.get(pk=table.entries[-1]).user)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    Seat.objects.filter(match_id=table.match_id).update(rank=1)
    services.match_finished(match_id=table.match_id)


def test_after_start_now_the_page_says_when_it_started_not_the_planned_time(
    client: Client, organiser: User, people: list[User]
) -> None:
    planned = timezone.now() + timedelta(days=3)
    tournament = make_tournament(
        organiser, registration_closes_at=planned - timedelta(hours=1), starts_at=planned
    )
    enter(tournament, people[:2])
    started_at = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=5)
    with time_machine.travel(started_at, tick=False):
        services.tournament_start(tournament_id=tournament.pk)
    page = page_of(client, tournament)
    assert f"Running since {started_at:%a %-d %b %Y, %H:%M}. Round 1 is being played" in text_of(
        section(page, "status")
    )
    settings = text_of(section(page, "settings"))
    assert f"Started {started_at:%a %-d %b %Y, %H:%M}" in settings
    assert f"Start {planned:%a %-d %b %Y}" not in settings


def test_a_swiss_page_says_a_played_table_is_played_before_the_round_ends(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(
        organiser, format=Tournament.Format.SWISS, swiss_rounds=2, seeding=Tournament.Seeding.RATING
    )
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    played, playing = tables_of(tournament, 1)
    winner, loser = played.entries
    table_done(played)
    standings = section(page_of(client, tournament), "standings")
    caption = text_of(re.search(r"<caption>.*?</caption>", standings, re.S).group(0))  # type: ignore[union-attr]
    assert "Before the first result" not in caption
    assert "No round finished yet. Round 1 counts when its last table ends (1 of 2 played)." in caption
    state = dict(re.findall(r'data-entry="(\d+)">.*?<td class="state">(.*?)</td>', standings, re.S))
    assert state[str(winner)] == "round 1 played: 1st, waiting for the other tables"
    assert state[str(loser)] == "round 1 played: 2nd, waiting for the other tables"
    for entry in playing.entries:
        assert state[str(entry)] == f"playing round 1 (table {playing.number})"
    status = text_of(section(page_of(client, tournament), "status"))
    assert "Round 1 is being played (1 of 2 tables played)." in status


def test_a_shared_first_at_the_cut_says_who_goes_on_and_why(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, seeding=Tournament.Seeding.RATING)
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    table = tables_of(tournament, 1)[0]
    better, worse = sorted(
        (Entry.objects.get(pk=pk) for pk in table.entries), key=lambda entry: entry.seed or 0
    )
    shared_first(table)
    bracket = text_of(section(page_of(client, tournament), "bracket"))
    assert re.search(rf"1st {better.display_name} tie goes on", bracket), bracket
    assert re.search(rf"1st {worse.display_name} tie(?! goes on)", bracket), bracket
    assert (
        f"Round 1, table {table.number}: {better.display_name} and {worse.display_name} shared 1st: "
        f"{better.display_name} goes on, the better seed (seeds {better.seed} against {worse.seed})."
    ) in bracket


def test_a_finished_single_elimination_has_final_standings_by_the_round_one_went_out(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, seeding=Tournament.Seeding.RATING)
    entries = enter(tournament, people[:3])  # seed 1 has a bye
    services.tournament_start(tournament_id=tournament.pk)
    (semi,) = tables_of(tournament, 1)
    table_done(semi)
    (final,) = tables_of(tournament, 2)
    shared_first(final)  # the better seed wins a shared first at the final
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    page = page_of(client, tournament)
    standings = section(page, "standings")
    rows = [
        (int(entry), text_of(row))
        for entry, row in re.findall(r'<tr [^>]*data-entry="(\d+)">(.*?)</tr>', standings, re.S)
    ]
    by_seed = {entry.seed: entry for entry in Entry.objects.filter(pk__in=[entry.pk for entry in entries])}
    final_seeds = sorted(Entry.objects.get(pk=pk).seed or 0 for pk in final.entries)
    champion, runner_up = by_seed[final_seeds[0]], by_seed[final_seeds[1]]
    semi_loser = next(entry for entry in by_seed.values() if entry.pk not in final.entries)
    assert [entry for entry, _ in rows] == [champion.pk, runner_up.pk, semi_loser.pk]
    row_classes = re.findall(r'<tr class="([^"]*)" data-entry', standings)
    assert row_classes == ["", "out", "out"]  # the winner's row is not greyed as out
    assert rows[0][1].endswith("won")
    assert rows[1][1].endswith("shared 1st in the final (the better seed wins)")
    assert rows[2][1].endswith("out in round 1 (2nd at the table)")
    assert "Final standings" in text_of(standings)
    assert f"Won by {champion.display_name}." in text_of(section(page, "status"))
    assert "wins, the better seed" in text_of(section(page, "bracket"))


def test_an_entrant_sees_a_link_to_their_table_while_it_runs(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=2)
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    mine = next(
        table for table in tables_of(tournament, 1) if Entry.objects.get(user=people[0]).pk in table.entries
    )
    browser = logged_in(people[0])
    actions = section(page_of(browser, tournament), "status")
    assert f'id="my-table" href="/matches/{mine.match_id}/"' in actions
    assert f"Your table: round 1, table {mine.number}" in text_of(actions)
    table_done(mine)
    actions = text_of(section(page_of(browser, tournament), "status"))
    assert "Your table in round 1 is played" in actions and "my-table" not in actions
    # A watcher who did not enter sees no such link.
    assert "my-table" not in section(page_of(Client(), tournament), "status")
