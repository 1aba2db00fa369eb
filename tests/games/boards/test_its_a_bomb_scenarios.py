"""It's a Bomb!'s scenarios by name (games/boards/its_a_bomb_scenarios.py): the lobby's
picker, through the presenter's choice_label, names each by number, name and class,
with the bot team's measured win rate."""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pytest

from accounts.models import User
from games.boards.its_a_bomb import choice_label
from games.boards.its_a_bomb_scenarios import scenario_summaries, scenario_summary
from games.bots.its_a_bomb_balance import BALANCE
from games.engine.its_a_bomb.scenarios import SCENARIOS
from tests.games.helpers import logged_in


@pytest.mark.django_db
def test_the_scenario_picker_offers_every_scenario_by_its_name(ann: User) -> None:
    page = html.unescape(logged_in(ann).get("/play/its-a-bomb/").content.decode())
    for scenario in SCENARIOS:
        measured = BALANCE[scenario.slug]
        rate = round(100 * int(measured["wins"]) / int(measured["games"]))
        words = f"{scenario.number}. {scenario.name} ({scenario.level}, a basic bot team wins {rate}%)"
        assert re.search(rf'<option value="{scenario.slug}"[^>]*>{re.escape(words)}</option>', page), words


def test_the_names_are_the_rules_own() -> None:
    assert choice_label("scenario", "lab-n457") == "2. Lab N457 (standard, a basic bot team wins 61%)"
    assert [summary.name for summary in scenario_summaries()][:4] == [
        "Training",
        "Lab N457",
        "Wired",
        "The Call",
    ]
    assert choice_label("scenario", "no-such-scenario") is None
    assert choice_label("seats", "training") is None


def test_a_scenario_not_measured_yet_is_named_without_a_win_rate() -> None:
    summary = scenario_summary("twins")
    assert summary is not None
    unmeasured = replace(summary, wins=None, games=None, team=None)
    assert unmeasured.win_rate == "" and unmeasured.label == "7. Twins (advanced)"


def test_a_scenario_says_its_grid_time_and_extra_rules() -> None:
    twins, countdown, relife = (scenario_summary(slug) for slug in ("twins", "countdown", "relife"))
    assert twins is not None and countdown is not None and relife is not None
    assert (twins.grid, twins.extra_rules) == ("two 4\N{MULTIPLICATION SIGN}4", ("two bombs",))
    assert (countdown.grid, countdown.time, countdown.extra_rules) == (
        "5\N{MULTIPLICATION SIGN}6",
        "00:50",
        (),
    )
    assert relife.extra_rules == ("every purple cable", "cutting order")
