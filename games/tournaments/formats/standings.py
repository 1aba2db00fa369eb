"""Standings of the formats that count points (Swiss, round robin)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from games.tournaments.formats.model import Standing, State
from games.tournaments.formats.scoring import History

SONNEBORN_BERGER = "Sonneborn-Berger"
HEAD_TO_HEAD = "Head-to-head"
TABLE_MATES = "Table-mates' points"
SEED = "Seed"


def points_standings(state: State, history: History) -> list[Standing]:
    """Best first: points, then for pairs Sonneborn-Berger and head-to-head, for tables
    of 3 and up the sum of table-mates' points; then the better seed."""
    seed_number = {entrant: number for number, entrant in enumerate(state.seeds, start=1)}
    records = history.records
    if state.settings.table_size == 2:
        tiebreaks = _pair_tiebreaks(state.seeds, history)
    else:
        tiebreaks = {entrant: ((TABLE_MATES, _table_mates(entrant, history)),) for entrant in state.seeds}
    rows = [
        (entrant, records[entrant].points, (*tiebreaks[entrant], (SEED, Fraction(seed_number[entrant]))))
        for entrant in state.seeds
    ]

    def key(row: tuple[int, Fraction, tuple[tuple[str, Fraction], ...]]) -> tuple[Fraction, ...]:
        _, points, breaks = row
        # Every tie-break but the seed counts higher-is-better.
        return (-points, *(-value for _, value in breaks[:-1]), breaks[-1][1])

    rows.sort(key=key)
    return _placed(
        [(entrant, points, breaks, key((entrant, points, breaks))) for entrant, points, breaks in rows],
        history,
        state.out,
    )


def _placed(
    rows: Sequence[tuple[int, Fraction, tuple[tuple[str, Fraction], ...], tuple[Fraction, ...]]],
    history: History,
    out: frozenset[int],
) -> list[Standing]:
    standings: list[Standing] = []
    place = 0
    for index, (entrant, points, breaks, key) in enumerate(rows):
        if index == 0 or key != rows[index - 1][3]:
            place = index + 1
        standings.append(
            Standing(
                entrant=entrant,
                place=place,
                points=float(points),
                tiebreaks=tuple((name, float(value)) for name, value in breaks),
                byes=history.records[entrant].byes,
                out=entrant in out,
            )
        )
    return standings


def sonneborn_berger(entrant: int, history: History) -> Fraction:
    """The sum, over the entrant's games, of the opponent's points times the entrant's
    result (a win counts the opponent's whole score, a draw half, a loss nothing). A
    bye adds nothing."""
    records = history.records
    return sum(
        (result * records[others[0]].points for others, result in records[entrant].tables if others),
        Fraction(0),
    )


def _pair_tiebreaks(seeds: Sequence[int], history: History) -> dict[int, tuple[tuple[str, Fraction], ...]]:
    records = history.records
    berger = {entrant: sonneborn_berger(entrant, history) for entrant in seeds}
    groups: dict[tuple[Fraction, Fraction], set[int]] = {}
    for entrant in seeds:
        groups.setdefault((records[entrant].points, berger[entrant]), set()).add(entrant)
    tiebreaks: dict[int, tuple[tuple[str, Fraction], ...]] = {}
    for entrant in seeds:
        tied = groups[(records[entrant].points, berger[entrant])] - {entrant}
        # Head-to-head: the points scored in games against the others still level on
        # points and Sonneborn-Berger (0 when nobody is).
        mutual = sum(
            (result for others, result in records[entrant].tables if others and others[0] in tied),
            Fraction(0),
        )
        tiebreaks[entrant] = ((SONNEBORN_BERGER, berger[entrant]), (HEAD_TO_HEAD, mutual))
    return tiebreaks


def _table_mates(entrant: int, history: History) -> Fraction:
    """The sum, over the tables the entrant played, of the others' points (their
    current totals); byes add nothing."""
    records = history.records
    return sum(
        (records[other].points for others, _ in records[entrant].tables for other in others), Fraction(0)
    )
