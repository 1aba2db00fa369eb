"""The whole truth of a game of Don't Go Boom, hidden parts included."""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final

from games.engine.log import LogEntry
from games.engine.rng import RngState

# Phases. "choose" is the simultaneous first flip; a turn is "draw", then "decide"
# (holding a card), then "flip" only after discarding a card drawn from the deck.
CHOOSE: Final = "choose"
DRAW: Final = "draw"
DECIDE: Final = "decide"
FLIP: Final = "flip"
OVER: Final = "over"

FROM_DECK: Final = "deck"
FROM_DISCARD: Final = "discard"

NO_CARD: Final = -1
NO_SEAT: Final = -1
TURNS_PER_PLAYER_CAP: Final = 30


@dataclass(frozen=True, slots=True)
class DontGoBoomState:
    players: int
    rounds: int  # the `rounds` option
    round: int  # 1-based, the round being played (the last one when over)
    rng: RngState
    # Card index -> opaque id, redrawn every round so that a card seen in one round
    # is not recognised face down in the next.
    ids: tuple[str, ...]
    # Per seat, the nine card indices of the minefield, position = 3 * row + column.
    grids: tuple[tuple[int, ...], ...]
    face_up: tuple[tuple[bool, ...], ...]
    # Per seat, the face-down cards that seat has peeked at (sorted). Knowledge is
    # about the card, so it follows the card through a Swap; it is dropped when the
    # card turns face up or leaves a minefield, since everyone then knows it.
    peeked: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # top first
    discard: tuple[int, ...]  # top first, all face up
    removed: tuple[int, ...]  # replaced bombs, out of the game for this round
    # Cards everyone knows to be in the deck (a start-card bomb shuffled back, the
    # cards of a reshuffle), sorted; a card stays here while the player who drew it
    # from the deck holds it, and leaves when it is shown.
    public_deck: tuple[int, ...]
    phase: str
    # The simultaneous first flip: the chosen position per seat, -1 while undecided.
    chosen: tuple[int, ...]
    turn: int  # the seat whose turn it is; NO_SEAT during "choose" and when over
    held: int  # the card in the active player's hand, NO_CARD when none
    held_from: str  # FROM_DECK or FROM_DISCARD while a card is held, else ""
    turns_taken: int  # completed turns in this round
    final_lap_trigger: int  # the seat whose minefield first went all face up, else NO_SEAT
    # Seats still owed their final-lap turn, the active seat first.
    final_lap: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]  # per finished round, per seat
    log: tuple[LogEntry, ...]


_FIELD_NAMES: Final = tuple(field.name for field in fields(DontGoBoomState))
_FIELD_INDEX: Final = {name: index for index, name in enumerate(_FIELD_NAMES)}
_ALL_FIELDS: Final = attrgetter(*_FIELD_NAMES)


def evolve(state: DontGoBoomState, **changes: Any) -> DontGoBoomState:
    """``dataclasses.replace`` for this state, several times faster.

    ``replace`` walks every field in Python on each call; reading all fields at
    once with ``attrgetter`` keeps random playouts fast enough for bot searches.
    """
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return DontGoBoomState(*values)
