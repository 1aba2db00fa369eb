"""A decision's grade and its words (games/review/grades.py): pure, no database."""

from __future__ import annotations

import pytest

from games.review import grades
from games.review.grades import Scale


@pytest.mark.parametrize(
    ("cost", "agrees", "expected"),
    [
        (0.0, True, grades.BEST),
        (0.3, True, grades.BEST),  # the expert's own move is never costly, whatever the noise
        (0.0, False, grades.GOOD),
        (0.039, False, grades.GOOD),
        (0.04, False, grades.INACCURATE),
        (0.099, False, grades.INACCURATE),
        (0.10, False, grades.MISTAKEN),
        (0.20, False, grades.BLUNDERED),
        (0.9, False, grades.BLUNDERED),
    ],
)
def test_a_grade_comes_from_the_cost_and_the_thresholds(
    cost: float, agrees: bool, expected: grades.Grade
) -> None:
    assert grades.grade_of(cost, agrees=agrees) == expected


def test_two_seats_a_team_or_a_solitaire_game_read_as_a_chance_to_win() -> None:
    for scale in (
        Scale.for_table(2, cooperative=False),
        Scale.for_table(5, cooperative=True),
        Scale.for_table(1, cooperative=False),
    ):
        assert scale.is_chance and scale.measure == "your chance to win"
        assert scale.worth(0.523) == "52% chance to win"
        assert scale.cost(0.061) == "\u22126% chance to win"
        assert scale.cost(0.004) == "no chance to win lost"


def test_three_or_more_seats_read_as_an_expected_place() -> None:
    scale = Scale.for_table(4, cooperative=False)
    assert not scale.is_chance and scale.measure == "your expected place (1 to 4)"
    # 1 is first (reward 1), 4 last (reward 0): place = 4 - reward * 3.
    assert scale.worth(1.0) == "expected place 1.0 of 4" and scale.worth(0.0) == "expected place 4.0 of 4"
    assert scale.worth(0.5) == "expected place 2.5 of 4"
    assert scale.cost(0.1) == "expected place 0.3 worse"
    assert scale.cost(0.01) == "no place lost"


def test_the_thresholds_the_page_explains_are_the_grades_own() -> None:
    assert grades.THRESHOLD_POINTS == {"inaccuracy": 4, "mistake": 10, "blunder": 20}
