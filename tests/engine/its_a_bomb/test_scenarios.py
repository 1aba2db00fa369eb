"""The scenario table as data, the scenario option, and each scenario won and lost."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalAction
from games.engine.its_a_bomb.consultants import CONSULTANT_BY_NAME
from games.engine.its_a_bomb.scenarios import (
    BOX_SPECIAL_CARDS,
    COMPONENTS,
    MAX_TIMERS,
    SCENARIO_BY_SLUG,
    SCENARIO_SLUGS,
    SCENARIOS,
    Scenario,
)
from games.engine.its_a_bomb.state import CRISIS_UNIT
from tests.engine.its_a_bomb.builder import GAME, cables_in_order, cut, defuse, drive, start, until_employee

every_scenario = pytest.mark.parametrize("scenario", SCENARIO_SLUGS)


def test_there_are_twelve_scenarios_numbered_in_order() -> None:
    assert [scenario.number for scenario in SCENARIOS] == list(range(1, 13))
    assert len(set(SCENARIO_SLUGS)) == 12


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda scenario: scenario.slug)
def test_each_scenario_fills_its_grids_from_the_box(scenario: Scenario) -> None:
    used: dict[str, int] = {}
    for spec in scenario.grids:
        assert len(spec.tiles) == spec.rows * spec.columns
        for kind in spec.tiles:
            used[kind] = used.get(kind, 0) + 1
    for kind, available in COMPONENTS.items():
        assert used.get(kind, 0) <= available, kind
    for colour in scenario.colours:
        assert used[colour] == 3 * sum(colour in spec.colours for spec in scenario.grids)
    assert 3 <= scenario.time <= MAX_TIMERS
    for card, available in BOX_SPECIAL_CARDS.items():
        assert scenario.special_cards.count(card) <= available
    assert set(scenario.consultants) <= set(CONSULTANT_BY_NAME)


def test_the_table_matches_the_rules_for_a_few_scenarios() -> None:
    training = SCENARIO_BY_SLUG["training"]
    assert (training.grids[0].rows, training.grids[0].columns, training.time) == (4, 4, 6)
    assert training.colours == ("red", "yellow", "blue")
    assert training.consultants == ("analyst", "chronometrist")
    twins = SCENARIO_BY_SLUG["twins"]
    assert twins.additional_bomb and [spec.colours for spec in twins.grids] == [
        ("red", "yellow", "blue"),
        ("green", "purple"),
    ]
    assert not twins.purple_rule
    countdown = SCENARIO_BY_SLUG["countdown"]
    assert (countdown.grids[0].rows, countdown.grids[0].columns) == (5, 6)
    protocol = SCENARIO_BY_SLUG["protocol-27bis"]
    assert protocol.purple_rule and protocol.cutting_order and len(protocol.consultants) == 10
    # Tuned for balance: a Consultant that says nothing about the tiles.
    assert SCENARIO_BY_SLUG["no-voice"].consultants == ("chronometrist",)


def test_the_scenario_option_lists_every_slug_with_training_as_default() -> None:
    (option,) = GAME.options
    assert option.name == "scenario"
    assert option.kind == "choice"
    assert option.choices == SCENARIO_SLUGS
    assert option.default == "training"
    assert GAME.new(3, 1).scenario == "training"


def test_an_unknown_scenario_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.new(3, 1, {"scenario": "lab-n458"})
    assert refused.value.code == "bad_option"


@every_scenario
def test_each_scenario_sets_up_its_grids_countdown_and_consultants(scenario: str) -> None:
    table = SCENARIO_BY_SLUG[scenario]
    state = GAME.new(4, 7, {"scenario": scenario})
    for spec, grid in zip(table.grids, state.grids, strict=True):
        assert sorted(grid.tiles) == sorted(spec.tiles)
        assert not any(grid.revealed)
    assert len(state.countdown) == table.time + len(table.special_cards) + 1
    names = [held.name for held in state.consultants]
    if table.consultants_drawn is None:
        assert names == list(table.consultants)
    else:
        assert len(names) == table.consultants_drawn


def test_relife_draws_four_consultants_from_the_seed() -> None:
    draws = {
        tuple(held.name for held in GAME.new(3, seed, {"scenario": "relife"}).consultants)
        for seed in range(12)
    }
    assert all(len(drawn) == 4 for drawn in draws)
    assert len(draws) > 1
    again = GAME.new(3, 5, {"scenario": "relife"}).consultants
    assert again == GAME.new(3, 5, {"scenario": "relife"}).consultants


@every_scenario
def test_each_scenario_can_be_won(scenario: str) -> None:
    state = start(scenario, players=4)
    end = defuse(state)
    result = GAME.result(end)
    assert result is not None and result["won"] is True
    assert end.cause == "defused"
    # Only progress was cut, so no Timer left the Countdown; no Consultant was used.
    table = SCENARIO_BY_SLUG[scenario]
    bonus = {"training": 1, "standard": 1, "advanced": 2, "special": 3}[table.level]
    expected = 3 * table.time + 2 * len(state.consultants) + bonus - 4
    assert result["scores"] == [expected] * 4
    assert result["ranks"] == [1] * 4
    assert len(cables_in_order(state)) == sum(1 for item in end.log if item.event == "cut")


@every_scenario
def test_each_scenario_can_be_lost(scenario: str) -> None:
    state = until_employee(start(scenario, players=2))
    grid = state.grids[0]
    position = grid.tiles.index("explosive")
    state = cut(state, position // grid.columns, position % grid.columns)
    end = drive(state, lambda _: pytest.fail("the game should be over"))
    result = GAME.result(end)
    assert result == {"won": False, "scores": [0, 0], "ranks": [1, 1]}
    assert end.cause == "explosive"


@every_scenario
def test_each_scenario_is_lost_when_time_runs_out(scenario: str) -> None:
    state = start(scenario, players=3)
    safe = [
        {"type": "ask", "grid": 0, "line": "row", "index": 0},
    ]
    end = drive(state, lambda _: safe[0])
    assert GAME.result(end) == {"won": False, "scores": [0, 0, 0], "ranks": [1, 1, 1]}
    assert end.cause == "explosion"
    assert CRISIS_UNIT not in GAME.to_act(end)
