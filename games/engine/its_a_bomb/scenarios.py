"""The twelve scenarios of our digital edition, as data.

A new scenario is a new row of ``SCENARIOS``: the rules read everything they need
(grids, tile mix, time, special cards, Consultants, special rules, class) from it.
The table follows ``shared/rules/its-a-bomb.md``; balance is tuned by changing a
row's ``time`` or ``consultants`` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# Tile kinds. Colours are always taken in this order (rules: red, yellow, blue,
# green, purple), which is also the cutting order.
RED, YELLOW, BLUE, GREEN, PURPLE = "red", "yellow", "blue", "green", "purple"
COLOURS = (RED, YELLOW, BLUE, GREEN, PURPLE)
GREY = "grey"
AUXILIARY = "auxiliary"
EXPLOSIVE = "explosive"
BATTERY = "battery"
RECEIVER = "receiver"
TILE_KINDS = (*COLOURS, GREY, AUXILIARY, EXPLOSIVE, BATTERY, RECEIVER)
CABLES_PER_COLOUR = 3

# Countdown cards other than Timers (a Timer is written "timer-<seconds>").
EXPLOSION = "explosion"
CALL = "call"
DISTURBED_SIGNAL = "disturbed_signal"
SPECIAL_CARDS = (CALL, DISTURBED_SIGNAL)

# What the box holds: a scenario may not use more than this.
COMPONENTS = {GREY: 16, AUXILIARY: 4, EXPLOSIVE: 5, BATTERY: 1, RECEIVER: 1}
MAX_TIMERS = 9
BOX_SPECIAL_CARDS = {CALL: 1, DISTURBED_SIGNAL: 3}

Level = Literal["training", "standard", "advanced", "special"]
# Team score bonus for winning a scenario of each class (rulebook scoring table).
LEVEL_BONUS: dict[str, int] = {"training": 1, "standard": 1, "advanced": 2, "special": 3}

ANALYST = "analyst"
SURVEYOR = "surveyor"
INFORMANT = "informant"
SAPPER = "sapper"
CONTAINMENT = "containment"
CHRONOMETRIST = "chronometrist"
NEGOTIATOR = "negotiator"
RADIO_OPERATOR = "radio_operator"
MARKER = "marker"
COLOURIST = "colourist"
ALL_CONSULTANTS = (
    ANALYST,
    SURVEYOR,
    INFORMANT,
    SAPPER,
    CONTAINMENT,
    CHRONOMETRIST,
    NEGOTIATOR,
    RADIO_OPERATOR,
    MARKER,
    COLOURIST,
)


@dataclass(frozen=True, slots=True)
class GridSpec:
    """One grid of face-down tiles: its shape and the tiles shuffled into it."""

    rows: int
    columns: int
    colours: tuple[str, ...]  # each colour brings CABLES_PER_COLOUR cables
    grey: int
    explosives: int
    auxiliaries: int = 0
    battery: int = 0
    receiver: int = 0

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile of the grid, in a fixed order (shuffled at setup)."""
        return (
            tuple(colour for colour in self.colours for _ in range(CABLES_PER_COLOUR))
            + (GREY,) * self.grey
            + (AUXILIARY,) * self.auxiliaries
            + (EXPLOSIVE,) * self.explosives
            + (BATTERY,) * self.battery
            + (RECEIVER,) * self.receiver
        )


@dataclass(frozen=True, slots=True)
class Scenario:
    number: int
    slug: str
    name: str
    level: Level
    grids: tuple[GridSpec, ...]
    time: int  # available time: the number of Timer cards, 10 seconds each
    special_cards: tuple[str, ...]  # shuffled into the Countdown at setup
    consultants: tuple[str, ...]
    # When set, the Crisis Unit gets this many of ``consultants``, drawn at setup (seeded).
    consultants_drawn: int | None = None
    purple_rule: bool = False
    cutting_order: bool = False

    @property
    def additional_bomb(self) -> bool:
        return len(self.grids) > 1

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours in play, in the fixed colour order."""
        used = {colour for grid in self.grids for colour in grid.colours}
        return tuple(colour for colour in COLOURS if colour in used)

    @property
    def has_battery(self) -> bool:
        return any(grid.battery for grid in self.grids)

    @property
    def has_receiver(self) -> bool:
        return any(grid.receiver for grid in self.grids)

    def cables_needed(self, colour: str) -> int:
        """How many cables of ``colour`` a grid needs cut for the colour to be done."""
        return CABLES_PER_COLOUR if self.purple_rule and colour == PURPLE else 1


_THREE = (RED, YELLOW, BLUE)
_FOUR = (RED, YELLOW, BLUE, GREEN)
_FIVE = COLOURS
_FULL_BOX = GridSpec(6, 7, _FIVE, grey=16, explosives=5, auxiliaries=4, battery=1, receiver=1)

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        1,
        "training",
        "Training",
        "training",
        (GridSpec(4, 4, _THREE, grey=5, explosives=2),),
        time=6,
        special_cards=(),
        consultants=(ANALYST, CHRONOMETRIST),
    ),
    Scenario(
        2,
        "lab-n457",
        "Lab N457",
        "standard",
        (GridSpec(5, 5, _FOUR, grey=10, explosives=3),),
        time=5,
        special_cards=(),
        consultants=(ANALYST, SAPPER),
    ),
    Scenario(
        3,
        "wired",
        "Wired",
        "standard",
        (GridSpec(5, 5, _FOUR, grey=6, explosives=3, auxiliaries=3, battery=1),),
        time=6,
        special_cards=(),
        consultants=(INFORMANT, CHRONOMETRIST, SAPPER),
    ),
    Scenario(
        4,
        "the-call",
        "The Call",
        "standard",
        (GridSpec(5, 5, _FOUR, grey=8, explosives=4, receiver=1),),
        time=4,
        special_cards=(CALL,),
        consultants=(SURVEYOR, RADIO_OPERATOR, MARKER),
    ),
    Scenario(
        5,
        "static",
        "Static",
        "standard",
        (GridSpec(5, 5, _FIVE, grey=7, explosives=3),),
        time=6,
        special_cards=(DISTURBED_SIGNAL, DISTURBED_SIGNAL),
        consultants=(ANALYST, RADIO_OPERATOR, NEGOTIATOR),
        purple_rule=True,
    ),
    Scenario(
        6,
        "sequence",
        "Sequence",
        "advanced",
        (GridSpec(6, 6, _FIVE, grey=13, explosives=4, auxiliaries=2, battery=1, receiver=1),),
        time=9,
        special_cards=(CALL,),
        consultants=(COLOURIST, SAPPER, SURVEYOR),
        purple_rule=True,
        cutting_order=True,
    ),
    Scenario(
        7,
        "twins",
        "Twins",
        "advanced",
        (
            GridSpec(4, 4, _THREE, grey=5, explosives=2),
            GridSpec(4, 4, (GREEN, PURPLE), grey=8, explosives=2),
        ),
        time=6,
        special_cards=(),
        consultants=(ANALYST, CONTAINMENT, CHRONOMETRIST),
    ),
    Scenario(
        8,
        "blackout",
        "Blackout",
        "advanced",
        # No Battery on purpose: these auxiliaries can never be disarmed.
        (GridSpec(6, 6, _FIVE, grey=12, explosives=5, auxiliaries=4),),
        time=9,
        special_cards=(DISTURBED_SIGNAL,) * 3,
        consultants=(INFORMANT, NEGOTIATOR, RADIO_OPERATOR),
        purple_rule=True,
    ),
    Scenario(
        9,
        "countdown",
        "Countdown",
        "advanced",
        (GridSpec(5, 6, _FIVE, grey=8, explosives=4, auxiliaries=1, battery=1, receiver=1),),
        time=5,
        special_cards=(CALL,),
        consultants=(MARKER, COLOURIST, CHRONOMETRIST, NEGOTIATOR),
    ),
    Scenario(
        10,
        "no-voice",
        "No Voice",
        "advanced",
        (GridSpec(6, 6, _FIVE, grey=14, explosives=5, auxiliaries=1, battery=1),),
        time=9,
        special_cards=(DISTURBED_SIGNAL,),
        consultants=(CHRONOMETRIST,),
        purple_rule=True,
    ),
    Scenario(
        11,
        "relife",
        "ReLife",
        "special",
        (_FULL_BOX,),
        time=9,
        special_cards=(CALL, DISTURBED_SIGNAL, DISTURBED_SIGNAL, DISTURBED_SIGNAL),
        consultants=ALL_CONSULTANTS,
        consultants_drawn=4,
        purple_rule=True,
        cutting_order=True,
    ),
    Scenario(
        12,
        "protocol-27bis",
        "Protocol 27bis",
        "special",
        (_FULL_BOX,),
        time=4,
        special_cards=(CALL, DISTURBED_SIGNAL, DISTURBED_SIGNAL, DISTURBED_SIGNAL),
        consultants=ALL_CONSULTANTS,
        purple_rule=True,
        cutting_order=True,
    ),
)

SCENARIO_BY_SLUG: dict[str, Scenario] = {scenario.slug: scenario for scenario in SCENARIOS}
SCENARIO_SLUGS: tuple[str, ...] = tuple(scenario.slug for scenario in SCENARIOS)
DEFAULT_SCENARIO = "training"

# Bounds for the action schemas: the largest grid any scenario uses.
MAX_GRIDS = max(len(scenario.grids) for scenario in SCENARIOS)
MAX_ROWS = max(grid.rows for scenario in SCENARIOS for grid in scenario.grids)
MAX_COLUMNS = max(grid.columns for scenario in SCENARIOS for grid in scenario.grids)
