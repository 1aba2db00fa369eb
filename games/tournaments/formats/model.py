"""The shapes the formats take and give: settings, tables, rounds, the state so far,
standings and the bracket. Plain frozen dataclasses of entrant ids (ints): the caller
maps them to its rows."""

from __future__ import annotations

from dataclasses import dataclass

SINGLE_ELIMINATION = "single_elimination"
ROUND_ROBIN = "round_robin"
SWISS = "swiss"
FORMATS = (SINGLE_ELIMINATION, ROUND_ROBIN, SWISS)
# Largest field a tournament may have (the pairing bench goes to 1,024).
MAX_ENTRANTS = 1024


@dataclass(frozen=True)
class Settings:
    format: str  # SINGLE_ELIMINATION, ROUND_ROBIN or SWISS
    table_size: int  # seats per table, 2 and up
    # Single elimination: how many go on from each table (1 <= advance < table_size,
    # and it divides table_size so that every next table is fed by whole tables).
    advance: int = 1
    rounds: int | None = None  # Swiss: the number of rounds (required); the others: None


@dataclass(frozen=True)
class Table:
    entrants: tuple[int, ...]  # in seat order


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    # Entrants who sit this round out with a bye. A round may have byes and no table
    # (after withdrawals): it is played as soon as it is recorded.
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlayedRound:
    round: Round
    # Per table, in the round's order: entrant id -> place (1 = first). Shared places
    # are allowed, written either way ({a: 1, b: 1, c: 3} or {a: 1, b: 1, c: 2}: a
    # place counts as 1 + the number of table-mates placed strictly better). A forfeit
    # is ranked last by the caller.
    places: tuple[dict[int, int], ...]


@dataclass(frozen=True)
class State:
    """Everything a format needs to decide the next round."""

    settings: Settings
    seeds: tuple[int, ...]  # entrant ids, best seed first (the caller seeds: by rating or at random)
    played: tuple[PlayedRound, ...] = ()  # finished rounds, in order
    # Withdrawn or forfeited: never seated again (Swiss, round robin), eliminated
    # (single elimination: ranked last at the table they were at).
    out: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Standing:
    entrant: int
    place: int  # 1 = first; two entrants share a place only when equal on points and every tie-break
    points: float
    tiebreaks: tuple[tuple[str, float], ...]  # (name shown on the page, value), in the order applied
    byes: int
    out: bool


@dataclass(frozen=True)
class BracketTable:
    """One table of a single-elimination bracket, for drawing: columns are rounds, and
    a line runs from each table to ``feeds`` in the next column."""

    round: int  # the column, 0 = the first round
    position: int  # the row within the column; its advancers go to position // (table_size // advance)
    # Seats: entrant ids, None where the entrant is not known yet (a feeding table not
    # played). Played tables and tables being played list their entrants in seat order.
    entrants: tuple[int | None, ...]
    places: dict[int, int] | None  # once played
    byes: tuple[int, ...]  # entrants who went on from here without playing
    advancing: tuple[int, ...]  # who went (or goes) on: known once played, or byes; the final's winner
    feeds: int | None  # the position of the table in the next column; None for the final
    playing: bool  # seated now (the round being played), places not in yet
