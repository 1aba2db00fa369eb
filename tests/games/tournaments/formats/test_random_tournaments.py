"""Seeded random tournaments of every format, 2 to 40 entrants, tables of 2 to 6, played
to the end with random places (shared places too) and random withdrawals; every round
is checked for the invariants, and so is the end."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from typing import Any

import networkx as nx
import pytest

from games.tournaments.formats import Round, Settings, State, bracket, standings
from games.tournaments.formats.elimination import bracket_rounds
from games.tournaments.formats.round_robin import circle_schedule, round_count
from games.tournaments.formats.scoring import effective_places
from tests.games.tournaments.formats.helpers import Tournament, met_pairs

SIZES = range(2, 41)
SEEDS = (1, 2)


def fields(table_size: int) -> list[tuple[int, int, float]]:
    """(entrants, seed, withdrawal rate) for every field size the table size allows."""
    return [
        (entrants, seed, 0.0 if seed == 1 else 0.15)
        for entrants in SIZES
        if entrants >= table_size
        for seed in SEEDS
    ]


def check_common(state: State, round_: Round) -> set[int]:
    """Tables within size, nobody twice, nobody out. Returns everyone seated or with a bye."""
    seated = [entrant for table in round_.tables for entrant in table.entrants]
    for table in round_.tables:
        assert 2 <= len(table.entrants) <= state.settings.table_size
    everyone = seated + list(round_.byes)
    assert len(everyone) == len(set(everyone)), "an entrant seated twice"
    assert not set(everyone) & state.out, "an entrant who is out was seated"
    return set(everyone)


def check_standings(state: State) -> None:
    rows = standings(state)
    assert sorted(row.entrant for row in rows) == sorted(state.seeds)
    assert [row.place for row in rows] == sorted(row.place for row in rows)
    assert rows[0].place == 1
    assert {row.entrant for row in rows if row.out} == set(state.out)


# -- Swiss ----------------------------------------------------------------------------------


def pair_points(state: State) -> dict[int, Fraction]:
    """Points in pairs, counted here from scratch: a win 1, a draw ½, a bye 1."""
    points = dict.fromkeys(state.seeds, Fraction(0))
    for played in state.played:
        for table, places in zip(played.round.tables, played.places, strict=True):
            one, other = table.entrants
            if places[one] == places[other]:
                points[one] += Fraction(1, 2)
                points[other] += Fraction(1, 2)
            else:
                points[one if places[one] < places[other] else other] += 1
        for entrant in played.round.byes:
            points[entrant] += 1
    return points


def fewest_rematches(active: list[int], met: Counter[frozenset[int]], bye_takers: list[int]) -> int:
    """The fewest rematches any pairing of ``active`` can have, the bye (if the count is
    odd) going to one of ``bye_takers``; as many pairs as possible."""
    graph: nx.Graph[Any] = nx.Graph()
    for one, other in combinations(active, 2):
        graph.add_edge(one, other, weight=1 if met[frozenset((one, other))] else 2)
    if len(active) % 2:
        for entrant in bye_takers:
            graph.add_edge(entrant, "bye", weight=2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(active) + len(active) % 2
    return sum(1 for one, other in matching if "bye" not in (one, other) and met[frozenset((one, other))])


def check_swiss_pairs(state: State, round_: Round, active: list[int]) -> None:
    met = met_pairs(state.played)
    byes = Counter(entrant for played in state.played for entrant in played.round.byes)
    fewest = min(byes[entrant] for entrant in active)
    eligible = [entrant for entrant in active if byes[entrant] == fewest]
    assert len(round_.byes) == len(active) % 2
    for entrant in round_.byes:
        assert byes[entrant] == fewest, "a second bye while someone still in had none"
    rematches = sum(1 for table in round_.tables if met[frozenset(table.entrants)])
    assert rematches == fewest_rematches(active, met, eligible), "an avoidable rematch"
    if round_.byes and not rematches:
        points = pair_points(state)
        seed_index = {entrant: index for index, entrant in enumerate(state.seeds)}
        lowest = max(eligible, key=lambda entrant: (-points[entrant], seed_index[entrant]))
        if round_.byes[0] != lowest:
            # Only when the lowest-ranked's bye would force a rematch.
            rest = [entrant for entrant in active if entrant != lowest]
            assert fewest_rematches(rest, met, []) > 0, "the bye skipped the lowest-ranked without one"


def check_swiss_tables(state: State, round_: Round, active: list[int]) -> None:
    assert round_.byes == ()
    sizes = [len(table.entrants) for table in round_.tables]
    assert len(sizes) == -(-len(active) // state.settings.table_size)
    assert max(sizes) - min(sizes) <= 1
    leader = standings_leader(state, active)
    assert leader in round_.tables[0].entrants, "the leader is not at table 1"


def standings_leader(state: State, active: list[int]) -> int:
    """The best-placed entrant still in, by points then seed (points from the rows' own sum)."""
    rows = {row.entrant: row for row in standings(state)}
    seed_index = {entrant: index for index, entrant in enumerate(state.seeds)}
    return min(active, key=lambda entrant: (-rows[entrant].points, seed_index[entrant]))


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
def test_random_swiss_tournaments(table_size: int) -> None:
    for entrants, seed, withdrawals in fields(table_size):
        rounds = random.Random(seed * 1000 + entrants).randint(1, min(entrants - 1, 9))
        tournament = Tournament(Settings("swiss", table_size, rounds=rounds), entrants, seed, withdrawals)
        final = tournament.play()
        for state, played in zip(tournament.states, tournament.rounds, strict=True):
            active = [entrant for entrant in state.seeds if entrant not in state.out]
            assert check_common(state, played.round) == set(active), "someone still in was left out"
            if table_size == 2:
                check_swiss_pairs(state, played.round, active)
            else:
                check_swiss_tables(state, played.round, active)
        assert len(tournament.rounds) <= rounds
        if not final.out:
            assert len(tournament.rounds) == rounds
        check_standings(final)


# -- round robin ------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
def test_random_round_robins(table_size: int) -> None:
    for entrants, seed, withdrawals in fields(table_size):
        if table_size == 2 and entrants > 24 and seed == 2:
            continue  # long circles; the first seed covers them
        tournament = Tournament(Settings("round_robin", table_size), entrants, seed, withdrawals)
        final = tournament.play()
        for state, played in zip(tournament.states, tournament.rounds, strict=True):
            active = {entrant for entrant in state.seeds if entrant not in state.out}
            assert check_common(state, played.round) == active, "someone still in was left out"
            if table_size > 2:
                assert played.round.byes == ()
                sizes = [len(table.entrants) for table in played.round.tables]
                assert max(sizes) - min(sizes) <= 1
        met = met_pairs(final.played)
        if table_size == 2:
            assert len(tournament.rounds) <= len(circle_schedule(entrants))
            assert max(met.values(), default=1) == 1, "a pair met twice"
        else:
            assert len(tournament.rounds) <= entrants - 1
        if not final.out:
            assert len(tournament.rounds) == round_count(entrants, table_size)
            assert set(met) == {frozenset(pair) for pair in combinations(final.seeds, 2)}
        check_standings(final)


# -- single elimination ------------------------------------------------------------------------


def going_on(state: State) -> set[int]:
    """Who should be seated next, from the last round alone: the top K of each table by
    place (out last, ties to the better seed) and the byes, less the out."""
    if not state.played:
        return set(state.seeds) - state.out
    last = state.played[-1]
    seed_index = {entrant: index for index, entrant in enumerate(state.seeds)}
    advancing = set(last.round.byes)
    for table, places in zip(last.round.tables, last.places, strict=True):
        effective = effective_places(places)
        ranked = sorted(
            table.entrants,
            key=lambda entrant: (entrant in state.out, effective[entrant], seed_index[entrant]),
        )
        advancing.update(
            [entrant for entrant in ranked if entrant not in state.out][: state.settings.advance]
        )
    return advancing - state.out


ELIMINATION_SETTINGS = [
    (size, advance) for size in (2, 3, 4, 5, 6) for advance in range(1, size) if size % advance == 0
]


@pytest.mark.parametrize(("table_size", "advance"), ELIMINATION_SETTINGS)
def test_random_eliminations(table_size: int, advance: int) -> None:
    for entrants, seed, withdrawals in fields(table_size):
        settings = Settings("single_elimination", table_size, advance=advance)
        tournament = Tournament(settings, entrants, seed, withdrawals)
        final = tournament.play()
        expected_rounds = bracket_rounds(entrants, table_size, advance)
        for number, (state, played) in enumerate(zip(tournament.states, tournament.rounds, strict=True)):
            assert check_common(state, played.round) == going_on(state), "the wrong entrants go on"
            columns = bracket(state)
            assert len(columns) == expected_rounds
            assert [len(column) for column in columns] == [
                len(columns[0]) // (table_size // advance) ** index for index in range(expected_rounds)
            ]
            playing = [table.entrants for table in columns[number] if table.playing]
            assert playing == [table.entrants for table in played.round.tables]
        assert len(tournament.rounds) <= expected_rounds
        if not final.out:
            assert len(tournament.rounds) == expected_rounds
            assert [len(table.entrants) for table in final.played[-1].round.tables] == [table_size]
            assert standings(final)[0].points == expected_rounds
        check_standings(final)
