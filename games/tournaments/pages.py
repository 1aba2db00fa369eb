"""Reads for the tournament pages: a tournament as its page shows it (settings in words,
written rules, entrants, the bracket or the standings, each round's tables), and the
list's winners.

A page reads its rows in a fixed number of queries (the tournament, its entries with
their people, its rounds, their tables with their matches) and builds the format's
state from those same rows (``selectors.state_from_rows``, which ``format_state`` uses
on its own reads; a test holds the two equal), so a page of 64 tables costs what a page of one does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games import clocks
from games.boards.option_words import options_in_words
from games.engine import Game, IllegalAction, get
from games.engine.options import parse_options
from games.tournaments import formats, selectors
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.services import registration_is_open
from games.tournaments.setup import format_settings


class NotShown(Exception):
    """No such tournament, or one still being set up and the viewer is not staff."""


def shown_tournament(tournament_id: int, viewer: Any) -> Tournament:
    """The tournament, if ``viewer`` may see it: anyone, once it is published; staff,
    while it is being set up (to check its page before opening it)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotShown
    if tournament.status == Tournament.Status.DRAFT and not getattr(viewer, "is_staff", False):
        raise NotShown
    return tournament


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


# -- what the page shows ---------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """One entrant at one table, as the page writes it."""

    entry: Entry | None  # None: not known yet (a bracket slot whose feeding table is not played)
    place: int | None = None  # once the table is played
    goes_on: bool = False  # single elimination: advances from this table (or went on with a bye)
    is_bye: bool = False  # went on without playing
    out_here: str = ""  # "forfeited on time" or "withdrew", when it happened at this table's round


@dataclass(frozen=True)
class Entrant:
    entry: Entry
    out_words: str  # why the entrant is out ("withdrew in round 2"), or ""


@dataclass(frozen=True)
class TableCard:
    round_number: int
    number: int | None  # the Table's number; None for a bracket table not seated yet
    match_id: int | None
    places: list[Place]
    is_playing: bool
    is_played: bool

    @property
    def is_byes_only(self) -> bool:
        return bool(self.places) and all(place.is_bye for place in self.places)


@dataclass(frozen=True)
class RoundCard:
    number: int
    tables: list[TableCard]
    byes: list[Entry]
    is_finished: bool


@dataclass(frozen=True)
class StandingRow:
    place: int
    entry: Entry
    points: float
    tiebreaks: list[float]
    byes: int
    out_words: str  # why the entrant is out ("forfeited on time in round 2"), or ""


# The bracket's drawing, in pixels: each column a round, each box a table, a line from
# each table to the one its advancers go to. Positions are computed here so that the
# page draws it without JavaScript (boxes placed by style attributes, lines in an SVG).
BOX_WIDTH = 220
COLUMN_GAP = 44
BOX_HEADER = 28
ROW_HEIGHT = 26
BOX_GAP = 14
TOP_MARGIN = 36  # the columns' headings


@dataclass(frozen=True)
class BracketBox:
    table: TableCard
    column: int
    is_final: bool
    left: int
    top: int
    height: int


@dataclass(frozen=True)
class Connector:
    """A line from a table's right edge to the left edge of the table it feeds."""

    path: str  # SVG path data
    is_decided: bool  # its advancers are known


@dataclass(frozen=True)
class Bracket:
    columns: list[tuple[str, int]]  # each column's heading ("Round 1", ..., "Final") and its left edge
    boxes: list[BracketBox]
    connectors: list[Connector]
    width: int
    height: int


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    game_name: str
    format_words: str
    options: list[dict[str, str]]
    time_control: str
    rules: list[str]
    entrants: list[Entrant]  # the field: by seed once seeded, else in the order they registered
    my_entry: Entry | None  # the viewer's entry, if it counts (registered, not withdrawn before the start)
    registration: str  # "open", "later" (not open yet) or "closed"
    can_register: bool
    can_withdraw: bool
    is_full: bool
    rounds: list[RoundCard]
    standings: list[StandingRow] = field(default_factory=list)
    standing_tiebreaks: list[str] = field(default_factory=list)
    bracket: Bracket | None = None
    winners: list[Entry] = field(default_factory=list)

    @property
    def is_elimination(self) -> bool:
        return self.tournament.format == Tournament.Format.SINGLE_ELIMINATION

    @property
    def rounds_played(self) -> int:
        return sum(1 for round_ in self.rounds if round_.is_finished)


def tournament_page(tournament_id: int, viewer: Any) -> TournamentPage:
    """Raises ``NotShown`` for a tournament the viewer may not see."""
    tournament = shown_tournament(tournament_id, viewer)
    entries = list(tournament.entries.select_related("user"))
    by_id = {entry.pk: entry for entry in entries}
    rounds = list(tournament.rounds.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("match")
        .only("pk", "round_id", "number", "entries", "places", "match__id", "match__status")
        .order_by("round_id", "number")
    )
    tables_of: dict[int, list[Table]] = defaultdict(list)
    for table in tables:
        tables_of[table.round_id].append(table)
    state = selectors.state_from_rows(tournament, entries, rounds, tables_of)
    game = get(tournament.game)
    seeded = sorted((entry for entry in entries if entry.seed is not None), key=lambda entry: entry.seed or 0)
    field_entries = seeded or sorted(
        (entry for entry in entries if entry.withdrawn_at is None),
        key=lambda entry: (entry.registered_at, entry.pk),
    )
    my_entry = _entry_of(viewer, entries)
    now = timezone.now()
    is_open = registration_is_open(tournament, now)
    is_full = sum(1 for entry in entries if entry.withdrawn_at is None) >= tournament.max_entrants
    # Signed out, the button leads to the login; a bot's account never registers.
    may_enter = not getattr(viewer, "is_bot", False)
    round_cards = [_round_card(round_, tables_of[round_.pk], by_id) for round_ in rounds]
    page = TournamentPage(
        tournament=tournament,
        game_name=game.name,
        format_words=format_in_words(tournament),
        options=_options_in_words(game, tournament.options),
        time_control=clocks.describe(tournament.turn_limit),
        rules=formats.rules_text(format_settings(tournament)),
        entrants=[Entrant(entry, out_in_words(entry)) for entry in field_entries],
        my_entry=my_entry,
        registration="open" if is_open else "later" if now < tournament.registration_opens_at else "closed",
        can_register=is_open and not is_full and my_entry is None and may_enter,
        can_withdraw=my_entry is not None and not my_entry.out and not tournament.is_over,
        is_full=is_full,
        rounds=round_cards,
    )
    if not state.seeds:
        return page
    standings = formats.standings(state)
    winners = _winners(tournament, standings, by_id)
    if page.is_elimination:
        bracket = _bracket(formats.bracket(state), rounds, tables_of, by_id, tournament)
        return replace(page, bracket=bracket, winners=winners)
    rows = [_standing_row(standing, by_id) for standing in standings]
    names = [name for name, _ in standings[0].tiebreaks] if standings else []
    return replace(page, standings=rows, standing_tiebreaks=names, winners=winners)


def _entry_of(viewer: Any, entries: Iterable[Entry]) -> Entry | None:
    if not getattr(viewer, "is_authenticated", False):
        return None
    for entry in entries:
        if entry.user_id == viewer.pk and entry.bot_number is None and entry.withdrawn_at is None:
            return entry
    # Withdrawn while it ran: still in the field, out of it; they may see that (no new entry).
    for entry in entries:
        if entry.user_id == viewer.pk and entry.bot_number is None and entry.out:
            return entry
    return None


def _options_in_words(game: Game[Any], options: dict[str, Any]) -> list[dict[str, str]]:
    """Every option the tables are played with, defaults included (a tournament stores
    only what the organiser set)."""
    try:
        parsed = parse_options(game.options, options)
    except IllegalAction:
        parsed = dict(options)  # checked when it was set up; shown as stored if the game changed since
    return options_in_words(game, parsed)


def out_in_words(entry: Entry) -> str:
    if not entry.out:
        return ""
    words = "withdrew" if entry.out == Entry.Out.WITHDREW else "forfeited on time"
    return f"{words} in round {entry.out_in_round}" if entry.out_in_round else words


def _out_at(entry: Entry | None, round_number: int) -> str:
    if entry is None or not entry.out or entry.out_in_round != round_number:
        return ""
    return "withdrew" if entry.out == Entry.Out.WITHDREW else "forfeited on time"


def _round_card(round_: Round, tables: list[Table], by_id: dict[int, Entry]) -> RoundCard:
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


def _standing_row(standing: formats.Standing, by_id: dict[int, Entry]) -> StandingRow:
    entry = by_id[standing.entrant]
    return StandingRow(
        place=standing.place,
        entry=entry,
        points=standing.points,
        tiebreaks=[value for _, value in standing.tiebreaks],
        byes=standing.byes,
        out_words=out_in_words(entry) if standing.out else "",
    )


def _winners(
    tournament: Tournament, standings: Sequence[formats.Standing], by_id: dict[int, Entry]
) -> list[Entry]:
    if tournament.status != Tournament.Status.FINISHED:
        return []
    return [by_id[standing.entrant] for standing in standings if standing.place == 1]


# -- the format's state, from the page's rows -------------------------------------------


# -- the bracket ------------------------------------------------------------------------


def _bracket(
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
    seats = max(
        (len(table.entrants) for column in columns for table in column), default=tournament.table_size
    )
    height = BOX_HEADER + max(seats, 1) * ROW_HEIGHT
    centres: dict[tuple[int, int], float] = {}
    cards: dict[tuple[int, int], TableCard] = {}
    boxes: list[BracketBox] = []
    for column_index, column in enumerate(columns):
        left = column_index * (BOX_WIDTH + COLUMN_GAP)
        fed_by: dict[int, list[float]] = defaultdict(list)
        if column_index:
            for feeder in columns[column_index - 1]:
                if feeder.feeds is not None:
                    fed_by[feeder.feeds].append(centres[(column_index - 1, feeder.position)])
        for stacked, drawn in enumerate(sorted(column, key=lambda drawn: drawn.position)):
            sources = fed_by.get(drawn.position)
            centre = (
                sum(sources) / len(sources)
                if sources
                else TOP_MARGIN + stacked * (height + BOX_GAP) + height / 2
            )
            centres[(column_index, drawn.position)] = centre
            is_final = column_index == len(columns) - 1
            going_on = 1 if is_final else tournament.advance
            card = _bracket_card(drawn, column_index + 1, going_on, seated, by_id)
            cards[(column_index, drawn.position)] = card
            boxes.append(BracketBox(card, column_index, is_final, left, round(centre - height / 2), height))
    connectors = []
    for column_index, column in enumerate(columns[:-1]):
        for drawn in column:
            if drawn.feeds is None or (column_index + 1, drawn.feeds) not in centres:
                continue
            start_x = column_index * (BOX_WIDTH + COLUMN_GAP) + BOX_WIDTH
            end_x = start_x + COLUMN_GAP
            start_y = round(centres[(column_index, drawn.position)])
            end_y = round(centres[(column_index + 1, drawn.feeds)])
            middle_x = start_x + COLUMN_GAP // 2
            connectors.append(
                Connector(
                    path=f"M{start_x} {start_y}H{middle_x}V{end_y}H{end_x}",
                    is_decided=any(place.goes_on for place in cards[(column_index, drawn.position)].places),
                )
            )
    last = len(columns)
    headings = [
        "Final" if number == last and last > 1 else f"Round {number}" for number in range(1, last + 1)
    ]
    return Bracket(
        columns=[(heading, index * (BOX_WIDTH + COLUMN_GAP)) for index, heading in enumerate(headings)],
        boxes=boxes,
        connectors=connectors,
        width=max(last * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP, BOX_WIDTH),
        height=max((box.top + box.height for box in boxes), default=TOP_MARGIN) + BOX_GAP,
    )


def _bracket_card(
    table: formats.BracketTable,
    round_number: int,
    going_on: int,
    seated: dict[tuple[int, frozenset[int]], Table],
    by_id: dict[int, Entry],
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
        advancing = set(_first_places(places, going_on, by_id))
    shown = [
        Place(
            entry=by_id.get(entrant) if entrant is not None else None,
            place=(places or {}).get(entrant) if entrant is not None else None,
            goes_on=entrant is not None and entrant in advancing,
            is_bye=entrant is not None and entrant in table.byes,
            out_here=_out_at(by_id.get(entrant) if entrant is not None else None, round_number),
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
    )


def _first_places(places: dict[int, int], count: int, by_id: dict[int, Entry]) -> list[int]:
    def rank(entrant: int) -> tuple[bool, int, int]:
        entry = by_id.get(entrant)
        return (bool(entry and entry.out), places[entrant], (entry.seed if entry else None) or 0)

    return [
        entrant for entrant in sorted(places, key=rank) if not (by_id.get(entrant) and by_id[entrant].out)
    ][:count]


# -- the list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedTournament:
    tournament: Tournament
    game_name: str
    format_words: str
    entrants: int
    is_registration_open: bool
    opens_later: bool  # registration has not opened yet
    is_mine: bool  # the viewer counts among its entrants
    winners: list[Entry]


@dataclass(frozen=True)
class Listing:
    upcoming: list[ListedTournament]
    running: list[ListedTournament]
    finished: list[ListedTournament]


def listing(viewer: Any) -> Listing:
    """``selectors.tournament_listing`` with what the list page adds: whether registration
    is open now, the viewer's own entries, and the winners of those over (a few queries
    for the whole list)."""
    now = timezone.now()
    shown = selectors.tournament_listing()
    mine: set[int] = set()
    if getattr(viewer, "is_authenticated", False):
        mine = set(
            Entry.objects.filter(user=viewer, bot_number__isnull=True)
            .filter(Q(withdrawn_at__isnull=True) | ~Q(out=""))
            .values_list("tournament_id", flat=True)
        )
    winners = winners_of(
        [tournament for tournament in shown.finished if tournament.status == Tournament.Status.FINISHED]
    )

    def listed(tournament: Tournament) -> ListedTournament:
        return ListedTournament(
            tournament=tournament,
            game_name=_game_name(tournament.game),
            format_words=format_in_words(tournament),
            entrants=int(getattr(tournament, "entrants", 0)),
            is_registration_open=registration_is_open(tournament, now),
            opens_later=now < tournament.registration_opens_at,
            is_mine=tournament.pk in mine,
            winners=winners.get(tournament.pk, []),
        )

    return Listing(
        upcoming=[listed(tournament) for tournament in shown.upcoming],
        running=[listed(tournament) for tournament in shown.running],
        finished=[listed(tournament) for tournament in shown.finished],
    )


def _game_name(slug: str) -> str:
    try:
        return get(slug).name
    except IllegalAction:
        return slug


def winners_of(tournaments: Sequence[Tournament]) -> dict[int, list[Entry]]:
    """Each finished tournament's winners (first place in its final standings), in three
    queries for all of them."""
    if not tournaments:
        return {}
    ids = [tournament.pk for tournament in tournaments]
    entries: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(tournament_id__in=ids).filter(Q(seed__isnull=False) | ~Q(out="")):
        entries[entry.tournament_id].append(entry)
    rounds: dict[int, list[Round]] = defaultdict(list)
    for round_ in Round.objects.filter(tournament_id__in=ids, finished_at__isnull=False):
        rounds[round_.tournament_id].append(round_)
    tables_of: dict[int, list[Table]] = defaultdict(list)
    for table in Table.objects.filter(
        round__tournament_id__in=ids, round__finished_at__isnull=False
    ).order_by("round_id", "number"):
        tables_of[table.round_id].append(table)
    winners: dict[int, list[Entry]] = {}
    for tournament in tournaments:
        state = selectors.state_from_rows(
            tournament, entries[tournament.pk], rounds[tournament.pk], tables_of
        )
        if not state.seeds:
            continue
        by_id = {entry.pk: entry for entry in entries[tournament.pk]}
        winners[tournament.pk] = _winners(tournament, formats.standings(state), by_id)
    return winners
