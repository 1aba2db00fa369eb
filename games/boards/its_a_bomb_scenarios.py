"""It's a Bomb!'s scenarios as players read them: number, name, class, and how often
a bot team defuses each one (measured by ``bench/its_a_bomb_balance.py`` into
``games/bots/its_a_bomb_balance.py``).

The lobby's scenario picker (the presenter's ``choice_label``), the match header
and the how-to-play page all read scenarios from here, so they name them alike.
The names are the rules' own (``shared/rules/its-a-bomb.md``, kept in the engine's
``SCENARIOS`` table); the option's value stays the slug.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bots.its_a_bomb_balance import BALANCE
from games.engine.its_a_bomb.scenarios import SCENARIO_BY_SLUG, SCENARIOS, Scenario


@dataclass(frozen=True, slots=True)
class ScenarioSummary:
    number: int
    slug: str
    name: str
    level: str  # the scenario's class: training, standard, advanced or special
    grid: str  # rows by columns: "5x5", "two 4x4", written with a multiplication sign
    time: str  # the available time, "01:30"
    extra_rules: tuple[str, ...]
    wins: int | None  # of ``games`` played by the bot team; None until measured
    games: int | None
    team: str | None

    @property
    def win_rate(self) -> str:
        """ "61%", or "" for a scenario not measured yet."""
        if self.wins is None or not self.games:
            return ""
        return f"{self.wins / self.games:.0%}"

    @property
    def label(self) -> str:
        """The scenario in one line: "2. Lab N457 (standard, a basic bot team wins 61%)"."""
        measured = f", a {self.team} bot team wins {self.win_rate}" if self.win_rate else ""
        return f"{self.number}. {self.name} ({self.level}{measured})"


def _grid_words(scenario: Scenario) -> str:
    shapes = [f"{grid.rows}\N{MULTIPLICATION SIGN}{grid.columns}" for grid in scenario.grids]
    if len(shapes) == 2 and shapes[0] == shapes[1]:
        return f"two {shapes[0]}"
    return " and ".join(shapes)


def _extra_rules(scenario: Scenario) -> tuple[str, ...]:
    rules = []
    if scenario.additional_bomb:
        rules.append("two bombs")
    if scenario.purple_rule:
        rules.append("every purple cable")
    if scenario.cutting_order:
        rules.append("cutting order")
    return tuple(rules)


def _summary(scenario: Scenario) -> ScenarioSummary:
    measured = BALANCE.get(scenario.slug)
    seconds = 10 * scenario.time
    return ScenarioSummary(
        number=scenario.number,
        slug=scenario.slug,
        name=scenario.name,
        level=scenario.level,
        grid=_grid_words(scenario),
        time=f"{seconds // 60:02d}:{seconds % 60:02d}",
        extra_rules=_extra_rules(scenario),
        wins=int(measured["wins"]) if measured else None,
        games=int(measured["games"]) if measured else None,
        team=str(measured["team"]) if measured else None,
    )


def scenario_summary(slug: str) -> ScenarioSummary | None:
    scenario = SCENARIO_BY_SLUG.get(slug)
    return _summary(scenario) if scenario is not None else None


def scenario_summaries() -> list[ScenarioSummary]:
    """Every scenario, in the rules' order (by number)."""
    return [_summary(scenario) for scenario in SCENARIOS]
