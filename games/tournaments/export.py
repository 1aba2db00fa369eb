"""A tournament as a download: one JSON document (settings, entrants, every round's
tables and byes, standings) and two CSV files flattened from it (the tables, one row
per entrant per table or bye; the standings, one row per entrant). The schema is
``docs/tournaments.md``, "Exporting a tournament".

Built from the rows ``selectors.tournament_rows`` read (four queries, whatever the
size), the standings by ``formats.standings`` on the same rows' state, as the page's.
Both CSV files come from the document, so the three downloads never disagree.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from django.urls import reverse

from games import clocks
from games.engine import IllegalAction, get
from games.tournaments import cards, formats
from games.tournaments.formats.scoring import bye_points, place_points
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.selectors import TournamentRows

FORMAT = "boomsite-tournament"
# Bumped when a field changes meaning or goes away; new fields may appear without a new version.
SCHEMA_VERSION = 1

PLAYING = "playing"
PLAYED = "played"
BYE = "bye"  # a row of the tables file: sat the round out with a bye
# What a standing's points count: points per place (Swiss, round robin), or the rounds
# gone on from (single elimination).
PLACE_POINTS = "place_points"
ROUNDS_GONE_ON = "rounds_gone_on"

TABLES = "tables"
STANDINGS = "standings"
CSV_FILES = (TABLES, STANDINGS)

TABLE_COLUMNS = ("round", "table", "match", "match_url", "state", "seat", "entry", "name", "place", "points")
# The standings file's columns: each tie-break's own column, by its name, goes after the
# points (the column is named by what they count: "place_points" or "rounds_gone_on");
# the seed is the last tie-break.
STANDING_COLUMNS_BEFORE = ("place", "entry", "name", "is_bot")
STANDING_COLUMNS_AFTER = ("byes", "out", "out_in_round")

# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV
# injection"); names are chosen by their people, so such a cell gets a leading "'".
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def tournament_document(rows: TournamentRows, *, absolute_url: Callable[[str], str]) -> dict[str, Any]:
    """The JSON document. ``absolute_url`` turns a path of the site into a full address
    (the request's ``build_absolute_uri``)."""
    tournament = rows.tournament
    by_id = {entry.pk: entry for entry in rows.entries}
    state = rows.state()
    points_per_place = tournament.format != Tournament.Format.SINGLE_ELIMINATION
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "id": tournament.pk,
        "name": tournament.name,
        "url": absolute_url(reverse("tournaments:detail", args=[tournament.pk])),
        "description": tournament.description,
        "status": tournament.status,
        "settings": _settings(tournament),
        "registration_opens_at": _when(tournament.registration_opens_at),
        "registration_closes_at": _when(tournament.registration_closes_at),
        "starts_at": _when(tournament.starts_at),
        "started_at": _when(tournament.started_at),
        "finished_at": _when(tournament.finished_at),
        "cancelled_because": tournament.cancelled_because or None,
        "entrants": [_entrant(entry) for entry in cards.field_of(rows.entries)],
        "rounds": [
            _round(
                round_, rows.tables_of.get(round_.pk, []), by_id, tournament, points_per_place, absolute_url
            )
            for round_ in rows.rounds
        ],
        "standings": _standings(state, by_id, tournament),
    }


def tables_csv(document: dict[str, Any]) -> bytes:
    """One row per entrant per table, and one per bye, round by round."""
    lines: list[Sequence[Any]] = [TABLE_COLUMNS]
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            for seat in table["seats"]:
                lines.append(
                    (
                        round_["number"], table["number"], table["match"], table["url"], table["state"],
                        seat["seat"], seat["entry"], seat["name"], seat["place"], seat["points"],
                    )
                )  # fmt: skip
        for bye in round_["byes"]:
            lines.append(
                (
                    round_["number"],
                    None,
                    None,
                    None,
                    BYE,
                    None,
                    bye["entry"],
                    bye["name"],
                    None,
                    bye["points"],
                )
            )
    return _csv(lines)


def standings_csv(document: dict[str, Any]) -> bytes:
    """One row per entrant, best first, each tie-break in its own column."""
    standings = document["standings"]
    tiebreaks = standings["tiebreaks"]
    lines: list[Sequence[Any]] = [
        (*STANDING_COLUMNS_BEFORE, standings["points_are"], *tiebreaks, *STANDING_COLUMNS_AFTER)
    ]
    for row in standings["rows"]:
        lines.append(
            (
                row["place"], row["entry"], row["name"], row["is_bot"], row["points"],
                *(row["tiebreaks"][name] for name in tiebreaks),
                row["byes"], row["out"], row["out_in_round"],
            )
        )  # fmt: skip
    return _csv(lines)


# -- the document's parts ---------------------------------------------------------------


def _settings(tournament: Tournament) -> dict[str, Any]:
    is_elimination = tournament.format == Tournament.Format.SINGLE_ELIMINATION
    game_name, options = _game(tournament)
    return {
        "game": tournament.game,
        "game_name": game_name,
        "options": options,
        "format": tournament.format,
        "format_name": tournament.get_format_display(),
        "table_size": tournament.table_size,
        "advance": tournament.advance if is_elimination else None,
        "rounds": tournament.swiss_rounds if tournament.format == Tournament.Format.SWISS else None,
        "seeding": tournament.seeding,
        "max_entrants": tournament.max_entrants,
        "turn_limit_seconds": tournament.turn_limit,
        "time_control": clocks.describe(tournament.turn_limit),
        "timeouts_to_forfeit": tournament.timeouts_to_forfeit,
        "vacation_allowed": tournament.vacation_allowed,
        "bot_fill_level": tournament.bot_fill_level or None,
        "rated": tournament.rated,
    }


def _game(tournament: Tournament) -> tuple[str, dict[str, Any]]:
    """The game's name and every option its tables are played with, defaults included (a
    tournament stores only what the organiser set); as stored if the game changed since."""
    try:
        game = get(tournament.game)
    except IllegalAction:
        return tournament.game, dict(tournament.options)
    return game.name, cards.options_played(game, tournament.options)


def _entrant(entry: Entry) -> dict[str, Any]:
    is_bot = entry.bot_number is not None
    return {
        "entry": entry.pk,
        "name": entry.display_name,
        "seed": entry.seed,
        "is_bot": is_bot,
        "bot_level": (entry.user.bot_level or None) if is_bot else None,
        "out": entry.out or None,
        "out_in_round": entry.out_in_round if entry.out else None,
    }


def _round(
    round_: Round,
    tables: Sequence[Table],
    by_id: dict[int, Entry],
    tournament: Tournament,
    points_per_place: bool,
    absolute_url: Callable[[str], str],
) -> dict[str, Any]:
    bye_score = float(bye_points(tournament.table_size)) if points_per_place else None
    return {
        "number": round_.number,
        "state": PLAYED if round_.finished_at is not None else PLAYING,
        "seated_at": _when(round_.created_at),
        "finished_at": _when(round_.finished_at),
        "tables": [_table(table, by_id, tournament, points_per_place, absolute_url) for table in tables],
        "byes": [
            {"entry": entrant, "name": _name(by_id, entrant), "points": bye_score} for entrant in round_.byes
        ],
    }


def _table(
    table: Table,
    by_id: dict[int, Entry],
    tournament: Tournament,
    points_per_place: bool,
    absolute_url: Callable[[str], str],
) -> dict[str, Any]:
    places = {int(entrant): int(place) for entrant, place in table.places.items()} if table.places else None
    points = place_points(places, tournament.table_size) if places and points_per_place else {}
    return {
        "number": table.number,
        "match": table.match_id,
        "url": absolute_url(reverse("match", args=[table.match_id])),
        "state": PLAYED if table.places is not None else PLAYING,
        "seats": [
            {
                "seat": seat,
                "entry": entrant,
                "name": _name(by_id, entrant),
                "place": places.get(entrant) if places else None,
                "points": float(points[entrant]) if entrant in points else None,
            }
            for seat, entrant in enumerate(table.entries)
        ],
    }


def _standings(state: formats.State, by_id: dict[int, Entry], tournament: Tournament) -> dict[str, Any]:
    """``formats.standings`` on the finished rounds: final once the tournament is, current
    before (none before the start)."""
    standings = formats.standings(state) if state.seeds else []
    rows = []
    for standing in standings:
        entry = by_id[standing.entrant]
        rows.append(
            {
                "place": standing.place,
                "entry": standing.entrant,
                "name": entry.display_name,
                "seed": entry.seed,
                "is_bot": entry.bot_number is not None,
                "points": standing.points,
                "tiebreaks": dict(standing.tiebreaks),
                "byes": standing.byes,
                "out": entry.out or None,
                "out_in_round": entry.out_in_round if entry.out else None,
            }
        )
    return {
        "is_final": tournament.status == Tournament.Status.FINISHED,
        "after_round": len(state.played),
        "points_are": ROUNDS_GONE_ON
        if tournament.format == Tournament.Format.SINGLE_ELIMINATION
        else PLACE_POINTS,
        "tiebreaks": [name for name, _ in standings[0].tiebreaks] if standings else [],
        "rows": rows,
    }


def _name(by_id: dict[int, Entry], entrant: int) -> str | None:
    entry = by_id.get(entrant)
    return entry.display_name if entry is not None else None


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# -- CSV ---------------------------------------------------------------------------------


def _csv(lines: Iterable[Sequence[Any]]) -> bytes:
    """RFC 4180 (commas, CRLF, quotes where needed) in UTF-8 with a byte-order mark, which
    Excel needs to read names as UTF-8 (other spreadsheets skip it)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for line in lines:
        writer.writerow([_cell(value) for value in line])
    return ("\ufeff" + buffer.getvalue()).encode()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
