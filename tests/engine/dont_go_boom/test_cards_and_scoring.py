"""The deck and the scoring table of the rules, worked examples included."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.dont_go_boom import score_values
from games.engine.dont_go_boom.cards import BOMB_VALUE, CARD_COUNT, KIND, LINE_NAMES, VALUE, zero_lines
from games.engine.dont_go_boom.rounds import round_scores
from tests.engine.dont_go_boom.scenario import scenario

B = BOMB_VALUE


def grid(text: str) -> list[int]:
    return [B if token == "B" else int(token) for token in text.replace("/", " ").split()]


def test_deck_has_108_cards_with_the_ruled_action_overlays() -> None:
    assert len(VALUE) == CARD_COUNT == 108
    counts = Counter(zip(VALUE, KIND, strict=True))
    for value in range(1, 14):
        assert sum(count for (v, _), count in counts.items() if v == value) == 8
    assert counts[(3, "draw_again")] == 5
    assert counts[(3, "number")] == 3
    assert counts[(7, "peek")] == 5
    assert counts[(7, "number")] == 3
    assert counts[(10, "swap")] == 8
    assert counts[(B, "bomb")] == 4


@pytest.mark.parametrize(
    ("text", "zero", "score"),
    [
        ("10 10 10 / 5 10 3 / 1 8 10", {"top row", "main diagonal"}, 17),
        ("2 2 2 / 5 B 3 / 9 9 9", {"top row", "bottom row"}, 23),
        ("2 2 2 / 5 10 3 / 9 9 9", {"top row", "bottom row"}, 18),
        ("B B B / 1 1 1 / 2 2 2", {"middle row", "bottom row"}, 45),
    ],
)
def test_rules_test_grids_score_as_the_table_says(text: str, zero: set[str], score: int) -> None:
    values = grid(text)
    assert {LINE_NAMES[line] for line in zero_lines(values)} == zero
    assert score_values(values) == score


def test_three_bombs_in_a_line_never_defuse_and_score_45() -> None:
    assert score_values(grid("B 1 2 / 4 B 6 / 7 8 B")) == 45 + 1 + 2 + 4 + 6 + 7 + 8
    assert score_values(grid("B 1 2 / B 3 4 / B 5 6")) == 45 + 1 + 2 + 3 + 4 + 5 + 6


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("4 1 2 / 4 3 5 / 4 6 8", 1 + 2 + 3 + 5 + 6 + 8),  # left column
        ("1 4 2 / 3 4 5 / 6 4 8", 1 + 2 + 3 + 5 + 6 + 8),  # middle column
        ("1 2 4 / 3 5 4 / 6 8 4", 1 + 2 + 3 + 5 + 6 + 8),  # right column
        ("9 1 2 / 3 9 5 / 6 8 9", 1 + 2 + 3 + 5 + 6 + 8),  # main diagonal
        ("1 2 9 / 3 9 5 / 9 6 8", 1 + 2 + 3 + 5 + 6 + 8),  # anti-diagonal
        ("1 2 3 / 6 6 6 / 4 5 8", 1 + 2 + 3 + 4 + 5 + 8),  # middle row
    ],
)
def test_a_line_of_three_equal_numbers_scores_zero_in_every_direction(text: str, score: int) -> None:
    assert score_values(grid(text)) == score


def test_a_card_can_defuse_in_several_lines_at_once() -> None:
    # The centre 6 is in the middle row, the middle column and both diagonals.
    assert score_values(grid("6 6 6 / 6 6 6 / 6 6 6")) == 0
    assert score_values(grid("6 1 6 / 2 6 3 / 6 4 6")) == 1 + 2 + 3 + 4
    assert score_values(grid("1 6 2 / 6 6 6 / 3 6 4")) == 1 + 2 + 3 + 4


def test_two_equal_numbers_and_a_bomb_do_not_defuse() -> None:
    assert score_values(grid("5 5 B / 1 2 3 / 4 6 8")) == 10 + 15 + 1 + 2 + 3 + 4 + 6 + 8


def test_round_score_counts_face_down_cards_as_if_turned_up() -> None:
    state = scenario(["~10 10 ~10 / 5 ~10 3 / 1 8 ~10", "~2 2 2 / 5 B ~3 / 9 9 ~9"])
    assert round_scores(state) == (17, 23)
