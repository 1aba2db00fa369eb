"""What every format shares: the state's sanity, table sizes, points per place, the
record of who met whom, and the order of seats at a table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from games.tournaments.formats.model import PlayedRound, State


def table_sizes(entrants: int, table_size: int) -> list[int]:
    """Tables for a field of ``entrants``: as few as hold everyone at ``table_size``
    seats, as equal as possible (sizes differ by at most one), the larger first.

    Pairs never come here (an odd field of pairs has a bye instead). For tables of 3
    and up no table is smaller than 2 once ``entrants >= table_size``."""
    if entrants <= 0:
        return []
    count = -(-entrants // table_size)
    smaller, larger_count = divmod(entrants, count)
    return [smaller + 1] * larger_count + [smaller] * (count - larger_count)


def effective_places(places: Mapping[int, int]) -> dict[int, int]:
    """Each entrant's place as 1 + the number placed strictly better, so that shared
    places read the same whether written 1, 1, 3 or 1, 1, 2."""
    values = sorted(places.values())
    return {entrant: 1 + sum(1 for other in values if other < place) for entrant, place in places.items()}


def place_points(places: Mapping[int, int], table_size: int) -> dict[int, Fraction]:
    """Points for each entrant at one played table.

    A full table of N seats gives N-1 points to first, N-2 to second, ... 0 to last (a
    pair: 1 for a win, 0 for a loss). A smaller table of k seats spreads the same N-1..0
    evenly: place p gets (N-1)(k-p)/(k-1). Entrants sharing a place share the points of
    the places they cover, averaged (a drawn pair: 1/2 each)."""
    seated = len(places)
    effective = effective_places(places)
    sharing = Counter(effective.values())
    top = table_size - 1

    def single(place: int) -> Fraction:
        if seated == 1:
            return Fraction(top)
        return Fraction(top * (seated - place), seated - 1)

    points: dict[int, Fraction] = {}
    for entrant, place in effective.items():
        covered = range(place, place + sharing[place])
        points[entrant] = sum((single(p) for p in covered), Fraction(0)) / len(covered)
    return points


def bye_points(table_size: int) -> Fraction:
    """A bye scores as first place at a full table (a win, for pairs)."""
    return Fraction(table_size - 1)


@dataclass
class Record:
    """One entrant's rounds so far."""

    points: Fraction = Fraction(0)
    byes: int = 0
    first_seats: int = 0  # tables at which they had the first seat
    # Each played table: (the others at it, this entrant's points there).
    tables: list[tuple[tuple[int, ...], Fraction]] = field(default_factory=list)


@dataclass
class History:
    records: dict[int, Record]
    met: Counter[frozenset[int]]  # how many tables each pair has shared

    def times_met(self, one: int, other: int) -> int:
        return self.met[frozenset((one, other))]


def check_state(state: State) -> None:
    """A clear error for a state no format can read; nothing else is checked here."""
    seeds = state.seeds
    if len(set(seeds)) != len(seeds):
        raise ValueError("The seeds list an entrant twice.")
    known = set(seeds)
    for number, played in enumerate(state.played, start=1):
        _check_round(number, played, known)
    strangers = state.out - known
    if strangers:
        raise ValueError(f"Entrants {sorted(strangers)} are out but not seeded.")


def _check_round(number: int, played: PlayedRound, known: set[int]) -> None:
    tables = played.round.tables
    if len(played.places) != len(tables):
        raise ValueError(f"Round {number} has {len(tables)} tables but places for {len(played.places)}.")
    seen: set[int] = set()
    for table_number, (table, places) in enumerate(zip(tables, played.places, strict=True), start=1):
        if set(places) != set(table.entrants) or len(set(table.entrants)) != len(table.entrants):
            raise ValueError(
                f"Round {number}, table {table_number}: the places do not match the entrants seated."
            )
        if any(place < 1 for place in places.values()):
            raise ValueError(f"Round {number}, table {table_number}: places start at 1.")
        seen.update(table.entrants)
    everyone = [*seen, *played.round.byes]
    if len(set(everyone)) != len(seen) + len(played.round.byes):
        raise ValueError(f"Round {number} seats an entrant twice (or seats one who has a bye).")
    strangers = set(everyone) - known
    if strangers:
        raise ValueError(f"Round {number} seats entrants who are not seeded: {sorted(strangers)}.")


def build_history(state: State) -> History:
    table_size = state.settings.table_size
    records = {entrant: Record() for entrant in state.seeds}
    met: Counter[frozenset[int]] = Counter()
    for played in state.played:
        for table, places in zip(played.round.tables, played.places, strict=True):
            points = place_points(places, table_size)
            if table.entrants:
                records[table.entrants[0]].first_seats += 1
            for entrant in table.entrants:
                record = records[entrant]
                record.points += points[entrant]
                record.tables.append(
                    (tuple(other for other in table.entrants if other != entrant), points[entrant])
                )
            for index, one in enumerate(table.entrants):
                for other in table.entrants[index + 1 :]:
                    met[frozenset((one, other))] += 1
        for entrant in played.round.byes:
            records[entrant].byes += 1
            records[entrant].points += bye_points(table_size)
    return History(records=records, met=met)


def seat_order(entrants: Iterable[int], history: History, rank: Mapping[int, int]) -> tuple[int, ...]:
    """Seats at a table: first the entrant who has had the first seat least often, and
    so on; equal counts by rank (the better ranked sits earlier). Pairs so alternate
    who starts."""
    return tuple(sorted(entrants, key=lambda entrant: (history.records[entrant].first_seats, rank[entrant])))
