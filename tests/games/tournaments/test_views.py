"""The tournament pages (games/tournaments/views.py, pages.py): the list, a tournament's
page in each format with its written rules, the bracket and the standings, registering
and withdrawing through the forms, what a draft hides, and the pages' query budgets."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from games.services import BOT_USERNAMES, SeatRequest, match_create
from games.tasks import sweep_clocks
from games.tournaments import formats, services
from games.tournaments.models import Entry, Tournament
from games.tournaments.selectors import format_state, state_from_rows
from games.tournaments.setup import format_settings
from tests.games.helpers import api, logged_in, token_for
from tests.games.tournaments.helpers import (
    enter,
    entry_of,
    make_tournament,
    messages_on,
    page_of,
    section,
    table_done,
    tables_of,
    text_of,
)

pytestmark = pytest.mark.django_db

# Queries of a tournament's page, the same for 4 entrants or 16 (no N+1 over entries,
# rounds or tables): the session, its user, the tournament, its entries, rounds, tables
# with their matches, and the navigation's count of matches waiting. The list: the
# session, its user, its three sections, my entries, the finished ones' winners (three
# for all of them) and the navigation's count. Measured 2026-11-25; raising one is a decision.
PAGE_QUERIES = 7
LIST_QUERIES = 10


@pytest.fixture
def people(make_person: Callable[..., User]) -> list[User]:
    return [make_person(f"player{number}", display_name=f"Player {number}") for number in range(1, 17)]


# -- the list ------------------------------------------------------------------------


def test_the_list_shows_upcoming_running_and_finished_tournaments(
    client: Client, organiser: User, people: list[User]
) -> None:
    upcoming = make_tournament(organiser, name="Spring Open")
    enter(upcoming, people[:3])
    later = make_tournament(
        organiser, name="Summer Open", registration_opens_at=timezone.now() + timedelta(days=1),
        registration_closes_at=timezone.now() + timedelta(days=2), starts_at=timezone.now() + timedelta(days=2),
    )  # fmt: skip
    running = make_tournament(organiser, name="Autumn Cup")
    enter(running, people[3:7])
    services.tournament_start(tournament_id=running.pk)
    finished = make_tournament(organiser, name="Winter Cup")
    enter(finished, people[7:9])
    services.tournament_start(tournament_id=finished.pk)
    final = tables_of(finished, 1)[0]
    winner = Entry.objects.get(pk=final.entries[1])
    table_done(final, [final.entries[1], final.entries[0]])
    cancelled = make_tournament(organiser, name="Cancelled Cup")
    services.tournament_cancel(tournament_id=cancelled.pk, because="The venue flooded.")
    make_tournament(organiser, name="Secret Draft", status=Tournament.Status.DRAFT)

    page = client.get("/tournaments/").content.decode()
    shown_upcoming = text_of(section(page, "upcoming"))
    assert "Spring Open" in shown_upcoming and "3 of 64 entrants" in shown_upcoming
    assert "Go Fox!" in shown_upcoming and "Single elimination, pairs" in shown_upcoming
    assert "Summer Open" in shown_upcoming and "registration opens" in shown_upcoming
    upcoming_html = section(page, "upcoming")
    assert upcoming_html.count('action="/tournaments/') == 1  # a Register button for the open one only
    assert f'action="/tournaments/{upcoming.pk}/register"' in upcoming_html
    assert later.name in shown_upcoming
    assert "Autumn Cup" in text_of(section(page, "running"))
    shown_finished = text_of(section(page, "finished"))
    assert f"Winter Cup Go Fox! · Single elimination, pairs Won by {winner.display_name}" in shown_finished
    assert "Cancelled Cup" in shown_finished and "Cancelled: The venue flooded." in shown_finished
    assert "Secret Draft" not in page


def test_the_list_says_which_tournaments_i_entered(client: Client, organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, [ann])
    page = logged_in(ann).get("/tournaments/").content.decode()
    upcoming = section(page, "upcoming")
    assert "You are registered." in text_of(upcoming) and 'action="/tournaments/' not in upcoming


def test_the_navigation_leads_to_the_list(client: Client) -> None:
    assert re.search(r'<a href="/tournaments/"[^>]*>Tournaments</a>', client.get("/").content.decode())


# -- a tournament's page ------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"format": Tournament.Format.SINGLE_ELIMINATION, "table_size": 2},
        {"format": Tournament.Format.SINGLE_ELIMINATION, "table_size": 4, "advance": 2},
        {"format": Tournament.Format.ROUND_ROBIN, "table_size": 2, "max_entrants": 16},
        {"format": Tournament.Format.SWISS, "table_size": 2, "swiss_rounds": 3},
        {"format": Tournament.Format.SWISS, "table_size": 3, "swiss_rounds": 2},
    ],
    ids=["elimination-pairs", "elimination-tables", "round-robin", "swiss-pairs", "swiss-tables"],
)
def test_the_page_shows_the_settings_in_words_and_the_written_rules(
    client: Client, organiser: User, fields: dict[str, Any]
) -> None:
    tournament = make_tournament(
        organiser, description="Bring snacks.", vacation_allowed=True,
        bot_fill_level="basic", rated=False, **fields,
    )  # fmt: skip
    page = page_of(client, tournament)
    shown = text_of(section(page, "settings"))
    assert "Game Go Fox!" in shown
    assert f"Format {tournament.get_format_display()}" in shown
    assert "Time control 1 hour per turn" in shown
    assert (
        "Seeding Random" in shown
        and "Rated No" in shown
        and "those not taken by people are filled with basic bots at the start" in shown
    )
    assert "Vacation Pauses your clocks" in shown
    if tournament.format == Tournament.Format.SWISS:
        assert f"Rounds {tournament.swiss_rounds}" in shown
    if tournament.table_size > 2:
        assert f"Tables {tournament.table_size} players each" in shown
    rules = formats.rules_text(format_settings(tournament))
    assert rules, "every format has written rules"
    shown_rules = text_of(section(page, "rules"))
    for paragraph in rules:
        assert " ".join(paragraph.split()) in shown_rules
    assert "Bring snacks." in page
    assert "Registration is open until" in text_of(section(page, "status"))


def test_the_page_shows_the_games_options_in_words(client: Client, organiser: User) -> None:
    tournament = make_tournament(organiser, game="dont-go-boom", options={"rounds": 1})
    shown = text_of(section(page_of(client, tournament), "settings"))
    assert "Rounds 1" in shown, shown


def test_the_bracket_links_each_table_and_moves_as_tables_finish(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, seeding=Tournament.Seeding.RATING)
    entries = enter(tournament, people[:4])  # unrated: seeded in the order they registered
    services.tournament_start(tournament_id=tournament.pk)
    first, second = tables_of(tournament, 1)
    bracket = section(page_of(client, tournament), "bracket")
    assert (
        f'href="/matches/{first.match_id}/"' in bracket and f'href="/matches/{second.match_id}/"' in bracket
    )
    assert text_of(bracket).count("playing now") == 2
    assert "Final" in text_of(bracket) and text_of(bracket).count("to be decided") == 2
    # The best seeds meet last: 1 plays 4, 2 plays 3.
    assert {frozenset(first.entries), frozenset(second.entries)} == {
        frozenset({entries[0].pk, entries[3].pk}),
        frozenset({entries[1].pk, entries[2].pk}),
    }
    assert bracket.count("<path ") == 2  # a line from each table to the final

    winner = Entry.objects.get(pk=first.entries[1])
    table_done(first, [first.entries[1], first.entries[0]])
    bracket = section(page_of(client, tournament), "bracket")
    played = re.search(
        rf'<article class="bracket-table played"[^>]*data-round="1" data-table="{first.number}".*?</article>',
        bracket,
        re.S,
    )
    assert played, bracket
    assert re.search(rf"1st {re.escape(winner.display_name)} goes on 2nd", text_of(played.group(0)))
    assert 'class="decided"' in bracket
    # The final is seated when the round's last table is done; it names who goes on to it at once.
    final_box = re.search(
        r'<article class="bracket-table[^"]*"[^>]*data-round="2".*?</article>', bracket, re.S
    )
    assert final_box and "Not seated yet" in text_of(final_box.group(0))
    assert winner.display_name in text_of(final_box.group(0))
    assert text_of(bracket).count("to be decided") == 1

    table_done(second)
    final = tables_of(tournament, 2)[0]
    bracket = section(page_of(client, tournament), "bracket")
    assert f'href="/matches/{final.match_id}/"' in bracket
    assert "to be decided" not in text_of(bracket)
    table_done(final, [winner.pk, *(entry for entry in final.entries if entry != winner.pk)])
    page = page_of(client, tournament)
    assert re.search(
        rf"Finished .+\. Won by {re.escape(winner.display_name)}\.", text_of(section(page, "status"))
    )
    assert re.search(rf"1st {re.escape(winner.display_name)} winner", text_of(section(page, "bracket")))
    # Its final standings: the winner, the final's second, then the two out in round 1 (by seed).
    standings = section(page, "standings")
    assert "Final standings" in text_of(standings)
    states = re.findall(r'<td class="state">([^<]+)</td>', standings)
    assert states == [
        "won",
        "2nd in the final",
        "out in round 1 (2nd at the table)",
        "out in round 1 (2nd at the table)",
    ]


def test_byes_in_the_bracket_are_written_as_byes(client: Client, organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser, seeding=Tournament.Seeding.RATING)
    enter(tournament, people[:3])
    services.tournament_start(tournament_id=tournament.pk)
    top_seed = Entry.objects.get(tournament=tournament, seed=1)
    bracket = text_of(section(page_of(client, tournament), "bracket"))
    assert re.search(rf"{re.escape(top_seed.display_name)} bye goes on", bracket), bracket


def test_swiss_standings_show_tiebreaks_byes_and_forfeits(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(
        organiser, format=Tournament.Format.SWISS, swiss_rounds=3, timeouts_to_forfeit=1, turn_limit=300
    )
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    absent_table, played_table = tables_of(tournament, 1)
    table_done(played_table)
    absent_seat = Seat.objects.get(match_id=absent_table.match_id, deadline_at__isnull=False)
    with time_machine.travel(timezone.now() + timedelta(minutes=6), tick=False):
        sweep_clocks()
    services.tournament_advance(tournament_id=tournament.pk)
    absent = Entry.objects.get(pk=absent_table.entries[absent_seat.index])
    assert absent.out == Entry.Out.FORFEITED

    page = page_of(client, tournament)
    standings = section(page, "standings")
    headings = text_of(re.search(r"<thead>.*?</thead>", standings, re.S).group(0))  # type: ignore[union-attr]
    tiebreaks = [name for name, _ in formats.standings(format_state(tournament))[0].tiebreaks]
    assert len(tiebreaks) == 3  # pairs: Sonneborn-Berger, head-to-head, seed
    assert headings == f"Place Player Points {' '.join(tiebreaks)} Byes Status"
    assert "After round 1 of 3" in text_of(standings)
    out_row = re.search(rf'<tr class="out" data-entry="{absent.pk}">.*?</tr>', standings, re.S)
    assert out_row and "out: forfeited on time in round 1" in text_of(out_row.group(0))
    rows = re.findall(r"<tr [^>]*data-entry.*?</tr>", standings, re.S)
    assert len(rows) == 4
    rounds = section(page, "rounds")
    assert "forfeited on time" in text_of(section(rounds, "round-1"))
    assert f'href="/matches/{absent_table.match_id}/"' in rounds
    round_2 = text_of(section(rounds, "round-2"))
    assert "being played" in round_2 and re.search(r"Bye: \S", round_2), round_2
    entrants = text_of(section(page, "entrants"))
    assert "Seed 1" in entrants and f"{absent.display_name} out: forfeited on time in round 1" in entrants


def test_round_robin_tables_show_their_standings_by_points_and_table_mates(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(
        organiser, format=Tournament.Format.ROUND_ROBIN, table_size=3, max_entrants=16
    )
    enter(tournament, people[:6])
    services.tournament_start(tournament_id=tournament.pk)
    for table in tables_of(tournament, 1):
        table_done(table)
    page = page_of(client, tournament)
    standings = section(page, "standings")
    names = [name for name, _ in formats.standings(format_state(tournament))[0].tiebreaks]
    headings = text_of(re.search(r"<thead>.*?</thead>", standings, re.S).group(0))  # type: ignore[union-attr]
    assert headings == f"Place Player Points {' '.join(names)} Byes Status"
    assert len(re.findall(r"<tr [^>]*data-entry", standings)) == 6
    shown = {
        int(entry): text_of(row)
        for entry, row in re.findall(r'<tr [^>]*data-entry="(\d+)">(.*?)</tr>', standings, re.S)
    }
    for standing in formats.standings(format_state(tournament)):
        assert shown[standing.entrant].startswith(f"{standing.place} "), shown[standing.entrant]
    round_1 = text_of(section(section(page, "rounds"), "round-1"))
    assert round_1.count("(1st)") == 2 and round_1.count("(3rd)") == 2 and "finished" in round_1


def test_the_pages_state_is_the_formats_state(organiser: User, people: list[User]) -> None:
    """pages builds the format's state from the rows it shows; it must be selectors'."""
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    enter(tournament, people[:5])
    services.tournament_start(tournament_id=tournament.pk)
    for table in tables_of(tournament, 1):
        table_done(table)
    services.tournament_withdraw(tournament_id=tournament.pk, user=people[0])
    rows = list(tournament.entries.all())
    rounds = list(tournament.rounds.all())
    tables: dict[int, list[Any]] = {}
    for round_ in rounds:
        tables[round_.pk] = list(round_.tables.order_by("number"))
    assert state_from_rows(tournament, rows, rounds, tables) == format_state(tournament)


def test_the_live_part_alone_is_the_pages_changing_part(client: Client, organiser: User) -> None:
    tournament = make_tournament(organiser)
    response = client.get(f"/tournaments/{tournament.pk}/live")
    fragment = response.content.decode()
    assert response.status_code == 200 and "<html" not in fragment
    assert 'id="status"' in fragment and 'id="entrants"' in fragment
    assert 'id="tournament-live"' in page_of(client, tournament)


def test_a_tables_match_and_its_replay_say_which_tournament_round_and_table_it_is(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, name="Autumn <Cup>")
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    table = tables_of(tournament, 1)[1]
    note = (
        f'<p class="match-note"><a href="/tournaments/{tournament.pk}/">'
        f"Autumn &lt;Cup&gt;: round 1, table {table.number}</a></p>"
    )
    assert note in client.get(f"/matches/{table.match_id}/").content.decode()
    table_done(table)
    assert note in client.get(f"/matches/{table.match_id}/replay").content.decode()
    # A match of no tournament says nothing of one.
    other = match_create(
        creator=people[5], game_slug="its-a-bomb", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    assert "match-note" not in client.get(f"/matches/{other.pk}/").content.decode()


def test_a_history_row_of_a_table_names_its_tournament(organiser: User, people: list[User]) -> None:
    """Issue 34, item 8: a history row says which tournament, round and table a match
    was, linking to the tournament; other rows say nothing of one."""
    tournament = make_tournament(organiser, name="Autumn <Cup>")
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    (table,) = tables_of(tournament, 1)
    table_done(table)
    person = entry_of(table, 0).user
    page = logged_in(person).get("/history/").content.decode()
    assert f'<a href="/tournaments/{tournament.pk}/">Autumn &lt;Cup&gt;: round 1, table 1</a>' in page
    assert page.count("Autumn &lt;Cup&gt;") == 1
    (row,) = api("GET", "/api/history", token_for(person)).json()["matches"]
    assert row["notes"] == [
        {"text": "Autumn <Cup>: round 1, table 1", "url": f"/tournaments/{tournament.pk}/"}
    ]


def test_a_finished_tournaments_standings_say_who_won_and_nobody_is_still_playing(
    organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser, format=Tournament.Format.ROUND_ROBIN, max_entrants=4)
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    for table in tables_of(tournament, 1):
        table_done(table)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    browser = logged_in(people[0])
    standings = section(page_of(browser, tournament), "standings")
    statuses = re.findall(r'<td class="state">(won|finished|playing|stopped)</td>', standings)
    assert sorted(statuses) == ["finished", "won"]
    assert "You played in it: seed" in page_of(browser, tournament)


# -- registering and withdrawing --------------------------------------------------------


def test_registering_through_the_page(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser, name="Autumn Cup")
    browser = logged_in(ann)
    assert f'action="/tournaments/{tournament.pk}/register"' in page_of(browser, tournament)
    response = browser.post(f"/tournaments/{tournament.pk}/register", follow=True)
    page = response.content.decode()
    assert response.redirect_chain == [(f"/tournaments/{tournament.pk}/", 302)]
    assert messages_on(page) == "You are registered for Autumn Cup."
    assert Entry.objects.filter(tournament=tournament, user=ann, withdrawn_at__isnull=True).count() == 1
    assert "You are registered." in text_of(section(page, "status"))
    assert "ann" in text_of(section(page, "entrants")) or "Ann" in text_of(section(page, "entrants"))
    assert 'id="register"' not in page and 'id="withdraw"' in page


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("closed", "Registration for this tournament is not open."),
        ("full", "The tournament is full (2 entrants)."),
        ("twice", "You are registered already."),
    ],
)
def test_a_refused_registration_says_why_and_changes_nothing(
    organiser: User, ann: User, people: list[User], case: str, message: str
) -> None:
    tournament = make_tournament(organiser, max_entrants=2)
    if case == "closed":
        Tournament.objects.filter(pk=tournament.pk).update(
            registration_closes_at=timezone.now() - timedelta(minutes=1)
        )
    elif case == "full":
        enter(tournament, people[:2])
    else:
        enter(tournament, [ann])
    before = list(Entry.objects.order_by("pk").values_list("pk", "withdrawn_at"))
    response = logged_in(ann).post(f"/tournaments/{tournament.pk}/register", follow=True)
    assert response.status_code == 200
    assert messages_on(response.content.decode()) == message
    assert list(Entry.objects.order_by("pk").values_list("pk", "withdrawn_at")) == before


def test_signed_out_registering_leads_to_the_login_and_back(client: Client, organiser: User) -> None:
    tournament = make_tournament(organiser)
    page = page_of(client, tournament)
    assert f'href="/accounts/login/?next=/tournaments/{tournament.pk}/"' in page
    # A bot's account never signs in (accounts/backends.py): its session is a stranger's.
    bot = logged_in(User.objects.get(username=BOT_USERNAMES["basic"]))
    for browser in (client, bot):
        for action in ("register", "withdraw"):
            response = browser.post(f"/tournaments/{tournament.pk}/{action}")
            assert response.status_code == 302
            assert response["Location"] == f"/accounts/login/?next=/tournaments/{tournament.pk}/"
    assert not Entry.objects.exists()


def test_registering_takes_a_post(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    assert logged_in(ann).get(f"/tournaments/{tournament.pk}/register").status_code == 405
    assert not Entry.objects.exists()


def test_the_form_carries_a_csrf_token(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    assert browser.post(f"/tournaments/{tournament.pk}/register").status_code == 403
    page = page_of(browser, tournament)
    token = re.search(r'id="register-form">.*?name="csrfmiddlewaretoken" value="([^"]+)"', page, re.S)
    assert token
    response = browser.post(f"/tournaments/{tournament.pk}/register", {"csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302 and Entry.objects.filter(user=ann).exists()


def test_withdrawing_before_the_start(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser, name="Autumn Cup")
    enter(tournament, [ann])
    response = logged_in(ann).post(f"/tournaments/{tournament.pk}/withdraw", follow=True)
    assert messages_on(response.content.decode()) == "You withdrew from Autumn Cup."
    assert Entry.objects.get(user=ann).withdrawn_at is not None
    assert 'id="register"' in response.content.decode()  # and may come back


def test_withdrawing_while_it_runs_needs_the_tick_first(organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=2)
    enter(tournament, people[:4])
    services.tournament_start(tournament_id=tournament.pk)
    leaver = people[0]
    browser = logged_in(leaver)
    form = section(page_of(browser, tournament), "status")
    assert re.search(r'<input type="checkbox" name="confirm" value="yes" required>', form)

    response = browser.post(f"/tournaments/{tournament.pk}/withdraw", follow=True)
    assert messages_on(response.content.decode()).startswith("Tick the box to confirm")
    entry = Entry.objects.get(tournament=tournament, user=leaver)
    assert entry.withdrawn_at is None and entry.out == ""

    response = browser.post(f"/tournaments/{tournament.pk}/withdraw", {"confirm": "yes"}, follow=True)
    page = response.content.decode()
    assert messages_on(page) == f"You withdrew from {tournament.name}."
    entry.refresh_from_db()
    assert entry.out == Entry.Out.WITHDREW and entry.out_in_round == 1
    assert "You are out of this tournament: you withdrew in round 1." in text_of(section(page, "status"))
    table = next(table for table in tables_of(tournament, 1) if entry.pk in table.entries)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED

    again = browser.post(f"/tournaments/{tournament.pk}/withdraw", {"confirm": "yes"}, follow=True)
    assert messages_on(again.content.decode()) == "You are not playing in this tournament."


def test_withdrawing_without_an_entry_is_refused(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    response = logged_in(ann).post(f"/tournaments/{tournament.pk}/withdraw", follow=True)
    assert messages_on(response.content.decode()) == "You are not playing in this tournament."
    assert not Entry.objects.exists()


# -- what a draft hides ------------------------------------------------------------------


def test_a_draft_is_hidden_from_all_but_staff(client: Client, organiser: User, ann: User) -> None:
    draft = make_tournament(organiser, name="Secret Draft", status=Tournament.Status.DRAFT)
    for viewer in (client, logged_in(ann)):
        for path in ("", "live"):
            assert viewer.get(f"/tournaments/{draft.pk}/{path}").status_code == 404
        assert viewer.post(f"/tournaments/{draft.pk}/register").status_code == 404
    assert not Entry.objects.exists()
    assert client.get("/tournaments/999999/").status_code == 404
    staff_page = page_of(logged_in(organiser), draft)
    assert "Being set up: only staff see this page" in text_of(section(staff_page, "status"))


# -- query budgets -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 16])
@pytest.mark.parametrize("format_", [Tournament.Format.SINGLE_ELIMINATION, Tournament.Format.SWISS])
def test_a_running_tournaments_page_has_a_fixed_query_budget(
    organiser: User, people: list[User], size: int, format_: str, django_assert_max_num_queries: Any
) -> None:
    rounds = {"swiss_rounds": 3} if format_ == Tournament.Format.SWISS else {}
    tournament = make_tournament(organiser, format=format_, **rounds)
    enter(tournament, people[:size])
    services.tournament_start(tournament_id=tournament.pk)
    for table in tables_of(tournament, 1):
        table_done(table)
    browser = logged_in(people[0])
    with django_assert_max_num_queries(PAGE_QUERIES):
        assert browser.get(f"/tournaments/{tournament.pk}/").status_code == 200
    with django_assert_max_num_queries(PAGE_QUERIES):
        assert browser.get(f"/tournaments/{tournament.pk}/live").status_code == 200


@pytest.mark.parametrize("size", [1, 4])
def test_the_list_has_a_fixed_query_budget(
    organiser: User, people: list[User], size: int, django_assert_max_num_queries: Any
) -> None:
    for number in range(size):
        finished = make_tournament(organiser, name=f"Cup {number}")
        enter(finished, people[2 * number : 2 * number + 2])
        services.tournament_start(tournament_id=finished.pk)
        table_done(tables_of(finished, 1)[0])
        enter(make_tournament(organiser, name=f"Open {number}"), people[:3])
    browser = logged_in(people[0])
    with django_assert_max_num_queries(LIST_QUERIES):
        assert browser.get("/tournaments/").status_code == 200
