"""A tournament's downloads (games/tournaments/export.py, views.py): the JSON document and
the two CSV files in each format, running and finished, byes included; what they refuse
(a draft to all but staff, another method, an unknown file); names that a spreadsheet
would run as formulas; the standings agreeing with the format's; the query budget."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.tournaments import formats, services
from games.tournaments.models import Entry, Tournament
from games.tournaments.selectors import format_state
from tests.conftest import ensure_bot_accounts
from tests.games.helpers import logged_in
from tests.games.tournaments.helpers import enter, make_tournament, table_done, tables_of

pytestmark = pytest.mark.django_db

# Queries of a download, the same for one table or 64: the tournament, its entries with
# their people, its rounds, their tables. Signed in: the session and its user too.
EXPORT_QUERIES = 4
EXPORT_QUERIES_SIGNED_IN = 6


@pytest.fixture
def people(make_person: Callable[..., User]) -> list[User]:
    return [make_person(f"player{number}", display_name=f"Player {number}") for number in range(1, 9)]


def started(organiser: User, people: list[User], **settings: Any) -> Tournament:
    """A tournament of ``people``, seeded in the order they registered, round 1 seated."""
    tournament = make_tournament(organiser, seeding=Tournament.Seeding.RATING, **settings)
    enter(tournament, people)
    services.tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def play_to_the_end(tournament: Tournament) -> None:
    """Every table finished in seat order (the first seat wins), round after round."""
    number = 1
    while True:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return
        for table in tables_of(tournament, number):
            if table.places is None:
                table_done(table)
        number += 1


def exported(client: Client, tournament: Tournament) -> dict[str, Any]:
    response = client.get(f"/tournaments/{tournament.pk}/export.json")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


def csv_of(client: Client, tournament: Tournament, what: str) -> list[dict[str, str]]:
    response = client.get(f"/tournaments/{tournament.pk}/export.csv?what={what}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith("\ufeff".encode())  # Excel reads it as UTF-8
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


def names(document: dict[str, Any]) -> dict[int, str]:
    return {entrant["entry"]: entrant["name"] for entrant in document["entrants"]}


def agrees_with_the_format(document: dict[str, Any], tournament: Tournament) -> None:
    """The document's standings are ``formats.standings`` on the tournament's state, row for row."""
    expected = formats.standings(format_state(tournament))
    rows = document["standings"]["rows"]
    assert [row["entry"] for row in rows] == [standing.entrant for standing in expected]
    for row, standing in zip(rows, expected, strict=True):
        assert row["place"] == standing.place and row["points"] == standing.points
        assert list(row["tiebreaks"].items()) == list(standing.tiebreaks)
        assert row["byes"] == standing.byes and bool(row["out"]) == standing.out
    assert document["standings"]["tiebreaks"] == [name for name, _ in expected[0].tiebreaks]


# -- each format ------------------------------------------------------------------------


def test_a_single_elimination_with_a_bye_running_then_finished(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = started(organiser, people[:3], name="Autumn Cup")
    document = exported(client, tournament)
    assert document["format"] == "boomsite-tournament" and document["schema_version"] == 1
    assert (
        document["status"] == "running"
        and document["url"] == f"http://testserver/tournaments/{tournament.pk}/"
    )
    assert document["settings"] == {
        "game": "go-fox",
        "game_name": "Go Fox!",
        "options": document["settings"]["options"],  # the game's defaults, checked below
        "format": "single_elimination",
        "format_name": "Single elimination",
        "table_size": 2,
        "advance": 1,
        "rounds": None,
        "seeding": "rating",
        "max_entrants": 64,
        "turn_limit_seconds": 3600,
        "time_control": "1 hour per turn",
        "timeouts_to_forfeit": 2,
        "vacation_allowed": False,
        "bot_fill_level": None,
        "rated": True,
    }
    assert isinstance(document["settings"]["options"], dict)
    assert document["started_at"] is not None and document["finished_at"] is None
    assert [(entrant["seed"], entrant["name"]) for entrant in document["entrants"]] == [
        (1, "Player 1"),
        (2, "Player 2"),
        (3, "Player 3"),
    ]
    seed = {entrant["seed"]: entrant["entry"] for entrant in document["entrants"]}
    (round_1,) = document["rounds"]
    (table,) = tables_of(tournament, 1)
    # Seed 1 has the bye; 2 meets 3, in the table's seat order.
    assert round_1["byes"] == [{"entry": seed[1], "name": "Player 1", "points": None}]
    assert round_1["state"] == "playing" and round_1["tables"] == [
        {
            "number": 1,
            "match": table.match_id,
            "url": f"http://testserver/matches/{table.match_id}/",
            "state": "playing",
            "seats": [
                {"seat": seat, "entry": entry, "name": names(document)[entry], "place": None, "points": None}
                for seat, entry in enumerate(table.entries)
            ],
        }
    ]
    assert set(table.entries) == {seed[2], seed[3]}
    # Before a round is over the standings are those after round 0: everyone level but by seed.
    assert document["standings"]["after_round"] == 0 and document["standings"]["is_final"] is False
    assert document["standings"]["points_are"] == "rounds_gone_on"
    assert document["standings"]["tiebreaks"] == ["Place at last table", "Seed"]
    agrees_with_the_format(document, tournament)

    play_to_the_end(tournament)
    tournament.refresh_from_db()
    document = exported(client, tournament)
    assert document["status"] == "finished" and document["finished_at"] is not None
    assert [round_["state"] for round_ in document["rounds"]] == ["played", "played"]
    final = document["rounds"][1]["tables"][0]
    assert final["state"] == "played" and sorted(seat["place"] for seat in final["seats"]) == [1, 2]
    standings = document["standings"]
    assert standings["is_final"] is True and standings["after_round"] == 2
    agrees_with_the_format(document, tournament)
    # Places by the round one went out: the final's two first (its winner first), the one out in round 1 last.
    winner = next(seat["entry"] for seat in final["seats"] if seat["place"] == 1)
    (loser_1,) = {seat["entry"] for seat in round_1["tables"][0]["seats"]} - {
        seat["entry"] for seat in final["seats"]
    }
    order = [row["entry"] for row in standings["rows"]]
    assert order[0] == winner and order[-1] == loser_1
    assert [row["place"] for row in standings["rows"]] == [1, 2, 3]
    assert [row["points"] for row in standings["rows"]] == [2.0, 1.0, 0.0]

    tables = csv_of(client, tournament, "tables")
    assert [(row["round"], row["table"], row["state"]) for row in tables] == [
        ("1", "1", "played"),
        ("1", "1", "played"),
        ("1", "", "bye"),
        ("2", "1", "played"),
        ("2", "1", "played"),
    ]
    assert list(tables[0]) == [
        "round", "table", "match", "match_url", "state", "seat", "entry", "name", "place", "points"
    ]  # fmt: skip
    assert tables[2]["name"] == "Player 1" and tables[2]["points"] == "" and tables[2]["place"] == ""
    standings_file = csv_of(client, tournament, "standings")
    assert list(standings_file[0]) == [
        "place", "entry", "name", "is_bot", "rounds_gone_on", "Place at last table", "Seed", "byes", "out",
        "out_in_round",
    ]  # fmt: skip
    assert [row["entry"] for row in standings_file] == [str(row["entry"]) for row in standings["rows"]]
    assert standings_file[0]["rounds_gone_on"] == "2" and standings_file[0]["is_bot"] == "false"


def test_a_round_robin_with_a_bye(client: Client, organiser: User, people: list[User]) -> None:
    tournament = started(organiser, people[:3], format=Tournament.Format.ROUND_ROBIN, max_entrants=16)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    document = exported(client, tournament)
    assert document["settings"]["advance"] is None and document["settings"]["rounds"] is None
    # Three in pairs: three rounds, each one table and one bye, everyone's bye once.
    assert len(document["rounds"]) == 3
    assert all(len(round_["tables"]) == 1 and len(round_["byes"]) == 1 for round_ in document["rounds"])
    assert sorted(round_["byes"][0]["entry"] for round_ in document["rounds"]) == sorted(names(document))
    # A bye scores as a win; a played pair gives 1 and 0.
    assert all(round_["byes"][0]["points"] == 1.0 for round_ in document["rounds"])
    for round_ in document["rounds"]:
        (table,) = round_["tables"]
        assert sorted((seat["place"], seat["points"]) for seat in table["seats"]) == [(1, 1.0), (2, 0.0)]
    assert document["standings"]["points_are"] == "place_points" and document["standings"]["is_final"]
    assert all(row["byes"] == 1 for row in document["standings"]["rows"])
    agrees_with_the_format(document, tournament)

    tables = csv_of(client, tournament, "tables")
    assert len(tables) == 3 * 3  # per round: two seats and a bye
    byes = [row for row in tables if row["state"] == "bye"]
    assert [row["round"] for row in byes] == ["1", "2", "3"] and {row["points"] for row in byes} == {"1"}
    standings = csv_of(client, tournament, "standings")
    assert list(standings[0])[4:7] == ["place_points", "Sonneborn-Berger", "Head-to-head"]
    total = sum(float(row["place_points"]) for row in standings)
    assert total == 3 + 3  # three tables of 1 point and three byes of 1


def test_a_swiss_running_then_finished_with_a_withdrawal_marked_out(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = started(organiser, people[:4], format=Tournament.Format.SWISS, swiss_rounds=2, table_size=2)
    for table in tables_of(tournament, 1):
        table_done(table)
    services.tournament_withdraw(tournament_id=tournament.pk, user=people[3])
    document = exported(client, tournament)
    assert document["settings"]["rounds"] == 2
    assert [round_["state"] for round_ in document["rounds"]] == ["played", "playing"]
    assert document["rounds"][1]["tables"][0]["state"] in {"playing", "played"}
    standings = document["standings"]
    assert standings["after_round"] == 1 and not standings["is_final"]
    assert standings["tiebreaks"] == ["Sonneborn-Berger", "Head-to-head", "Seed"]
    agrees_with_the_format(document, tournament)
    gone = Entry.objects.get(tournament=tournament, user=people[3])
    (row,) = [row for row in standings["rows"] if row["entry"] == gone.pk]
    assert row["out"] == "withdrew" and row["out_in_round"] == 2
    (entrant,) = [entrant for entrant in document["entrants"] if entrant["entry"] == gone.pk]
    assert entrant["out"] == "withdrew" and entrant["out_in_round"] == 2
    assert {row["out"] for row in csv_of(client, tournament, "standings")} == {"", "withdrew"}

    play_to_the_end(tournament)
    tournament.refresh_from_db()
    document = exported(client, tournament)
    assert document["status"] == "finished" and document["standings"]["is_final"]
    assert document["standings"]["after_round"] == 2
    agrees_with_the_format(document, tournament)


def test_tables_of_four_give_each_seat_its_points(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = started(
        organiser, people[:8], game="boom-box", format=Tournament.Format.SWISS, swiss_rounds=1, table_size=4
    )
    play_to_the_end(tournament)
    document = exported(client, tournament)
    for table in document["rounds"][0]["tables"]:
        assert [(seat["place"], seat["points"]) for seat in table["seats"]] == [
            (1, 3.0), (2, 2.0), (3, 1.0), (4, 0.0)
        ]  # fmt: skip
    assert document["standings"]["tiebreaks"] == ["Table-mates' points", "Seed"]
    agrees_with_the_format(document, tournament)


def test_before_the_start_the_document_has_the_field_and_no_rounds(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = make_tournament(organiser)
    enter(tournament, people[:2])
    services.tournament_withdraw(tournament_id=tournament.pk, user=people[0])
    document = exported(client, tournament)
    assert document["status"] == "registration" and document["started_at"] is None
    assert [(entrant["name"], entrant["seed"]) for entrant in document["entrants"]] == [("Player 2", None)]
    assert document["rounds"] == [] and document["standings"]["rows"] == []
    assert csv_of(client, tournament, "standings") == []


def test_bot_places_are_marked_as_bots(client: Client, organiser: User, people: list[User]) -> None:
    ensure_bot_accounts()
    tournament = started(organiser, people[:3], bot_fill_level="random", max_entrants=4)
    document = exported(client, tournament)
    bots = [entrant for entrant in document["entrants"] if entrant["is_bot"]]
    assert len(bots) == 1 and bots[0]["bot_level"] == "random" and bots[0]["seed"] == 4
    assert all(entrant["bot_level"] is None for entrant in document["entrants"] if not entrant["is_bot"])


# -- the answers: names, headers, refusals -----------------------------------------------


def test_the_downloads_are_named_attachments_never_stored(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = started(organiser, people[:2], name="Autumn Cup: Ünder 20!")
    for ending, path in (
        (".json", "export.json"),
        ("-tables.csv", "export.csv"),
        ("-tables.csv", "export.csv?what=tables"),
        ("-standings.csv", "export.csv?what=standings"),
    ):
        response = client.get(f"/tournaments/{tournament.pk}/{path}")
        assert (
            response["Content-Disposition"]
            == f'attachment; filename="autumn-cup-under-20-{tournament.pk}{ending}"'
        )
        assert "no-store" in response["Cache-Control"]


def test_a_name_a_spreadsheet_would_run_is_escaped(
    client: Client, organiser: User, make_person: Callable[..., User]
) -> None:
    tricky = ["=cmd()", "+1", "-2+3", "@SUM(A1)", "Plain"]
    players = [make_person(f"tricky{index}", display_name=name) for index, name in enumerate(tricky)]
    tournament = started(organiser, players, format=Tournament.Format.ROUND_ROBIN, max_entrants=16)
    for table in tables_of(tournament, 1):
        table_done(table)
    document = exported(client, tournament)
    assert sorted(names(document).values()) == sorted(tricky)  # JSON keeps the names as they are
    expected = {"'=cmd()", "'+1", "'-2+3", "'@SUM(A1)", "Plain"}
    assert {row["name"] for row in csv_of(client, tournament, "standings")} == expected
    assert {row["name"] for row in csv_of(client, tournament, "tables")} <= expected


def test_no_email_or_username_leaves_in_a_download(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = started(organiser, people[:3])
    for path in ("export.json", "export.csv?what=tables", "export.csv?what=standings"):
        body = client.get(f"/tournaments/{tournament.pk}/{path}").content.decode("utf-8-sig")
        assert "@example.com" not in body and "player1" not in body and "organiser" not in body


def test_a_draft_is_exported_to_staff_only(client: Client, organiser: User, ann: User) -> None:
    draft = make_tournament(organiser, name="Secret Draft", status=Tournament.Status.DRAFT)
    for viewer in (client, logged_in(ann)):
        for path in ("export.json", "export.csv", "export.csv?what=standings"):
            response = viewer.get(f"/tournaments/{draft.pk}/{path}")
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "no_such_tournament"
            assert "Secret Draft" not in response.content.decode()
    assert client.get("/tournaments/999999/export.json").status_code == 404
    assert exported(logged_in(organiser), draft)["status"] == "draft"


def test_only_get_is_answered(client: Client, organiser: User, people: list[User]) -> None:
    tournament = started(organiser, people[:2])
    draft = make_tournament(organiser, status=Tournament.Status.DRAFT)
    for target in (tournament, draft):  # the method is refused before anything is read
        for path in ("export.json", "export.csv"):
            for method in (client.post, client.put, client.delete):
                response = method(f"/tournaments/{target.pk}/{path}")
                assert response.status_code == 405 and response["Allow"] == "GET"
                assert response.json()["error"] == {
                    "code": "method_not_allowed",
                    "message": "This address only downloads the tournament: use GET.",
                }


def test_an_unknown_csv_is_refused_with_the_ones_there_are(
    client: Client, organiser: User, people: list[User]
) -> None:
    tournament = started(organiser, people[:2])
    response = client.get(f"/tournaments/{tournament.pk}/export.csv?what=pairings")
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "bad_filter",
        "message": "Ask for what=tables or what=standings, not 'pairings'.",
    }


def test_the_page_links_its_downloads(client: Client, organiser: User, people: list[User]) -> None:
    tournament = make_tournament(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/export.json"' in page
    assert "export.csv" not in page  # nothing to list before the first round
    enter(tournament, people[:2])
    services.tournament_start(tournament_id=tournament.pk)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/export.csv?what=tables"' in page
    assert f'href="/tournaments/{tournament.pk}/export.csv?what=standings"' in page


# -- the query budget --------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 128])
def test_a_download_has_a_fixed_query_budget(
    organiser: User, make_person: Callable[..., User], size: int, django_assert_max_num_queries: Any
) -> None:
    """64 tables cost what one does; a bot's place (its level is its account's) costs nothing more."""
    ensure_bot_accounts()
    players = [make_person(f"many{number}") for number in range(size - 1)]
    tournament = started(
        organiser, players, format=Tournament.Format.SWISS, swiss_rounds=1, max_entrants=size,
        bot_fill_level="random",
    )  # fmt: skip
    assert len(tables_of(tournament, 1)) == size // 2
    for table in tables_of(tournament, 1):
        table_done(table)
    signed_in = logged_in(players[0])
    for path in ("export.json", "export.csv?what=tables", "export.csv?what=standings"):
        with django_assert_max_num_queries(EXPORT_QUERIES):
            response = Client().get(f"/tournaments/{tournament.pk}/{path}")
        assert response.status_code == 200 and b"Random Bot" in response.content
        with django_assert_max_num_queries(EXPORT_QUERIES_SIGNED_IN):
            assert signed_in.get(f"/tournaments/{tournament.pk}/{path}").status_code == 200
