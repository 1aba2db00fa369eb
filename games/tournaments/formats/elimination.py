"""Single elimination: tables of N, the top K of each going on, until a final table.

**The bracket.** With g = N / K tables feeding each next table, a bracket of R rounds
has N * g**(R-1) places; R is the smallest that holds every entrant. Seeds are laid out
from the final outwards so that, if the better seed always went on, the best would meet
last: the final holds seeds 1..N; going one round back, each table's seeds are dealt
to its g feeding tables in snake order (1, 2, ..., g, g, ..., 1, ...), K each, and the
next seeds fill the remaining N - K places of every feeding table in snake order
starting from the table with the worst best seed (so the best seed meets the worst
newcomers). For pairs this is the usual bracket (1 v 16, 8 v 9, 4 v 13, ...); for 16
entrants in tables of 4 with one going on, table 1 holds seeds 1, 8, 9 and 16.

**Byes.** The places beyond the field are the highest seed numbers; laid out as above
they fall at the top seeds' tables. A first-round table left with no more entrants than
go on sends them on without playing (a bye); one left with more plays short-handed.
Later, a table whose feeders sent no more than K entrants (after withdrawals) is a bye
the same way.

**Going on.** At each table the entrants are ranked by place; an entrant who is out
(withdrew or forfeited) is ranked last; a tie (shared place) is broken by the better
seed. The first K go on; at the final the first is the winner.

Position p of a round feeds position p // g of the next; positions are the bracket
rows, and each recorded round's tables are found in the bracket by their entrants.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.tournaments.formats.model import BracketTable, Round, Standing, State, Table
from games.tournaments.formats.scoring import History, effective_places, seat_order

STOP_PLACE = "Place at last table"
SEED = "Seed"


def bracket_rounds(entrants: int, table_size: int, advance: int) -> int:
    feeders = table_size // advance
    rounds, places = 1, table_size
    while places < entrants:
        places *= feeders
        rounds += 1
    return rounds


def first_round_layout(entrants: int, table_size: int, advance: int) -> list[list[int]]:
    """Seed numbers (1 = best) at each first-round table, in bracket order, best first;
    numbers above ``entrants`` are empty places."""
    feeders = table_size // advance
    level = [list(range(1, table_size + 1))]
    for _ in range(bracket_rounds(entrants, table_size, advance) - 1):
        children: list[list[int]] = []
        for table in level:
            kids: list[list[int]] = [[] for _ in range(feeders)]
            for index, seed in enumerate(sorted(table)):
                block, offset = divmod(index, feeders)
                kids[offset if block % 2 == 0 else feeders - 1 - offset].append(seed)
            children.extend(kids)
        placed = len(level) * table_size
        by_strength = sorted(range(len(children)), key=lambda child: min(children[child]))
        newcomers = range(placed + 1, placed * feeders + 1)
        for index, seed in enumerate(newcomers):
            sweep, offset = divmod(index, len(children))
            # The first sweep runs from the weakest table to the strongest, the next back.
            child = by_strength[len(children) - 1 - offset if sweep % 2 == 0 else offset]
            children[child].append(seed)
        level = children
    return [sorted(table) for table in level]


@dataclass
class _Spot:
    """One bracket position in one round, as it was or will be."""

    seated: tuple[int, ...] = ()  # at the table, in seat order
    places: dict[int, int] | None = None
    byes: list[int] = field(default_factory=list)


class _Bracket:
    def __init__(self, state: State, history: History) -> None:
        settings = state.settings
        self.state = state
        self.history = history
        self.size = settings.table_size
        self.advance = settings.advance
        self.feeders = settings.table_size // settings.advance
        self.rounds = bracket_rounds(len(state.seeds), self.size, self.advance)
        self.seed_index = {entrant: index for index, entrant in enumerate(state.seeds)}
        self.layout = first_round_layout(len(state.seeds), self.size, self.advance)
        self.played = self._played_spots()

    def _played_spots(self) -> list[dict[int, _Spot]]:
        seeds = self.state.seeds
        position = {
            seeds[number - 1]: row
            for row, table in enumerate(self.layout)
            for number in table
            if number <= len(seeds)
        }
        rounds: list[dict[int, _Spot]] = []
        for number, played in enumerate(self.state.played, start=1):
            spots: dict[int, _Spot] = {}
            for table, places in zip(played.round.tables, played.places, strict=True):
                rows = {position[entrant] for entrant in table.entrants}
                if len(rows) != 1 or rows & spots.keys():
                    raise ValueError(f"Round {number}: a table does not match the bracket: {table.entrants}.")
                spots[rows.pop()] = _Spot(seated=table.entrants, places=places)
            for entrant in played.round.byes:
                spots.setdefault(position[entrant], _Spot()).byes.append(entrant)
            rounds.append(spots)
            position = {entrant: row // self.feeders for entrant, row in position.items()}
        return rounds

    def going_on(self, round_index: int, spot: _Spot) -> list[int]:
        """Who goes on from a decided spot (the final's winner, at the final): the best
        by place who are not out (so the out rank last), ties to the better seed."""
        out = self.state.out
        byes = [entrant for entrant in spot.byes if entrant not in out]
        if spot.places is None:
            return byes
        places = effective_places(spot.places)
        ranked = sorted(spot.seated, key=lambda entrant: (places[entrant], self.seed_index[entrant]))
        count = 1 if round_index == self.rounds - 1 else self.advance
        return [entrant for entrant in ranked if entrant not in out][:count] + byes

    def passed(self, round_index: int) -> dict[int, list[int]]:
        """Per position of a played round, who went on: as the next recorded round
        seats them, or by the places for the last recorded round."""
        spots = self.played[round_index]
        if round_index + 1 < len(self.played):
            following = {
                entrant
                for spot in self.played[round_index + 1].values()
                for entrant in (*spot.seated, *spot.byes)
            }
            return {
                row: [entrant for entrant in (*spot.seated, *spot.byes) if entrant in following]
                for row, spot in spots.items()
            }
        return {row: self.going_on(round_index, spot) for row, spot in spots.items()}

    def arriving(self, round_index: int) -> dict[int, list[int]]:
        """Per position of the round after the recorded ones, who sits there (not out)."""
        out = self.state.out
        if round_index == 0:
            seeds = self.state.seeds
            return {
                row: [
                    seeds[number - 1]
                    for number in table
                    if number <= len(seeds) and seeds[number - 1] not in out
                ]
                for row, table in enumerate(self.layout)
            }
        arriving: dict[int, list[int]] = {}
        for row, advancers in sorted(self.passed(round_index - 1).items()):
            arriving.setdefault(row // self.feeders, []).extend(
                entrant for entrant in advancers if entrant not in out
            )
        return arriving

    def next_spots(self) -> dict[int, _Spot] | None:
        index = len(self.played)
        if index >= self.rounds:
            return None
        arriving = self.arriving(index)
        if sum(len(entrants) for entrants in arriving.values()) <= 1:
            return None  # the winner is known (or nobody is left)
        final = index == self.rounds - 1
        spots: dict[int, _Spot] = {}
        for row, entrants in sorted(arriving.items()):
            if len(entrants) > (1 if final else self.advance):
                spots[row] = _Spot(seated=seat_order(entrants, self.history, self.seed_index))
            elif entrants:
                spots[row] = _Spot(byes=list(entrants))
        return spots


def elimination_round(state: State, history: History) -> Round | None:
    spots = _Bracket(state, history).next_spots()
    if spots is None:
        return None
    ordered = [spots[row] for row in sorted(spots)]
    return Round(
        tables=tuple(Table(spot.seated) for spot in ordered if spot.seated),
        byes=tuple(entrant for spot in ordered for entrant in spot.byes),
    )


def elimination_standings(state: State, history: History) -> list[Standing]:
    """Best first: the rounds gone on from (a bye counts; the winner's final too), then
    the place at the table where the entrant stopped (0 while still in; the table size
    + 1 when out without playing it), then the better seed."""
    bracket = _Bracket(state, history)
    out = state.out
    passed = dict.fromkeys(state.seeds, 0)
    stopped_at: dict[int, int] = {}
    expected = set(state.seeds)
    for index, spots in enumerate(bracket.played):
        went_on = {entrant for advancers in bracket.passed(index).values() for entrant in advancers}
        for spot in spots.values():
            places = effective_places(spot.places) if spot.places is not None else {}
            for entrant in (*spot.seated, *spot.byes):
                expected.discard(entrant)
                if entrant in went_on:
                    passed[entrant] += 1
                elif entrant in out or entrant not in places:
                    stopped_at[entrant] = state.settings.table_size + 1
                else:
                    stopped_at[entrant] = places[entrant]
        for entrant in expected:  # due at this round but out before it was seated
            stopped_at[entrant] = state.settings.table_size + 1
        expected = went_on
    if bracket.next_spots() is None:
        # Over: whoever went on from the last round played is the winner (or out).
        for entrant in expected:
            stopped_at.setdefault(entrant, 1 if entrant not in out else state.settings.table_size + 1)
    else:
        for entrant in expected & out:
            stopped_at[entrant] = state.settings.table_size + 1
    seed_number = {entrant: number for number, entrant in enumerate(state.seeds, start=1)}
    order = sorted(
        state.seeds, key=lambda entrant: (-passed[entrant], stopped_at.get(entrant, 0), seed_number[entrant])
    )
    return [
        Standing(
            entrant=entrant,
            place=place,
            points=float(passed[entrant]),
            tiebreaks=((STOP_PLACE, float(stopped_at.get(entrant, 0))), (SEED, float(seed_number[entrant]))),
            byes=history.records[entrant].byes,
            out=entrant in out,
        )
        for place, entrant in enumerate(order, start=1)
    ]


def elimination_bracket(state: State, history: History) -> list[list[BracketTable]]:
    """Every round's tables, those not played yet included, for drawing. Column i has
    (first-round tables) / g**i rows; a table not reached yet lists a None for each
    entrant still to come from its feeding tables."""
    bracket = _Bracket(state, history)
    recorded = len(bracket.played)
    upcoming = bracket.next_spots()
    columns: list[list[BracketTable]] = []
    sending: list[list[int | None]] = []  # what each row of the previous column sends on
    rows = len(bracket.layout)
    for index in range(bracket.rounds):
        goes_on = 1 if index == bracket.rounds - 1 else bracket.advance
        feeds = None if index == bracket.rounds - 1 else bracket.feeders
        column: list[BracketTable] = []
        next_sending: list[list[int | None]] = []
        went_on = bracket.passed(index) if index < recorded else {}
        for row in range(rows):
            places: dict[int, int] | None = None
            byes: tuple[int, ...] = ()
            advancing: tuple[int, ...] = ()
            playing = False
            if index < recorded or (index == recorded and upcoming is not None):
                spot = (bracket.played[index] if index < recorded else upcoming or {}).get(row, _Spot())
                entrants: tuple[int | None, ...] = spot.seated or tuple(spot.byes)
                places, byes = spot.places, tuple(spot.byes)
                if index < recorded:
                    advancing = tuple(went_on.get(row, []))
                elif spot.byes:
                    advancing = tuple(entrant for entrant in spot.byes if entrant not in state.out)
                playing = index == recorded and bool(spot.seated)
                sent: list[int | None] = [None] * goes_on if playing else list(advancing)
            else:
                if index == 0:
                    entrants = tuple(bracket.arriving(0).get(row, []))
                else:
                    children = range(row * bracket.feeders, (row + 1) * bracket.feeders)
                    entrants = tuple(slot for child in children for slot in sending[child])
                sent = [None] * min(len(entrants), goes_on)
            column.append(
                BracketTable(
                    round=index,
                    position=row,
                    entrants=entrants,
                    places=places,
                    byes=byes,
                    advancing=advancing,
                    feeds=None if feeds is None else row // feeds,
                    playing=playing,
                )
            )
            next_sending.append(sent)
        columns.append(column)
        sending = next_sending
        rows = max(1, rows // bracket.feeders)
    return columns
