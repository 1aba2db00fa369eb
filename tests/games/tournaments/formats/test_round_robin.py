"""Round robin: the circle for pairs, balanced tables for more. Entrant ids are seed numbers."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from games.tournaments.formats import PlayedRound, Round, Settings, State, next_round, standings
from games.tournaments.formats.round_robin import circle_schedule, round_count, table_schedule
from tests.games.tournaments.formats.helpers import met_pairs, played, wins


def round_robin(
    entrants: int,
    table_size: int = 2,
    rounds: tuple[PlayedRound, ...] = (),
    out: frozenset[int] = frozenset(),
) -> State:
    return State(
        settings=Settings(format="round_robin", table_size=table_size),
        seeds=tuple(range(1, entrants + 1)),
        played=rounds,
        out=out,
    )


def play_out(state: State) -> State:
    """Every round to the end, the better seed placing higher."""
    while (round_ := next_round(state)) is not None:
        places = tuple(
            {entrant: place for place, entrant in enumerate(sorted(table.entrants), start=1)}
            for table in round_.tables
        )
        state = State(state.settings, state.seeds, (*state.played, PlayedRound(round_, places)), state.out)
    return state


def tables_of(round_: Round | None) -> list[tuple[int, ...]]:
    assert round_ is not None
    return [tuple(sorted(table.entrants)) for table in round_.tables]


def test_four_entrants_by_the_circle() -> None:
    state = play_out(round_robin(4))
    assert [[tuple(sorted(table.entrants)) for table in round_.round.tables] for round_ in state.played] == [
        [(1, 4), (2, 3)],
        [(1, 3), (2, 4)],
        [(1, 2), (3, 4)],
    ]


@pytest.mark.parametrize("entrants", range(2, 17))
def test_the_circle_covers_every_pair_exactly_once(entrants: int) -> None:
    schedule = circle_schedule(entrants)
    assert len(schedule) == (entrants - 1 if entrants % 2 == 0 else entrants)
    pairs = Counter(frozenset(table) for round_ in schedule for table in round_ if len(table) == 2)
    assert pairs == Counter(frozenset(pair) for pair in combinations(range(entrants), 2))
    byes = Counter(table[0] for round_ in schedule for table in round_ if len(table) == 1)
    assert byes == (Counter(range(entrants)) if entrants % 2 else Counter())


def test_an_odd_field_gives_everyone_one_bye_worth_a_win() -> None:
    state = play_out(round_robin(5))
    assert len(state.played) == 5
    assert sorted(entrant for round_ in state.played for entrant in round_.round.byes) == [1, 2, 3, 4, 5]
    # The better seed always won: 1 has 4 wins and a bye, 5 none and a bye.
    assert [(row.entrant, row.points, row.byes) for row in standings(state)] == [
        (1, 5.0, 1),
        (2, 4.0, 1),
        (3, 3.0, 1),
        (4, 2.0, 1),
        (5, 1.0, 1),
    ]


def test_whoever_was_to_meet_an_entrant_who_is_out_has_a_bye() -> None:
    # 4 withdrew after round 1 (1 v 4, 2 v 3): round 2 was to be 1 v 3 and 2 v 4.
    round_ = next_round(round_robin(4, rounds=(wins([(1, 4), (2, 3)]),), out=frozenset({4})))
    assert round_ is not None
    assert tables_of(round_) == [(1, 3)]
    assert round_.byes == (2,)


def test_tables_of_four_for_eight_meet_everyone() -> None:
    state = play_out(round_robin(8, table_size=4))
    assert len(state.played) == round_count(8, 4) == len(table_schedule(8, 4))
    assert [[len(table.entrants) for table in round_.round.tables] for round_ in state.played] == [
        [4, 4]
    ] * len(state.played)
    assert set(met_pairs(state.played)) == {frozenset(pair) for pair in combinations(range(1, 9), 2)}
    first = state.played[0].round
    assert tables_of(first) == [(1, 2, 3, 4), (5, 6, 7, 8)]


@pytest.mark.parametrize(
    ("entrants", "table_size"), [(n, size) for size in (3, 4, 5, 6) for n in range(size, 33)]
)
def test_table_schedules_cover_every_pair_within_their_rounds(entrants: int, table_size: int) -> None:
    schedule = table_schedule(entrants, table_size)
    met = Counter(
        frozenset(pair) for round_ in schedule for table in round_ for pair in combinations(table, 2)
    )
    assert set(met) == {frozenset(pair) for pair in combinations(range(entrants), 2)}
    bound = -(-(entrants - 1) // (table_size - 1))  # each round meets at most table_size - 1 new
    assert bound <= len(schedule) <= entrants - 1
    sizes = sorted((len(table) for table in schedule[0]), reverse=True)
    assert sizes[0] <= table_size and sizes[0] - sizes[-1] <= 1
    for round_ in schedule:
        assert sorted(seat for table in round_ for seat in table) == list(range(entrants))


def test_a_withdrawal_reseats_the_next_rounds_without_them() -> None:
    first = played([(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 2, 3, 4), (1, 2, 3, 4)])
    round_ = next_round(round_robin(8, table_size=4, rounds=(first,), out=frozenset({8})))
    assert round_ is not None and round_.byes == ()
    assert sorted(len(table.entrants) for table in round_.tables) == [3, 4]
    assert 8 not in {entrant for table in round_.tables for entrant in table.entrants}


def test_tables_end_when_everyone_still_in_has_met() -> None:
    # 1..4 met at round 1's table; 5..8 too; 5..8 withdrew: nothing left to play.
    first = played([(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 2, 3, 4), (1, 2, 3, 4)])
    assert next_round(round_robin(8, table_size=4, rounds=(first,), out=frozenset({5, 6, 7, 8}))) is None


def test_a_round_robin_of_one_table_is_one_round() -> None:
    assert round_count(4, 4) == 1
    state = play_out(round_robin(4, table_size=4))
    assert len(state.played) == 1
