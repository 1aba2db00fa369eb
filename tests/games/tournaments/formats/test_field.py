"""The field: bots fill up to the field size; which sizes fill every table; the warning
an organiser reads for a size that leaves tables short or gives byes."""

from __future__ import annotations

import pytest

from games.tournaments.formats import Settings, bot_places, field_warning, full_field, is_full


@pytest.mark.parametrize(
    ("field_size", "entrants", "filling", "bots"),
    [(8, 2, True, 6), (8, 3, True, 5), (8, 8, True, 0), (8, 2, False, 0), (4, 6, True, 0)],
)
def test_bots_fill_every_empty_place_up_to_the_field_size(
    field_size: int, entrants: int, filling: bool, bots: int
) -> None:
    assert bot_places(field_size=field_size, entrants=entrants, filling=filling) == bots


@pytest.mark.parametrize(
    ("rules", "entrants", "full"),
    [
        (Settings("single_elimination", 2), 5, 8),
        (Settings("single_elimination", 4, advance=2), 5, 8),
        (Settings("single_elimination", 4, advance=1), 5, 16),
        (Settings("single_elimination", 3, advance=1), 4, 9),
        (Settings("swiss", 4, rounds=3), 9, 12),
        (Settings("round_robin", 2), 7, 8),
        (Settings("single_elimination", 2), 40, None),  # no full field up to the limit
    ],
)
def test_the_full_field_has_every_table_full_and_no_byes(rules: Settings, entrants: int, full: int) -> None:
    assert full_field(rules, entrants, limit=32) == full


def test_a_field_smaller_than_a_table_is_never_full() -> None:
    assert not is_full(Settings("single_elimination", 4, advance=2), 2)
    assert is_full(Settings("single_elimination", 4, advance=2), 4)


@pytest.mark.parametrize(
    ("rules", "field", "words"),
    [
        (
            Settings("single_elimination", 2),
            6,
            "With 6 places, round 1 has 2 tables of 2 and 2 byes. "
            "4 or 8 places fill every table with no byes.",
        ),
        (
            Settings("single_elimination", 4, advance=1),
            13,
            "With 13 places, round 1 has 3 tables of 3 and 1 table of 4. "
            "4 or 16 places fill every table with no byes.",
        ),
        (
            Settings("swiss", 2, rounds=3),
            7,
            "With 7 places, round 1 has 3 tables of 2 and 1 bye. Someone sits out with a bye every round. "
            "6 or 8 places fill every table with no byes.",
        ),
        (
            Settings("round_robin", 3),
            7,
            "With 7 places, round 1 has 2 tables of 2 and 1 table of 3. "
            "6 or 9 places fill every table with no byes.",
        ),
        (Settings("single_elimination", 2), 8, ""),
        (Settings("swiss", 4, rounds=3), 12, ""),
        (Settings("round_robin", 4), 3, ""),  # too small: validate says so, not this
    ],
)
def test_a_field_that_leaves_tables_short_or_gives_byes_is_warned_of(
    rules: Settings, field: int, words: str
) -> None:
    assert field_warning(rules, field, limit=64) == words


def test_the_warning_names_no_larger_full_field_above_the_limit() -> None:
    warning = field_warning(Settings("single_elimination", 2), 6, limit=7)
    assert warning.endswith("4 places fill every table with no byes.")
