"""What a tournament's page shows, shaped from rows already read (``selectors.tournament_rows``):
its tables and rounds, the bracket's boxes, the standings with each entrant's state in
words, and the explanations a person needs (a tie at the cut, who went out where).

No queries here: every function takes the rows it needs, so a page of 64 tables costs
what a page of one does (the reads are in ``selectors``; ``pages`` puts them together).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.humanize.templatetags.humanize import ordinal

from games.engine import Game, IllegalAction
from games.engine.options import parse_options
from games.tournaments import formats
from games.tournaments.bracket_drawing import Box, Slot, draw
from games.tournaments.models import Entry, Round, Table, Tournament


@dataclass(frozen=True)
class Place:
    """One entrant at one table, as the page writes it."""

    entry: Entry | None  # None: not known yet (a bracket slot whose feeding table is not played)
    place: int | None = None  # once the table is played
    goes_on: bool = False  # single elimination: advances from this table (or went on with a bye)
    is_bye: bool = False  # went on without playing
    out_here: str = ""  # "forfeited on time" or "withdrew", when it happened at this table's round
    is_tied: bool = False  # shares its place with a table-mate where the cut falls (see TableCard.tie_note)


@dataclass(frozen=True)
class TableCard:
    round_number: int
    number: int | None  # the Table's number; None for a bracket table not seated yet
    match_id: int | None
    places: list[Place]
    is_playing: bool
    is_played: bool
    # A shared place where the cut falls, in words: "Bob and Dan shared 1st: Bob goes on,
    # the better seed." Empty when nobody shared a place there.
    tie_note: str = ""

    @property
    def is_byes_only(self) -> bool:
        return bool(self.places) and all(place.is_bye for place in self.places)

    def seats(self, entry: Entry) -> bool:
        return any(place.entry is not None and place.entry.pk == entry.pk for place in self.places)


@dataclass(frozen=True)
class RoundCard:
    number: int
    tables: list[TableCard]
    byes: list[Entry]
    is_finished: bool

    @property
    def tables_played(self) -> int:
        return sum(1 for table in self.tables if table.is_played)


@dataclass(frozen=True)
class Entrant:
    entry: Entry
    out_words: str  # why the entrant is out ("withdrew in round 2"), or ""


@dataclass(frozen=True)
class StandingRow:
    place: int
    entry: Entry
    points: float
    tiebreaks: list[float]
    byes: int
    out_words: str  # why the entrant is out ("forfeited on time in round 2"), or ""
    # Where the entrant is now, in words: "playing round 2", "round 2 played: 1st",
    # "bye in round 2", "won", "out in round 1 (2nd at the table)".
    state: str
    is_out: bool = False


@dataclass(frozen=True)
class BracketBox:
    table: TableCard
    column: int
    is_final: bool
    box: Box


@dataclass(frozen=True)
class Bracket:
    columns: list[tuple[str, int]]
    boxes: list[BracketBox]
    lines_svg: str
    width: int
    height: int
    tie_notes: list[str]  # each table's tie at the cut, prefixed with where it was


# -- words -------------------------------------------------------------------------------


def format_in_words(tournament: Tournament) -> str:
    """ "Single elimination, pairs", "Swiss, 5 rounds, tables of 4", "Single elimination,
    tables of 4, the top 2 go on"."""
    words = [tournament.get_format_display()]
    if tournament.format == Tournament.Format.SWISS and tournament.swiss_rounds:
        words.append(f"{tournament.swiss_rounds} round{'s' if tournament.swiss_rounds != 1 else ''}")
    words.append("pairs" if tournament.table_size == 2 else f"tables of {tournament.table_size}")
    if tournament.format == Tournament.Format.SINGLE_ELIMINATION and tournament.table_size > 2:
        words.append(
            "the winner goes on" if tournament.advance == 1 else f"the top {tournament.advance} go on"
        )
    return ", ".join(words)


def out_in_words(entry: Entry) -> str:
    if not entry.out:
        return ""
    words = "withdrew" if entry.out == Entry.Out.WITHDREW else "forfeited on time"
    return f"{words} in round {entry.out_in_round}" if entry.out_in_round else words


def _out_at(entry: Entry | None, round_number: int) -> str:
    if entry is None or not entry.out or entry.out_in_round != round_number:
        return ""
    return "withdrew" if entry.out == Entry.Out.WITHDREW else "forfeited on time"


def _names(entries: Sequence[Entry | None]) -> str:
    names = [entry.display_name for entry in entries if entry is not None]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def field_of(entries: Iterable[Entry]) -> list[Entry]:
    """Who plays, as the page and the export list them: by seed once seeded; before that,
    those registered and not withdrawn, in the order they registered."""
    entries = list(entries)
    seeded = sorted((entry for entry in entries if entry.seed is not None), key=lambda entry: entry.seed or 0)
    return seeded or sorted(
        (entry for entry in entries if entry.withdrawn_at is None),
        key=lambda entry: (entry.registered_at, entry.pk),
    )


def options_played(game: Game[Any], options: dict[str, Any]) -> dict[str, Any]:
    """Every option the tables are played with, defaults included (a tournament stores
    only what the organiser set); as stored if the game's options changed since."""
    try:
        return parse_options(game.options, options)
    except IllegalAction:
        return dict(options)


# -- rounds and tables -------------------------------------------------------------------


def round_card(round_: Round, tables: list[Table], by_id: dict[int, Entry]) -> RoundCard:
    cards = []
    for table in tables:
        places = [
            Place(
                entry=by_id.get(entry_id),
                place=table.place_of(entry_id),
                out_here=_out_at(by_id.get(entry_id), round_.number),
            )
            for entry_id in table.entries
        ]
        if table.places is not None:
            places.sort(key=lambda place: place.place or 0)
        cards.append(
            TableCard(
                round_number=round_.number,
                number=table.number,
                match_id=table.match.pk,
                places=places,
                is_playing=table.places is None,
                is_played=table.places is not None,
            )
        )
    byes = [by_id[entry_id] for entry_id in round_.byes if entry_id in by_id]
    return RoundCard(
        number=round_.number, tables=cards, byes=byes, is_finished=round_.finished_at is not None
    )


def table_of(entry: Entry | None, rounds: Sequence[RoundCard]) -> TableCard | None:
    """``entry``'s table in the latest round, if it sits at one (not a bye, not out)."""
    if entry is None or not rounds or entry.out:
        return None
    return next((table for table in rounds[-1].tables if table.seats(entry)), None)


# -- standings ---------------------------------------------------------------------------


def standing_rows(
    tournament: Tournament,
    standings: Sequence[formats.Standing],
    by_id: dict[int, Entry],
    rounds: Sequence[RoundCard],
) -> list[StandingRow]:
    """Swiss and round robin: points and tie-breaks, each entrant's state in words."""
    current = rounds[-1] if rounds and not rounds[-1].is_finished else None
    return [
        _row(
            standing,
            by_id[standing.entrant],
            _points_state(tournament, standing, by_id[standing.entrant], current),
        )
        for standing in standings
    ]


def _row(standing: formats.Standing, entry: Entry, state: str, *, is_out: bool | None = None) -> StandingRow:
    return StandingRow(
        place=standing.place,
        entry=entry,
        points=standing.points,
        tiebreaks=[value for _, value in standing.tiebreaks],
        byes=standing.byes,
        out_words=out_in_words(entry) if standing.out else "",
        state=state,
        is_out=standing.out if is_out is None else is_out,
    )


def _points_state(
    tournament: Tournament, standing: formats.Standing, entry: Entry, current: RoundCard | None
) -> str:
    if standing.out:
        return "out: " + out_in_words(entry)
    if tournament.status == Tournament.Status.FINISHED:
        return "won" if standing.place == 1 else "finished"
    if tournament.is_over:
        return "stopped"
    if current is None:
        return "waiting for the next round"
    if entry in current.byes:
        return f"bye in round {current.number}"
    table = next((table for table in current.tables if table.seats(entry)), None)
    if table is None:
        return "waiting for the next round"
    if table.is_played:
        place = next(place.place for place in table.places if place.entry == entry)
        return f"round {current.number} played: {ordinal(place or 0)}, waiting for the other tables"
    return f"playing round {current.number} (table {table.number})"


def elimination_rows(
    tournament: Tournament,
    standings: Sequence[formats.Standing],
    by_id: dict[int, Entry],
    rounds: Sequence[RoundCard],
    round_count: int,
) -> list[StandingRow]:
    """Single elimination: places by the round each entrant went out in (the winner
    first), then by the place at that table, then by seed (docs/tournaments.md); each
    entrant's state says where they went out."""
    current = rounds[-1] if rounds and not rounds[-1].is_finished else None
    rows = []
    for standing in standings:
        entry = by_id[standing.entrant]
        rounds_passed = int(standing.points)  # elimination's "points": the rounds gone on from
        stop_place = int(standing.tiebreaks[0][1])  # the place where it stopped (0: still in)
        state = _elimination_state(
            tournament, entry, rounds_passed, stop_place, current, round_count, standing.out
        )
        # Out of it: withdrew, forfeited, or stopped at a table (the winner stops at none).
        eliminated = standing.out or (stop_place > 0 and rounds_passed < round_count)
        rows.append(_row(standing, entry, state, is_out=eliminated))
    return rows


def _elimination_state(
    tournament: Tournament,
    entry: Entry,
    rounds_passed: int,
    stop_place: int,
    current: RoundCard | None,
    round_count: int,
    is_out: bool,
) -> str:
    stopped_in = rounds_passed + 1  # the round whose table the entrant did not go on from
    where = "the final" if stopped_in == round_count else f"round {stopped_in}"
    if is_out:
        return "out: " + out_in_words(entry)
    if rounds_passed >= round_count and tournament.status == Tournament.Status.FINISHED:
        return "won"
    if stop_place == 1 and stopped_in == round_count:
        return "shared 1st in the final (the better seed wins)"
    if stop_place > 0 and stopped_in == round_count:
        return f"{ordinal(stop_place)} in the final"
    if stop_place > 0:
        return f"out in {where} ({ordinal(stop_place)} at the table)"
    if tournament.is_over:
        return "stopped" if tournament.status == Tournament.Status.CANCELLED else "finished"
    if current is not None:
        table = next((table for table in current.tables if table.seats(entry)), None)
        if table is not None:
            return f"playing {where} (table {table.number})" if table.is_playing else f"{where} played"
    return "still in"


def winners(
    tournament: Tournament, standings: Sequence[formats.Standing], by_id: dict[int, Entry]
) -> list[Entry]:
    if tournament.status != Tournament.Status.FINISHED:
        return []
    return [by_id[standing.entrant] for standing in standings if standing.place == 1]


# -- the bracket -------------------------------------------------------------------------


def bracket(
    columns: Sequence[Sequence[formats.BracketTable]],
    rounds: Sequence[Round],
    tables_of: dict[int, list[Table]],
    by_id: dict[int, Entry],
    tournament: Tournament,
) -> Bracket:
    """Boxes and lines for the single-elimination bracket. Each bracket table is matched to
    its ``Table`` row by round and entrants, for its number and match link."""
    seated: dict[tuple[int, frozenset[int]], Table] = {}
    round_numbers = {round_.pk: round_.number for round_ in rounds}
    for round_id, rows in tables_of.items():
        for row in rows:
            seated[(round_numbers[round_id], frozenset(row.entries))] = row
    cards: dict[tuple[int, int], TableCard] = {}
    for column_index, column in enumerate(columns):
        is_final = column_index == len(columns) - 1
        going_on = 1 if is_final else tournament.advance
        for drawn in column:
            cards[(column_index, drawn.position)] = _bracket_card(
                drawn, column_index + 1, going_on, seated, by_id, is_final
            )
    _name_who_comes(columns, cards)
    drawing = draw(
        [
            [Slot(column_index, drawn.position, drawn.feeds) for drawn in column]
            for column_index, column in enumerate(columns)
        ],
        seats=max(
            (len(table.entrants) for column in columns for table in column), default=tournament.table_size
        ),
        decided={key for key, card in cards.items() if any(place.goes_on for place in card.places)},
    )
    last = len(columns) - 1
    boxes = [
        BracketBox(cards[key], key[0], key[0] == last, drawing.boxes[key])
        for key in sorted(cards, key=lambda key: (key[0], key[1]))
    ]
    notes = [
        f"{'Final' if box.is_final else f'Round {box.table.round_number}, table {box.table.number}'}: {box.table.tie_note}"
        for box in boxes
        if box.table.tie_note
    ]
    return Bracket(
        columns=drawing.headings,
        boxes=boxes,
        lines_svg=drawing.lines_svg,
        width=drawing.width,
        height=drawing.height,
        tie_notes=notes,
    )


def _name_who_comes(
    columns: Sequence[Sequence[formats.BracketTable]], cards: dict[tuple[int, int], TableCard]
) -> None:
    """A table not seated yet names those who already go on to it: a feeding table played
    while its round goes on sends its advancers at once, though the table is seated (and
    its seats ordered) only when the round ends. The others stay "to be decided"."""
    for column_index in range(1, len(columns)):
        for drawn in columns[column_index]:
            key = (column_index, drawn.position)
            card = cards[key]
            if card.number is not None or all(place.entry is not None for place in card.places):
                continue
            feeders = sorted(
                (feeder for feeder in columns[column_index - 1] if feeder.feeds == drawn.position),
                key=lambda feeder: feeder.position,
            )
            coming = [
                place.entry
                for feeder in feeders
                for place in cards[(column_index - 1, feeder.position)].places
                if place.goes_on and place.entry is not None
            ]
            known = {place.entry.pk for place in card.places if place.entry is not None}
            coming = [entry for entry in coming if entry.pk not in known]
            places = []
            for place in card.places:
                if place.entry is None and coming:
                    place = replace(place, entry=coming.pop(0))
                places.append(place)
            cards[key] = replace(card, places=places)


def _bracket_card(
    table: formats.BracketTable,
    round_number: int,
    going_on: int,
    seated: dict[tuple[int, frozenset[int]], Table],
    by_id: dict[int, Entry],
    is_final: bool,
) -> TableCard:
    """One bracket table as its box shows it. The format's bracket knows only finished
    rounds, so a table of the round being played whose result is recorded is read from
    its row: places, and who goes on by the format's written rule (by place, anyone out
    last, a shared place to the better seed; ``going_on`` of them)."""
    known = frozenset(entrant for entrant in table.entrants if entrant is not None)
    row = seated.get((round_number, known)) if known else None
    places = table.places
    advancing = set(table.advancing)
    if places is None and row is not None and row.places is not None:
        places = {int(entrant): int(place) for entrant, place in row.places.items()}
        advancing = set(first_places(places, going_on, by_id))
    tied = _tied_at_cut(places or {}, advancing, by_id)
    shown = [
        Place(
            entry=by_id.get(entrant) if entrant is not None else None,
            place=(places or {}).get(entrant) if entrant is not None else None,
            goes_on=entrant is not None and entrant in advancing,
            is_bye=entrant is not None and entrant in table.byes,
            out_here=_out_at(by_id.get(entrant) if entrant is not None else None, round_number),
            is_tied=entrant in tied,
        )
        for entrant in table.entrants
    ]
    shown += [
        Place(entry=by_id.get(entrant), goes_on=True, is_bye=True)
        for entrant in table.byes
        if entrant not in table.entrants
    ]
    if places is not None:
        shown.sort(key=lambda place: (place.place is None, place.place or 0))
    return TableCard(
        round_number=round_number,
        number=row.number if row is not None else None,
        match_id=row.match.pk if row is not None else None,
        places=shown,
        is_playing=places is None and (table.playing or row is not None),
        is_played=places is not None,
        tie_note=_tie_note(places or {}, advancing, tied, by_id, is_final),
    )


def first_places(places: dict[int, int], count: int, by_id: dict[int, Entry]) -> list[int]:
    """The ``count`` who go on from a played table: by place, anyone out last (and never
    going on), a shared place to the better seed."""

    def rank(entrant: int) -> tuple[bool, int, int]:
        entry = by_id.get(entrant)
        return (bool(entry and entry.out), places[entrant], (entry.seed if entry else None) or 0)

    return [
        entrant for entrant in sorted(places, key=rank) if not (by_id.get(entrant) and by_id[entrant].out)
    ][:count]


def _tied_at_cut(places: dict[int, int], advancing: Iterable[int], by_id: dict[int, Entry]) -> set[int]:
    """Entrants sharing a place with someone who goes on while they do not (the seed
    decided between them), and those who went on by it."""
    going = set(advancing)
    staying = {
        entrant
        for entrant, place in places.items()
        if entrant not in going
        and not (by_id.get(entrant) and by_id[entrant].out)
        and any(places.get(other) == place for other in going)
    }
    return staying | {
        entrant for entrant in going if places.get(entrant) in {places[other] for other in staying}
    }


def _tie_note(
    places: dict[int, int], advancing: set[int], tied: set[int], by_id: dict[int, Entry], is_final: bool
) -> str:
    """ "Bob and Dan shared 1st: Bob goes on, the better seed (3 against 6)." """
    if not tied:
        return ""
    notes = []
    for place in sorted({places[entrant] for entrant in tied}):
        sharing = sorted(
            (entrant for entrant in tied if places[entrant] == place),
            key=lambda entrant: (by_id[entrant].seed or 0) if entrant in by_id else 0,
        )
        going = [by_id.get(entrant) for entrant in sharing if entrant in advancing]
        seeds = " against ".join(str(by_id[entrant].seed) for entrant in sharing if entrant in by_id)
        verb = "wins" if is_final else "goes on" if len(going) == 1 else "go on"
        better = "the better seed" if len(going) == 1 else "the better seeds"
        notes.append(
            f"{_names([by_id.get(entrant) for entrant in sharing])} shared {ordinal(place)}: "
            f"{_names(going)} {verb}, {better} (seeds {seeds})."
        )
    return " ".join(notes)
