"""The rulebook's team score table and the cooperative result."""

from __future__ import annotations

import pytest

from games.engine.its_a_bomb.scenarios import SCENARIO_BY_SLUG
from games.engine.its_a_bomb.state import CRISIS_UNIT
from tests.engine.its_a_bomb.builder import GAME, ask, defuse, start, use


def _time(scenario: str) -> int:
    """The available time in Timers (tuned for balance, so read from the table)."""
    return SCENARIO_BY_SLUG[scenario].time


@pytest.mark.parametrize(
    ("scenario", "players", "asks", "expected"),
    [
        # +3 per Timer left, +2 per unused Consultant, +1 training/standard, +2 advanced,
        # +3 special, -1 per seat (the Crisis Unit included).
        ("training", 2, 0, 3 * 6 + 2 * 2 + 1 - 2),
        ("training", 6, 0, 3 * 6 + 2 * 2 + 1 - 6),
        ("training", 3, 2, 3 * 4 + 2 * 2 + 1 - 3),
        ("lab-n457", 3, 0, 3 * _time("lab-n457") + 2 * 2 + 1 - 3),
        ("twins", 4, 1, 3 * (_time("twins") - 1) + 2 * 3 + 2 - 4),
        ("no-voice", 2, 0, 3 * _time("no-voice") + 2 * 1 + 2 - 2),
        ("protocol-27bis", 5, 0, 3 * _time("protocol-27bis") + 2 * 10 + 3 - 5),
    ],
)
def test_the_team_score_follows_the_rulebook_table(
    scenario: str, players: int, asks: int, expected: int
) -> None:
    state = start(scenario, players=players)
    for _ in range(asks):
        state = ask(state, "row", 1)  # no special card in these Countdowns: one Timer each
        while GAME.to_act(state) == [CRISIS_UNIT]:
            state = GAME.apply(state, CRISIS_UNIT, {"type": "pass"})
    result = GAME.result(defuse(state))
    assert result == {"won": True, "scores": [expected] * players, "ranks": [1] * players}


def test_a_used_consultant_no_longer_scores_but_a_standing_pass_does() -> None:
    state = use(ask(start("training", players=3), "row", 1), "analyst")
    state = GAME.apply(state, CRISIS_UNIT, {"type": "standing_pass", "consultant": "chronometrist"})
    result = GAME.result(defuse(state))
    assert result is not None and result["scores"] == [3 * 5 + 2 * 1 + 1 - 3] * 3


def test_special_cards_left_in_the_countdown_are_not_timers() -> None:
    state = start("protocol-27bis", players=3)
    parts = GAME.view(state, None)["score"]
    assert parts["timers_left"] == _time("protocol-27bis")
    assert len(state.countdown) == _time("protocol-27bis") + 4 + 1


def test_the_score_so_far_is_in_every_view() -> None:
    view = GAME.view(start("training", players=3), None)
    assert view["score"] == {
        "timers_left": 6,
        "unused_consultants": 2,
        "scenario_bonus": 1,
        "seats": 3,
        "total": 20,
    }
    assert view["outcome"] is None


def test_result_is_none_while_the_bomb_ticks() -> None:
    assert GAME.result(start("training")) is None


def test_a_lost_game_scores_nothing_and_everyone_shares_the_loss() -> None:
    state = start("training", players=4, consultants=())
    state = GAME.apply(state, 1, {"type": "cut", "grid": 0, "row": 1, "column": 1})
    assert GAME.result(state) == {"won": False, "scores": [0] * 4, "ranks": [1] * 4}
    assert GAME.view(state, 2)["outcome"] == {"won": False, "cause": "explosive", "score": 0}


def test_the_game_is_cooperative() -> None:
    assert GAME.is_cooperative is True
    assert (GAME.min_players, GAME.max_players) == (2, 6)
