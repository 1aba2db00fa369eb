"""The written rules give the numbers the formats then use."""

from __future__ import annotations

import pytest

from games.tournaments.formats import Settings, State, next_round, rules_text
from games.tournaments.formats.round_robin import round_count
from tests.games.tournaments.formats.helpers import Tournament


def text(settings: Settings, entrants: int | None = None) -> str:
    return "\n".join(rules_text(settings, entrants))


@pytest.mark.parametrize(
    "settings",
    [
        Settings("single_elimination", 2),
        Settings("single_elimination", 4, advance=2),
        Settings("round_robin", 2),
        Settings("round_robin", 5),
        Settings("swiss", 2, rounds=5),
        Settings("swiss", 4, rounds=3),
    ],
)
def test_every_format_writes_its_byes_ties_forfeits_and_seats(settings: Settings) -> None:
    paragraphs = rules_text(settings)
    assert all(paragraph.strip() for paragraph in paragraphs)
    for subject in ("Byes", "Tie", "forfeits", "Seats"):
        assert any(subject in paragraph for paragraph in paragraphs), subject


def test_elimination_names_its_byes_and_rounds() -> None:
    written = text(Settings("single_elimination", 2), 13)
    assert "With 13 entrants: 4 rounds, a bracket of 16 places." in written
    assert "With 13 entrants: 3 byes, to seeds 1, 2, 3." in written
    assert "the better seed goes on" in written
    assert "With 16 entrants nobody has a bye." in text(Settings("single_elimination", 2), 16)


@pytest.mark.parametrize(("table_size", "advance"), [(2, 1), (3, 1), (4, 1), (4, 2), (6, 2), (6, 3)])
def test_the_elimination_byes_written_are_the_byes_given(table_size: int, advance: int) -> None:
    settings = Settings("single_elimination", table_size, advance=advance)
    for entrants in range(table_size, 41):
        round_ = next_round(State(settings, seeds=tuple(range(1, entrants + 1))))
        assert round_ is not None
        written = text(settings, entrants)
        if round_.byes:
            seeds = ", ".join(str(seed) for seed in sorted(round_.byes))
            assert f"to {'seed' if len(round_.byes) == 1 else 'seeds'} {seeds}." in written
        else:
            assert f"With {entrants} entrants nobody has a bye." in written


def test_points_per_place_at_tables() -> None:
    written = text(Settings("swiss", 4, rounds=3))
    assert "Points per place at a table of 4: 1st 3, 2nd 2, 3rd 1, 4th 0." in written
    assert "a table of 3 gives 3, 1.5, 0" in written
    assert "a win scores 1, a draw ½ to each, a loss 0" in text(Settings("swiss", 2, rounds=3))


def test_tie_breaks_per_table_size() -> None:
    assert "Sonneborn-Berger" in text(Settings("swiss", 2, rounds=3))
    assert "then head-to-head" in text(Settings("round_robin", 2))
    assert "the sum of the points of everyone met at the tables played" in text(
        Settings("swiss", 3, rounds=3)
    )


def test_swiss_writes_its_rounds_and_the_lowest_ranked_bye() -> None:
    written = text(Settings("swiss", 2, rounds=5))
    assert written.startswith("Swiss, 5 rounds, in pairs.")
    assert "the lowest-ranked entrant who has not had one" in written
    assert "Tables are as equal in size as possible" in text(Settings("swiss", 4, rounds=3), 10)
    assert "With 10 entrants: tables of 4 (1) and 3 (2)." in text(Settings("swiss", 4, rounds=3), 10)


@pytest.mark.parametrize(("entrants", "table_size"), [(7, 2), (8, 2), (8, 4), (13, 4), (20, 6)])
def test_the_round_robin_rounds_written_are_the_rounds_played(entrants: int, table_size: int) -> None:
    played = len(
        Tournament(Settings("round_robin", table_size), entrants, seed=3, withdrawal_rate=0).play().played
    )
    assert played == round_count(entrants, table_size)
    rounds = f"{played} round" + ("s" if played > 1 else "")
    written = text(Settings("round_robin", table_size), entrants)
    if table_size == 2:
        assert f"With {entrants} entrants: {rounds}." in written
    else:
        assert f", {rounds} if nobody withdraws." in written
