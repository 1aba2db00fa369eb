"""The state of a game of It's a Bomb!: frozen dataclasses of tuples and scalars."""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter

from games.engine.log import LogEntry
from games.engine.rng import RngState

CRISIS_UNIT = 0

# Consultant statuses.
READY = "ready"
USED = "used"
STANDING_PASS = "standing_pass"  # never offered again; still counts as unused for the score

# What follows when the Countdown cards due have all left the deck.
THEN_ADVANCE = "advance"  # the round goes on to Advance the Countdown
THEN_END_ROUND = "end_round"

ROW = "row"
COLUMN = "column"
LINE_KINDS = (ROW, COLUMN)

# Information tokens shown by the Analyst for tiles that give none.
BLANK = "blank"
REVEALED = "revealed"

# Marker's fact; Colourist's fact is the tile kind itself.
NOT_EXPLOSIVE = "not_explosive"


@dataclass(frozen=True, slots=True)
class Grid:
    rows: int
    columns: int
    tiles: tuple[str, ...]  # tile kinds, row by row
    revealed: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Line:
    grid: int
    kind: str  # ROW or COLUMN
    index: int


@dataclass(frozen=True, slots=True)
class TileRef:
    grid: int
    position: int  # row * columns + column


@dataclass(frozen=True, slots=True)
class Information:
    """One line's Information, kept on the board for the whole game."""

    round: int
    grid: int
    line: str
    index: int
    face_down: tuple[int, ...]  # the positions of the line that were face down when it was given
    # As shown: a random order of tokens; with the Analyst one entry per tile of the
    # line in tile order (a token, BLANK or REVEALED); empty when disturbed.
    tokens: tuple[str, ...]
    count: int  # how many tokens it showed (all a disturbed Information shows)
    analyst: bool
    informant: bool
    surveyor: bool  # the Surveyor's extra line
    disturbed: bool


@dataclass(frozen=True, slots=True)
class TileFact:
    """What the Marker or the Colourist made public about a face-down tile."""

    consultant: str
    round: int
    grid: int
    position: int
    fact: str  # NOT_EXPLOSIVE, or the tile's kind


@dataclass(frozen=True, slots=True)
class HeldConsultant:
    name: str
    status: str  # READY, USED or STANDING_PASS


@dataclass(frozen=True, slots=True)
class State:
    scenario: str
    players: int
    rng: RngState
    grids: tuple[Grid, ...]
    countdown: tuple[str, ...]  # top first; the Explosion is always last
    discard: tuple[str, ...]  # top (most recently discarded) first
    top_known: bool  # the Negotiator's Timer is on top, for everyone to know
    consultants: tuple[HeldConsultant, ...]
    round: int
    active_seat: int  # the employee whose round it is
    phase: str
    asked: Line | None  # the line of the Information being given
    extra: Line | None  # the Surveyor's extra line
    analyst: bool  # Consultants applied to the Information being given
    informant: bool
    tile: TileRef | None  # the tile named for a cut, or the Explosive just revealed
    stopped: TileRef | None  # the tile the Sapper stopped this round
    cards_due: int  # Countdown cards that still have to leave the deck now
    then: str  # THEN_ADVANCE or THEN_END_ROUND once they have
    disturbances: int  # Disturbed Signals armed and not yet spent
    information: tuple[Information, ...]
    facts: tuple[TileFact, ...]
    outcome: str  # "", "won" or "lost"
    cause: str  # why the game ended
    log: tuple[LogEntry, ...]


@dataclass(slots=True)
class Draft:
    """A mutable working copy of a ``State`` while one action is played.

    Building a frozen ``State`` costs a few microseconds, and one action passes
    through many small steps (a cut, a reveal, Countdown cards, the next round), so
    the steps change a draft in place and the action freezes it once at the end.
    The fields are the State's, in the same order (a test checks it).
    """

    scenario: str
    players: int
    rng: RngState
    grids: tuple[Grid, ...]
    countdown: tuple[str, ...]
    discard: tuple[str, ...]
    top_known: bool
    consultants: tuple[HeldConsultant, ...]
    round: int
    active_seat: int
    phase: str
    asked: Line | None
    extra: Line | None
    analyst: bool
    informant: bool
    tile: TileRef | None
    stopped: TileRef | None
    cards_due: int
    then: str
    disturbances: int
    information: tuple[Information, ...]
    facts: tuple[TileFact, ...]
    outcome: str
    cause: str
    log: tuple[LogEntry, ...]

    @classmethod
    def of(cls, state: State) -> Draft:
        return cls(*_all_fields(state))

    def freeze(self) -> State:
        return State(*_all_fields(self))


STATE_FIELDS = tuple(field.name for field in fields(State))
_all_fields = attrgetter(*STATE_FIELDS)

# What the read-only questions of ``board`` accept: the same fields, frozen or not.
Board = State | Draft
