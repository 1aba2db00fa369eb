"""Scenario states for the Boom Box rule tests, built directly and readably.

Every player owns six boxes named ``"<owner>-<name>"``: ``boom1``, ``boom2``,
``gem1``, ``gem2``, ``gem3`` and ``two`` (the two-gem box), so a test reads
``lines={0: ["0-gem1"]}, fronts={1: ["0-boom1"]}``. A box placed nowhere is set
aside; gems follow from the opened stacks (counted since the last Boom).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.engine import IllegalAction
from games.engine.boom_box import BoomBox
from games.engine.boom_box.state import BOOM, BoomBoxState, Box, Pass, Removal

GAME = BoomBox()
CONTENTS = {"boom1": BOOM, "boom2": BOOM, "gem1": 1, "gem2": 1, "gem3": 1, "two": 2}

Placement = Mapping[int, Iterable[str]]


def table(
    players: int = 2,
    *,
    turn: int = 0,
    lines: Placement | None = None,
    fronts: Placement | None = None,
    opened: Placement | None = None,
    removed: Iterable[tuple[str, int, int]] = (),
    passes: Iterable[tuple[str, int, str]] = (),
    has_passed: bool = False,
    has_opened: bool = False,
    loss_chooser: int | None = None,
) -> BoomBoxState:
    """A state in play. ``removed`` holds (box, holder, chooser); ``passes`` (box, giver, claim)."""
    boxes = tuple(
        sorted(
            (
                Box(f"{owner}-{name}", owner, gems)
                for owner in range(players)
                for name, gems in CONTENTS.items()
            ),
            key=lambda box: box.id,
        )
    )
    start_lines = _per_seat(players, lines)
    front_rows = _per_seat(players, fronts)
    stacks = _per_seat(players, opened)
    removals = tuple(Removal(box, holder, chooser) for box, holder, chooser in removed)
    placed = {box for row in (*start_lines, *front_rows, *stacks) for box in row} | {r.box for r in removals}
    known = {box.id for box in boxes}
    assert placed <= known, f"no such boxes: {placed - known}"
    set_aside = tuple(
        tuple(box.id for box in boxes if box.owner == seat and box.id not in placed)
        for seat in range(players)
    )
    return BoomBoxState(
        players=players,
        rng=12345,
        phase="play",
        boxes=boxes,
        start_lines=start_lines,
        set_aside=set_aside,
        fronts=front_rows,
        stacks=stacks,
        gems=tuple(_gems(stack) for stack in stacks),
        passes=tuple(Pass(box, giver, (giver + 1) % players, claim) for box, giver, claim in passes),
        removed=removals,
        starting_seat=0,
        turn=turn,
        has_passed=has_passed,
        has_opened=has_opened,
        loss_chooser=loss_chooser,
        log=(),
    )


def _per_seat(players: int, placement: Placement | None) -> tuple[tuple[str, ...], ...]:
    placement = placement or {}
    return tuple(tuple(placement.get(seat, ())) for seat in range(players))


def _gems(stack: tuple[str, ...]) -> int:
    gems = 0
    for box_id in stack:
        content = CONTENTS[box_id.split("-", 1)[1]]
        gems = 0 if content == BOOM else gems + content
    return gems


def play(state: BoomBoxState, seat: int, kind: str, **fields: Any) -> BoomBoxState:
    return GAME.apply(state, seat, {"type": kind, **fields})


def refusal(state: BoomBoxState, seat: int, action: Any) -> str:
    """The code of the IllegalAction that ``action`` by ``seat`` raises."""
    with pytest.raises(IllegalAction) as raised:
        GAME.apply(state, seat, action)
    return raised.value.code


def events(state: BoomBoxState, seat: int | None = None) -> list[str]:
    return [item["event"] for item in GAME.view(state, seat)["log"]]


def last_entry(state: BoomBoxState, seat: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = GAME.view(state, seat)["log"][-1]
    return entry
