"""What the three word-card games share as games: one seat acts at a time, and Go Fox!
and Ka-Blam! hide the same two things, the hands and the pick-up pile.

Only the shape is shared here; each game's rules stay in its own package.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from games.engine.base import Game
from games.engine.log import LogEntry, log_reveal


class TurnState(Protocol):
    @property
    def players(self) -> int: ...

    # The seat whose turn it is; -1 once the game is over.
    @property
    def turn(self) -> int: ...


class HandAndPileState(TurnState, Protocol):
    @property
    def ids(self) -> tuple[str, ...]: ...

    @property
    def hands(self) -> Sequence[Sequence[int]]: ...

    @property
    def pile(self) -> Sequence[int]: ...

    @property
    def log(self) -> tuple[LogEntry, ...]: ...


T = TypeVar("T", bound=TurnState)
H = TypeVar("H", bound=HandAndPileState)


class TurnByTurnGame(Game[T]):
    """A game in which one seat at a time owes a decision: ``state.turn``."""

    def players(self, state: T) -> int:
        return state.players

    def to_act(self, state: T) -> list[int]:
        return [] if state.turn < 0 else [state.turn]

    def legal_actions(self, state: T, seat: int) -> list[dict[str, Any]]:
        return self.turn_actions(state, seat) if seat == state.turn else []

    @abstractmethod
    def turn_actions(self, state: T, seat: int) -> list[dict[str, Any]]:
        """The legal actions of ``seat``, whose turn it is."""


class HandAndPileGame(TurnByTurnGame[H]):
    """A game whose hidden cards are the hands and the pick-up pile (Go Fox!, Ka-Blam!)."""

    @abstractmethod
    def card_view(self, card: int, ids: tuple[str, ...]) -> dict[str, Any]:
        """How a view shows ``card`` (with its opaque id from ``ids``)."""

    def reveal(self, state: H) -> dict[str, Any]:
        """Everything revealed (finished matches only): a spectator's view plus every
        ``hands`` (per seat) and the ``pile`` in order (top first); ``hand`` is each
        seat's own, in ``as_seen_by``."""
        ids = state.ids
        shown = self.view(state, None)
        shown["log"] = log_reveal(state.log)
        shown["hands"] = [[self.card_view(card, ids) for card in hand] for hand in state.hands]
        shown["pile"] = [self.card_view(card, ids) for card in state.pile]
        shown["revealed"] = True
        shown["as_seen_by"] = {
            str(seat): {"seat": seat, "hand": [self.card_view(card, ids) for card in hand]}
            for seat, hand in enumerate(state.hands)
        }
        return shown
