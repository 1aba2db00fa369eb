"""The state of a game of Bouldertroll Boom Box, and the facts of its boxes.

Everything that moves is named by a box id. Where a box lies is given by which
tuple holds its id (a Start Line, the boxes passed to a seat, an opened stack, the
removed boxes, the boxes set aside); what a box *is* lives once in ``boxes``.
People know a box by a letter instead (``box_names``).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Literal

from games.engine.log import LogEntry
from games.engine.rng import RngState

BOOM = 0
# Gems per box of one player's set: 2 Booms, 3 one-gem boxes, 1 two-gem box.
BOX_SET = (BOOM, BOOM, 1, 1, 1, 2)
SET_ASIDE_COUNT = 2  # of the six boxes: the other four are the Start Line
LINE_LENGTH = len(BOX_SET) - SET_ASIDE_COUNT
# A box's name for people: seat 0's Start Line is A to D, seat 1's E to H... (6 seats: A to X).
BOX_LETTERS = string.ascii_uppercase
CLAIMS = ("gem", "boom")
# The colour of each seat's boxes, so that everyone sees whose box is whose.
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
CONTENT_NAMES = {BOOM: "boom", 1: "gem", 2: "two_gems"}

Phase = Literal["setup", "play", "over"]


@dataclass(frozen=True, slots=True)
class Box:
    id: str
    owner: int
    gems: int  # BOOM (0) for a Boom, else 1 or 2


@dataclass(frozen=True, slots=True)
class Pass:
    box: str
    giver: int
    receiver: int
    claim: str  # "gem" | "boom": what the giver said, true or not


@dataclass(frozen=True, slots=True)
class Removal:
    box: str
    holder: int  # the opener who lost it
    chooser: int  # the owner of the Boom that cost it


@dataclass(frozen=True, slots=True)
class BoomBoxState:
    players: int
    rng: RngState
    phase: str  # a Phase
    boxes: tuple[Box, ...]  # every box of the game, ordered by id
    # Per seat. During setup a Start Line is empty until both boxes are set aside.
    start_lines: tuple[tuple[str, ...], ...]
    set_aside: tuple[tuple[str, ...], ...]
    fronts: tuple[tuple[str, ...], ...]  # boxes passed to the seat, unopened, oldest first
    stacks: tuple[tuple[str, ...], ...]  # opened boxes, bottom first (the last one is on top)
    gems: tuple[int, ...]
    passes: tuple[Pass, ...]  # every pass of the game, in order
    removed: tuple[Removal, ...]
    starting_seat: int | None
    turn: int | None  # the active seat during play
    has_passed: bool  # this turn
    has_opened: bool  # this turn
    loss_chooser: int | None  # the Boom owner who owes the choice of the opener's lost box
    log: tuple[LogEntry, ...]


def find_box(boxes: tuple[Box, ...], box_id: str) -> Box | None:
    for box in boxes:
        if box.id == box_id:
            return box
    return None


def owner_of(boxes: tuple[Box, ...], box_id: str) -> int:
    for box in boxes:
        if box.id == box_id:
            return box.owner
    raise KeyError(box_id)


def line_letters(seat: int) -> str:
    """The names of ``seat``'s Start Line boxes, in the order of the line: "ABCD" for seat 0."""
    first = seat * LINE_LENGTH
    return BOX_LETTERS[first : first + LINE_LENGTH]


def box_names(state: BoomBoxState) -> dict[str, str]:
    """The letter people know each box on the table by, by box id.

    A box is named when its Start Line is laid out, by its place in the line
    (``line_letters``), and keeps its letter wherever it goes on the table (passed,
    opened, removed): an owner's boxes on the table never change once laid out, so a
    letter means one box, for the whole game and to everyone. It comes from public
    facts only: a laid-out Start Line is public, and its order is its boxes' id order
    (``rules.set_aside_box``), which says nothing of what they hold. Boxes never on the
    table (set aside, or not yet chosen) have no name: only their owner ever sees them.
    """
    on_table = {
        box_id for rows in (state.start_lines, state.fronts, state.stacks) for row in rows for box_id in row
    }
    on_table.update(removal.box for removal in state.removed)
    names: dict[str, str] = {}
    placed = [0] * state.players
    for box in state.boxes:  # in id order, as each Start Line was laid out
        if box.id in on_table:
            names[box.id] = BOX_LETTERS[box.owner * LINE_LENGTH + placed[box.owner]]
            placed[box.owner] += 1
    return names
