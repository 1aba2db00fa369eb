"""The state of a Booby-Trap match: the tray's pieces (with their hidden make-up) and the turn."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.log import LogEntry
from games.engine.rng import RngState

from .physics import Disc

SIZE_NAMES = ("small", "medium", "large")

# Where a piece is.
IN_TRAY = "tray"
KEPT = "kept"
DISCARDED = "discard"

REGULAR = "regular"
SIZE_ORDER = "size-order"
NO_PASS = "no-pass"
SOLITAIRE = "solitaire"
VARIANTS = (REGULAR, SIZE_ORDER, NO_PASS, SOLITAIRE)

VALUE_SCHEMES = {"5-10-20": (5, 10, 20), "1-2-3": (1, 2, 3)}

# Solitaire: the bar may be tripped this many times; one more loses at once.
SOLITAIRE_TRIPS_ALLOWED = 3


@dataclass(frozen=True, slots=True)
class Piece:
    id: str  # opaque, drawn from the seed
    size: int  # index into SIZE_NAMES
    where: str  # IN_TRAY, KEPT or DISCARDED
    keeper: int | None  # the seat that kept it
    # Settled position (inches; the last one it had while in the tray).
    x: float
    y: float
    # Hidden make-up, drawn at setup.
    radius: float
    friction: float
    # Hidden, as of the last settle: the load it carries (in bar-pushes) and its
    # fingertip noise draw, so that a touch is a lookup.
    load: float
    noise: float

    @property
    def in_tray(self) -> bool:
        return self.where == IN_TRAY

    def disc(self) -> Disc:
        return Disc(self.x, self.y, self.radius, self.friction)


@dataclass(frozen=True, slots=True)
class BoobyTrapState:
    players: int
    variant: str
    values: tuple[int, int, int]  # per size: small, medium, large
    rng: RngState
    pieces: tuple[Piece, ...]
    bar_y: float  # the bar's edge at rest, inches from the far wall
    arrangement: int  # how many times the tray has settled (readings hold within one)
    turn: int
    touched: int | None  # index of the piece touched this turn, awaiting pass or take
    passes: int  # passes in a row since the last take
    penalties: tuple[int, ...]
    trips: tuple[int, ...]
    is_over: bool
    log: tuple[LogEntry, ...]

    @property
    def penalty(self) -> int:
        """A trip costs the value of the largest size."""
        return self.values[2]
