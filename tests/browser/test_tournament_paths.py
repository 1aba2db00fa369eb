"""Tournament paths as a person watching the tournament's page sees them (issue 33, item 7):
a round robin with a bye each round, Bouldertroll Boom Box at tables of four with the top
two going on, a player forfeiting on time inside a Swiss, and a person withdrawing while
their table runs.

Results come through the services (players resign, ``table_done``) where nobody's play is
the point; a person's own action (the withdraw form) goes through the browser. Every fact
is read from the page, which follows the tournament live over its socket without a
reload, and axe-core checks the page in each state reached."""

from __future__ import annotations

import re
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
import time_machine
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match, Seat
from games.tasks import sweep_clocks
from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.conftest import ensure_bot_accounts
from tests.games.helpers import on_turn, play
from tests.games.tournaments.helpers import enter, make_tournament, table_done, tables_of

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How long the page may take to follow a change (the socket's ring, then a fetch).
LIVE = 15_000


# Every write below runs ``off_the_event_loop``, accounts too: a new account rings its
# sessions' sockets, as a tournament's writes ring its page's.


@pytest.fixture
def organiser() -> User:
    def make() -> User:
        ensure_bot_accounts()
        return User.objects.create_user(username="organiser", password="x", is_staff=True)

    return off_the_event_loop(make)


def people(*names: str) -> list[User]:
    return off_the_event_loop(
        lambda: [
            User.objects.create_user(username=name.lower(), display_name=name, password="x") for name in names
        ]
    )


def watch(context: Any, live_site: str, tournament: Tournament) -> Any:
    """The tournament's page, open and connected; a mark on its window shows it is never reloaded."""
    page = context.new_page()
    page.goto(f"{live_site}/tournaments/{tournament.pk}/")
    page.wait_for_selector("#tournament-page[data-connected='yes']")
    page.evaluate("() => { window.__notReloaded = true; }")
    return page


def never_reloaded(page: Any) -> bool:
    return bool(page.evaluate("() => window.__notReloaded === true"))


def standing(page: Any, entry: Entry) -> dict[str, str]:
    """The entry's row of the standings, by its column headings."""
    headings = page.locator("#standings thead th").all_inner_texts()
    cells = page.locator(f"#standings tr[data-entry='{entry.pk}'] td").all_inner_texts()
    return dict(zip(headings, (cell.strip() for cell in cells), strict=True))


def entry_of(tournament: Tournament, user: User) -> Entry:
    return Entry.objects.get(tournament=tournament, user=user)


def start(tournament: Tournament) -> None:
    off_the_event_loop(lambda: services.tournament_start(tournament_id=tournament.pk))


def test_a_round_robin_with_an_odd_field_gives_a_bye_each_round_and_counts_it(
    live_site: str, browser: Any, organiser: User
) -> None:
    ann, bob, cy = people("Ann", "Bob", "Cy")
    tournament = make_tournament(
        organiser,
        name="Odd Robin",
        format=Tournament.Format.ROUND_ROBIN,
        seeding=Tournament.Seeding.RATING,
        max_entrants=8,
    )
    off_the_event_loop(lambda: enter(tournament, [ann, bob, cy]))
    context = browser.new_context()
    page = watch(context, live_site, tournament)
    start(tournament)

    # Three in pairs: three rounds, each with one table and one entrant sitting out.
    expect(page.locator("#round-1")).to_contain_text("Bye:", timeout=LIVE)
    assert "Round 1 is being played" in page.inner_text("#status-line")
    assert page.locator("#round-1 .round-table").count() == 1
    assert serious_findings(page) == []
    wins = {ann: 3, bob: 2, cy: 1}  # Ann beats both, Bob beats Cy
    sat_out = []
    for number in (1, 2, 3):
        (table,) = tables_of(tournament, number)
        players = [Entry.objects.get(pk=entry_id) for entry_id in table.entries]
        (bye,) = {entry_of(tournament, person) for person in wins} - set(players)
        # The one sitting out has no table this round: the standings say so, not "playing".
        expect(page.locator(f"#standings tr[data-entry='{bye.pk}']")).to_contain_text(
            f"bye in round {number}", timeout=LIVE
        )
        expect(page.locator(f"#round-{number} .round-byes")).to_have_text(
            f"Bye: {bye.display_name}", timeout=LIVE
        )
        sat_out.append(bye.user)
        best_first = sorted(players, key=lambda entry: -wins[entry.user])
        off_the_event_loop(partial(table_done, table, [entry.pk for entry in best_first]))
    assert sorted(person.pk for person in sat_out) == sorted(person.pk for person in wins)  # each once

    expect(page.locator("#status-line")).to_contain_text("Won by Ann.", timeout=LIVE)
    for person, points in wins.items():
        # A bye scores as a win: Ann 2 wins + the bye, Bob 1 + the bye, Cy the bye alone.
        row = standing(page, entry_of(tournament, person))
        assert (row["Player"], row["Points"], row["Byes"]) == (person.display_name, str(points), "1"), row
    assert [standing(page, entry_of(tournament, person))["Place"] for person in wins] == ["1", "2", "3"]
    for number in (1, 2, 3):  # every round still shows who sat it out
        assert page.locator(f"#round-{number} .round-byes").count() == 1
    assert never_reloaded(page)
    assert serious_findings(page) == []
    context.close()


def test_boom_box_at_tables_of_four_sends_the_top_two_on_to_a_final(
    live_site: str, browser: Any, organiser: User
) -> None:
    eight = people("Ada", "Ben", "Cat", "Dov", "Eve", "Fin", "Gus", "Hal")
    tournament = make_tournament(
        organiser, name="Boom Fours", game="boom-box", table_size=4, advance=2,
        seeding=Tournament.Seeding.RATING,
    )  # fmt: skip
    off_the_event_loop(lambda: enter(tournament, eight))
    context = browser.new_context()
    page = watch(context, live_site, tournament)
    start(tournament)

    round_one = page.locator("#bracket article[data-round='1']")
    final = page.locator("#bracket article[data-round='2']")
    expect(round_one).to_have_count(2, timeout=LIVE)
    assert page.locator("#bracket .bracket-heading").all_inner_texts() == ["Round 1", "Final"]
    for box in round_one.all():
        assert box.locator("li").count() == 4
        assert "playing now" in box.inner_text()
    assert final.count() == 1 and final.locator("li").count() == 4
    assert final.inner_text().count("to be decided") == 4
    assert serious_findings(page) == []

    first, second = tables_of(tournament, 1)
    names = {entry.pk: entry.display_name for entry in Entry.objects.filter(tournament=tournament)}
    # An upset at table 1: the last seat comes first, the first seat last.
    upset = list(reversed(first.entries))
    off_the_event_loop(lambda: table_done(first, upset))
    first_box = page.locator(f"#bracket article[data-round='1'][data-table='{first.number}']")
    expect(first_box).to_have_class("bracket-table played", timeout=LIVE)
    places = first_box.locator("li").all_inner_texts()
    for place, (entry_id, ordinal) in zip(
        places, zip(upset, ("1st", "2nd", "3rd", "4th"), strict=True), strict=True
    ):
        assert place.split()[:1] == [ordinal] and names[entry_id] in place, places
    assert ["goes on" in place for place in places] == [True, True, False, False], places
    # The final's box names these two at once, though it is seated only when the round ends.
    expect(final).to_contain_text(names[upset[0]], timeout=LIVE)
    assert names[upset[1]] in final.inner_text() and final.inner_text().count("to be decided") == 2

    off_the_event_loop(lambda: table_done(second))
    expect(final.locator(".bracket-table-head a")).to_have_text("Final", timeout=LIVE)
    (seated_final,) = tables_of(tournament, 2)
    finalists = [*upset[:2], *second.entries[:2]]
    assert set(seated_final.entries) == set(finalists)
    assert "playing now" in final.inner_text()
    for entry_id in finalists:
        assert names[entry_id] in final.inner_text()
    assert "Round 2 is being played" in page.inner_text("#status-line")

    champion = seated_final.entries[-1]
    off_the_event_loop(lambda: table_done(seated_final, [champion, *seated_final.entries[:-1]]))
    expect(page.locator("#status-line")).to_contain_text(f"Won by {names[champion]}.", timeout=LIVE)
    final_places = final.locator("li").all_inner_texts()
    assert final_places[0].startswith("1st") and names[champion] in final_places[0]
    assert ["winner" in place for place in final_places] == [True, False, False, False], final_places
    assert never_reloaded(page)
    assert serious_findings(page) == []
    context.close()


def _forfeit_on_time(match_id: int, absent: User) -> int:
    """Play the match until ``absent`` forfeits: the others move through the services, and
    each time it is the absent player's turn, time moves past their deadline and the
    site's clock sweep runs (the autopilot plays for them, until their timeouts in a row
    reach the match's limit). How many sweeps it took."""
    match = Match.objects.get(pk=match_id)
    sweeps = 0
    while match.status == Match.Status.RUNNING:
        index = on_turn(match)
        seat = Seat.objects.get(match=match, index=index)
        if seat.user_id == absent.pk:
            assert seat.deadline_at is not None
            with time_machine.travel(seat.deadline_at + timedelta(seconds=1), tick=False):
                assert sweep_clocks()["timed_out"] == 1
            sweeps += 1
        else:
            play(match, index)
        match.refresh_from_db()
    services.match_finished(match_id=match_id)  # what the announcement does, in the worker too
    return sweeps


def test_a_player_who_never_moves_in_a_swiss_forfeits_on_time_and_is_not_seated_again(
    live_site: str, browser: Any, organiser: User
) -> None:
    ann, bob, cy, fay = people("Ann", "Bob", "Cy", "Fay")
    tournament = make_tournament(
        organiser, name="Clock Swiss", format=Tournament.Format.SWISS, swiss_rounds=2,
        seeding=Tournament.Seeding.RATING, timeouts_to_forfeit=2,
    )  # fmt: skip
    off_the_event_loop(lambda: enter(tournament, [ann, bob, cy, fay]))
    context = browser.new_context()
    page = watch(context, live_site, tournament)
    start(tournament)
    expect(page.locator("#round-1 .round-table")).to_have_count(2, timeout=LIVE)

    fay_entry = entry_of(tournament, fay)
    fays_table, other_table = sorted(
        tables_of(tournament, 1), key=lambda table: fay_entry.pk not in table.entries
    )
    off_the_event_loop(lambda: table_done(other_table))
    sweeps = off_the_event_loop(lambda: _forfeit_on_time(fays_table.match_id, fay))
    assert sweeps == 2  # the autopilot played her first timeout; the second in a row forfeits

    out = "out: forfeited on time in round 1"
    expect(page.locator(f"#standings tr[data-entry='{fay_entry.pk}']")).to_contain_text(out, timeout=LIVE)
    assert out in page.inner_text(f"#entrants li[data-entry='{fay_entry.pk}']")
    fays_row = page.locator(f"#round-1 .round-table[data-table='{fays_table.number}']")
    assert re.search(r"Fay \(2nd\)\s+forfeited on time", fays_row.inner_text()), fays_row.inner_text()
    # Round 2: the three still in, one table and a bye; Fay is not seated.
    expect(page.locator("#round-2 .round-table")).to_have_count(1, timeout=LIVE)
    round_two = page.inner_text("#round-2")
    assert "Fay" not in round_two and "Bye:" in round_two, round_two
    assert "Round 2 is being played" in page.inner_text("#status-line")
    assert serious_findings(page) == []

    (last,) = tables_of(tournament, 2)
    assert fay_entry.pk not in last.entries
    off_the_event_loop(lambda: table_done(last))
    expect(page.locator("#status-line")).to_contain_text("Won by", timeout=LIVE)
    assert standing(page, fay_entry)["Status"] == out
    assert "Fay" not in page.inner_text("#round-2")
    assert never_reloaded(page)
    assert serious_findings(page) == []
    context.close()


def test_a_person_withdraws_while_their_table_runs_and_the_tournament_goes_on_without_them(
    live_site: str, browser: Any, organiser: User
) -> None:
    pat, bea, cal, dot = people("Pat", "Bea", "Cal", "Dot")
    tournament = make_tournament(
        organiser,
        name="Leavers Robin",
        format=Tournament.Format.ROUND_ROBIN,
        seeding=Tournament.Seeding.RATING,
        max_entrants=8,
    )
    off_the_event_loop(lambda: enter(tournament, [pat, bea, cal, dot]))
    start(tournament)
    pat_entry = entry_of(tournament, pat)
    pats_table, other_table = sorted(
        tables_of(tournament, 1), key=lambda table: pat_entry.pk not in table.entries
    )

    # Pat opens the tournament's page, signed in, while their round-1 table runs.
    context = browser.new_context()
    log_in(context, live_site, pat)
    page = watch(context, live_site, tournament)
    assert "You play in it: seed 1." in page.inner_text("#tournament-actions")
    assert "withdrawing resigns the table I am playing" in page.inner_text("#withdraw-form")
    assert serious_findings(page) == []
    # The box must be ticked: the browser refuses the form without it.
    page.click("#withdraw")
    assert page.evaluate(
        "() => document.querySelector('#withdraw-form input[name=confirm]').validity.valueMissing"
    )
    assert Entry.objects.get(pk=pat_entry.pk).out == ""
    page.check("#withdraw-form input[name=confirm]")
    page.click("#withdraw")
    page.wait_for_selector("#tournament-page[data-connected='yes']")  # drawn again after the form, and live
    page.evaluate("() => { window.__notReloaded = true; }")
    assert "You withdrew from Leavers Robin." in page.inner_text(".messages")
    assert "You are out of this tournament: you withdrew in round 1." in page.inner_text(
        "#tournament-actions"
    )
    assert page.locator("#withdraw-form").count() == 0
    out = "out: withdrew in round 1"
    assert out in page.inner_text(f"#entrants li[data-entry='{pat_entry.pk}']")

    # Pat's table is resigned: the other wins it (recorded by the worker, as the site does).
    assert Seat.objects.get(match_id=pats_table.match_id, user=pat).resigned_at is not None
    pats_row = page.locator(f"#round-1 .round-table[data-table='{pats_table.number}']")
    expect(pats_row).to_contain_text("(1st)", timeout=LIVE)
    assert re.search(r"Pat \(2nd\)\s+withdrew", pats_row.inner_text()), pats_row.inner_text()
    assert serious_findings(page) == []

    # The tournament goes on without Pat: whoever was to meet Pat sits out with a bye.
    off_the_event_loop(lambda: table_done(other_table))
    for number in (2, 3):
        expect(page.locator(f"#round-{number} .round-byes")).to_have_count(1, timeout=LIVE)
        assert f"Round {number} is being played" in page.inner_text("#status-line")
        (table,) = tables_of(tournament, number)
        assert pat_entry.pk not in table.entries
        assert "Pat" not in page.inner_text(f"#round-{number}")
        off_the_event_loop(partial(table_done, table))
    expect(page.locator("#status-line")).to_contain_text("Won by", timeout=LIVE)
    assert standing(page, pat_entry)["Status"] == out
    assert "You are out of this tournament: you withdrew in round 1." in page.inner_text(
        "#tournament-actions"
    )
    assert never_reloaded(page)
    assert serious_findings(page) == []
    context.close()
