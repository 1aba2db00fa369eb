"""Settings checks, points per place, and the clear errors for a state that does not fit."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.tournaments.formats import (
    PlayedRound,
    Round,
    Settings,
    State,
    Table,
    next_round,
    standings,
    validate,
)
from games.tournaments.formats.scoring import place_points, table_sizes


def test_good_settings_have_no_problems() -> None:
    assert validate(Settings("single_elimination", 4, advance=2), 16) == []
    assert validate(Settings("round_robin", 2), 2) == []
    assert validate(Settings("swiss", 4, rounds=5), 6) == []


@pytest.mark.parametrize(
    ("settings", "entrants", "problem"),
    [
        (
            Settings("knockout", 2),
            8,
            "Unknown format 'knockout': use one of single_elimination, round_robin, swiss.",
        ),
        (Settings("swiss", 1, rounds=3), 8, "Tables need at least 2 seats."),
        (Settings("round_robin", 4), 3, "Tables of 4 need at least 4 entrants."),
        (
            Settings("single_elimination", 4, advance=4),
            8,
            "advance must be at least 1 and less than the table size (4).",
        ),
        (
            Settings("single_elimination", 4, advance=0),
            8,
            "advance must be at least 1 and less than the table size (4).",
        ),
        (
            Settings("single_elimination", 6, advance=4),
            36,
            "advance must divide the table size: from tables of 6, 1 or 2 or 3 can go on, "
            "so that each next table is filled by whole tables.",
        ),
        (
            Settings("round_robin", 2, advance=2),
            8,
            "Only single elimination sends players on from a table: leave advance at 1.",
        ),
        (Settings("swiss", 2), 8, "A Swiss tournament needs its number of rounds."),
        (Settings("swiss", 2, rounds=0), 8, "A Swiss tournament needs at least 1 round."),
        (
            Settings("swiss", 2, rounds=8),
            8,
            "A Swiss tournament of 8 entrants can have at most 7 rounds (by then everyone could have met everyone).",
        ),
        (
            Settings("round_robin", 2, rounds=3),
            8,
            "Only a Swiss tournament has a set number of rounds: leave rounds empty.",
        ),
    ],
)
def test_bad_settings_say_what_is_wrong(settings: Settings, entrants: int, problem: str) -> None:
    assert validate(settings, entrants) == [problem]


def test_next_round_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="Tables of 4 need at least 4 entrants"):
        next_round(State(Settings("swiss", 4, rounds=1), seeds=(1, 2, 3)))


@pytest.mark.parametrize(
    ("played", "message"),
    [
        (PlayedRound(Round((Table((1, 2)),)), ()), "Round 1 has 1 tables but places for 0."),
        (PlayedRound(Round((Table((1, 2)),)), ({1: 1, 3: 2},)), "Round 1, table 1: the places do not match"),
        (PlayedRound(Round((Table((1, 2)),)), ({1: 0, 2: 1},)), "Round 1, table 1: places start at 1."),
        (PlayedRound(Round((Table((1, 2)),), byes=(2,)), ({1: 1, 2: 2},)), "Round 1 seats an entrant twice"),
        (
            PlayedRound(Round((Table((1, 9)),)), ({1: 1, 9: 2},)),
            r"Round 1 seats entrants who are not seeded: \[9\].",
        ),
    ],
)
def test_a_state_that_does_not_fit_is_refused_clearly(played: PlayedRound, message: str) -> None:
    state = State(Settings("swiss", 2, rounds=3), seeds=(1, 2, 3, 4), played=(played,))
    with pytest.raises(ValueError, match=message):
        next_round(state)
    with pytest.raises(ValueError, match=message):
        standings(state)


def test_an_elimination_table_outside_the_bracket_is_refused() -> None:
    # 1 and 2 are in opposite halves of a 4-bracket: they cannot share a first-round table.
    state = State(
        Settings("single_elimination", 2),
        seeds=(1, 2, 3, 4),
        played=(PlayedRound(Round((Table((1, 2)), Table((3, 4)))), ({1: 1, 2: 2}, {3: 1, 4: 2})),),
    )
    with pytest.raises(ValueError, match="does not match the bracket"):
        next_round(state)


def test_pairs_score_one_half_or_nothing() -> None:
    assert place_points({1: 1, 2: 2}, 2) == {1: 1, 2: 0}
    assert place_points({1: 1, 2: 1}, 2) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_a_full_table_scores_its_size_less_one_down_to_nothing() -> None:
    assert place_points({1: 1, 2: 2, 3: 3, 4: 4}, 4) == {1: 3, 2: 2, 3: 1, 4: 0}


def test_a_smaller_table_spreads_the_same_points() -> None:
    assert place_points({1: 1, 2: 2, 3: 3}, 4) == {1: 3, 2: Fraction(3, 2), 3: 0}
    assert place_points({1: 1, 2: 2}, 4) == {1: 3, 2: 0}


def test_shared_places_share_the_points_they_cover_written_either_way() -> None:
    expected = {1: Fraction(5, 2), 2: Fraction(5, 2), 3: 1, 4: 0}
    assert place_points({1: 1, 2: 1, 3: 3, 4: 4}, 4) == expected
    assert place_points({1: 1, 2: 1, 3: 2, 4: 3}, 4) == expected


@pytest.mark.parametrize(
    ("entrants", "table_size", "sizes"),
    [
        (8, 4, [4, 4]),
        (9, 4, [3, 3, 3]),
        (10, 4, [4, 3, 3]),
        (11, 4, [4, 4, 3]),
        (5, 4, [3, 2]),
        (4, 3, [2, 2]),
        (7, 6, [4, 3]),
    ],
)
def test_tables_are_as_few_and_as_equal_as_possible(entrants: int, table_size: int, sizes: list[int]) -> None:
    assert table_sizes(entrants, table_size) == sizes
