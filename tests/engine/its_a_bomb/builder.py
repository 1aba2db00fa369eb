"""Build It's a Bomb! states from readable layouts, and play them, for rule tests.

A grid is written row by row, one character per tile, spaces ignored:
``r y b g p`` are cables of those colours, ``-`` a grey cable, ``a`` an Auxiliary
Detonator, ``X`` an Explosive, ``T`` the Battery, ``V`` the Receiver. A layout
must hold exactly the scenario's tiles, so that sampled states stay consistent.
A Countdown is written top first: ints are Timers in seconds, ``"call"`` and
``"signal"`` the special cards; the Explosion is added at the bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from games.engine.its_a_bomb import ItsABomb
from games.engine.its_a_bomb.board import timer_card
from games.engine.its_a_bomb.consultants import ROUND_START
from games.engine.its_a_bomb.flow import settle
from games.engine.its_a_bomb.scenarios import (
    AUXILIARY,
    BATTERY,
    BLUE,
    CALL,
    DISTURBED_SIGNAL,
    EXPLOSION,
    EXPLOSIVE,
    GREEN,
    GREY,
    PURPLE,
    RECEIVER,
    RED,
    SCENARIO_BY_SLUG,
    YELLOW,
)
from games.engine.its_a_bomb.state import CRISIS_UNIT, READY, Draft, Grid, HeldConsultant, State

GAME = ItsABomb()

LEGEND = {
    "r": RED,
    "y": YELLOW,
    "b": BLUE,
    "g": GREEN,
    "p": PURPLE,
    "-": GREY,
    "a": AUXILIARY,
    "X": EXPLOSIVE,
    "T": BATTERY,
    "V": RECEIVER,
}

# One layout per scenario (grid A, then grid B for Twins).
LAYOUTS: dict[str, list[str]] = {
    "training": ["r y b - / - X - r / y b - X / b r y -"],
    "lab-n457": ["r y b g - / X - - - - / r y b g - / - X - - X / r y b g -"],
    "wired": ["r y b g a / X - - a T / r y b g - / a X - - X / r y b g -"],
    "the-call": ["r y b g V / X - - - - / r y b g X / - - X - - / r y b g X"],
    "static": ["r y b g p / - - X - - / r y b g p / - X - - X / r y b g p"],
    "sequence": ["r y b g p - / a T V X - - / r y b g p - / X a - - - - / r y b g p X / - - - X - -"],
    "twins": ["r y b - / - X - r / y b - X / b r y -", "g p - - / - X - g / p - X - / g p - -"],
    "blackout": ["r y b g p a / X - - - - - / r y b g p a / X - X - a - / r y b g p a / X - X - - -"],
    "countdown": ["r y b g p a / X T V - - - / r y b g p X / - X - - - - / r y b g p X"],
    "no-voice": ["r y b g p a / X T - - - - / r y b g p X / - X - - - - / r y b g p X / X - - - - -"],
    "relife": [
        "r y b g p - - / X a T V - - - / r y b g p - - / X a - - - - X / r y b g p - - / X a a - - - X"
    ],
    "protocol-27bis": [
        "r y b g p - - / X a T V - - - / r y b g p - - / X a - - - - X / r y b g p - - / X a a - - - X"
    ],
}


def grid_from(text: str) -> tuple[int, int, tuple[str, ...]]:
    rows = [row.split() for row in text.split("/")]
    tiles = tuple(LEGEND[tile] for row in rows for tile in row)
    return len(rows), len(rows[0]), tiles


def deck(*cards: int | str) -> tuple[str, ...]:
    """A Countdown, top first, with the Explosion added at the bottom."""
    names = {"call": CALL, "signal": DISTURBED_SIGNAL}
    return (*(timer_card(card) if isinstance(card, int) else names[card] for card in cards), EXPLOSION)


def start(
    scenario: str = "training",
    players: int = 3,
    grids: Sequence[str] | None = None,
    countdown: tuple[str, ...] | None = None,
    consultants: Sequence[str] | None = None,
    seed: int = 1,
) -> State:
    """A new game with the given layout (the scenario's test layout by default),
    Countdown and Consultants, at the start of round 1."""
    state = GAME.new(players, seed, {"scenario": scenario})
    specs = SCENARIO_BY_SLUG[scenario].grids
    built = []
    for spec, text in zip(specs, grids if grids is not None else LAYOUTS[scenario], strict=True):
        rows, columns, tiles = grid_from(text)
        assert (rows, columns) == (spec.rows, spec.columns), (
            f"{scenario} grids are {spec.rows}x{spec.columns}"
        )
        assert sorted(tiles) == sorted(spec.tiles), f"the layout does not hold the {scenario} tiles"
        built.append(Grid(rows, columns, tiles, (False,) * len(tiles)))
    changes: dict[str, Any] = {"grids": tuple(built)}
    if countdown is not None:
        changes["countdown"] = countdown
    if consultants is not None:
        changes["consultants"] = tuple(HeldConsultant(name, READY) for name in consultants)
    # Round 1 starts again, so that the new Consultants are asked about it.
    draft = Draft.of(replace(state, **changes, phase=ROUND_START))
    settle(draft)
    return draft.freeze()


def tile(state: State, row: int, column: int, grid: int = 0) -> str:
    return state.grids[grid].tiles[row * state.grids[grid].columns + column]


def is_revealed(state: State, row: int, column: int, grid: int = 0) -> bool:
    return state.grids[grid].revealed[row * state.grids[grid].columns + column]


# -- playing -------------------------------------------------------------------------


def employee(state: State) -> int:
    (seat,) = GAME.to_act(state)
    assert seat != CRISIS_UNIT, f"the Crisis Unit owes a decision (phase {state.phase})"
    return seat


def ask(state: State, line: str, index: int, grid: int = 0) -> State:
    return GAME.apply(state, employee(state), {"type": "ask", "grid": grid, "line": line, "index": index})


def cut(state: State, row: int, column: int, grid: int = 0) -> State:
    return GAME.apply(state, employee(state), {"type": "cut", "grid": grid, "row": row, "column": column})


def use(state: State, consultant: str, **target: Any) -> State:
    """The Crisis Unit uses a Consultant; a target (``line=``/``index=`` or ``row=``/``column=``) on grid 0 by default."""
    if not target:
        return GAME.apply(state, CRISIS_UNIT, {"type": "use", "consultant": consultant})
    kind = "use_on_line" if "line" in target else "use_on_tile"
    return GAME.apply(state, CRISIS_UNIT, {"type": kind, "consultant": consultant, "grid": 0, **target})


def pass_moment(state: State) -> State:
    return GAME.apply(state, CRISIS_UNIT, {"type": "pass"})


def cu_waits(state: State) -> bool:
    return GAME.to_act(state) == [CRISIS_UNIT]


def until_employee(state: State) -> State:
    """The Crisis Unit lets every moment pass until an employee (or nobody) is to act."""
    while cu_waits(state):
        state = pass_moment(state)
    return state


def drive(state: State, employee_action: Callable[[State], dict[str, Any]]) -> State:
    """Play to the end: employees by ``employee_action``, the Crisis Unit always passing."""
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        action = {"type": "pass"} if seat == CRISIS_UNIT else employee_action(state)
        state = GAME.apply(state, seat, action)
    return state


def cables_in_order(state: State) -> list[tuple[int, int, int]]:
    """(grid, row, column) of the cables that defuse the bomb, in a safe order: one per
    colour (all the purple ones under the purple rule), colours in the cutting order."""
    scenario = SCENARIO_BY_SLUG[state.scenario]
    order = []
    for index, spec in enumerate(scenario.grids):
        grid = state.grids[index]
        for colour in spec.colours:
            places = [position for position, kind in enumerate(grid.tiles) if kind == colour]
            for position in places[: scenario.cables_needed(colour)]:
                order.append((index, position // grid.columns, position % grid.columns))
    return order


def defuse(state: State) -> State:
    """Employees who somehow know the right cables cut them in a safe order."""
    plan = iter(cables_in_order(state))

    def next_cable(_: State) -> dict[str, Any]:
        grid, row, column = next(plan)
        return {"type": "cut", "grid": grid, "row": row, "column": column}

    return drive(state, next_cable)


def log_events(state: State) -> list[str]:
    return [item.event for item in state.log]
