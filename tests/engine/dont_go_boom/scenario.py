"""Build Don't Go Boom states from readable grids, for rule tests.

A grid is written row by row: ``"~5 ~5 ~5 / 1 B 3 / 10 7P 3D"``. A card is a
number (``"7"`` is a plain 7, ``"3"`` a plain 3, every ``"10"`` is a Swap),
``"7P"`` a Peek 7, ``"3D"`` a Draw Again 3, ``"B"`` a Big Bad Bomb; a leading
``~`` means face down. Cards not placed anywhere go to the bottom of the deck
unless ``rest_to="discard"`` (then under the discard pile, bombs out of the
game; for an empty deck). The discard pile is a lone 5 unless given (empty
while choosing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.dont_go_boom import DontGoBoom, DontGoBoomState
from games.engine.dont_go_boom.cards import (
    BOMB,
    BOMB_VALUE,
    CARD_COUNT,
    DRAW_AGAIN,
    KIND,
    NUMBER,
    PEEK,
    VALUE,
)
from games.engine.dont_go_boom.state import CHOOSE, DRAW, FROM_DECK, NO_CARD, NO_SEAT
from games.engine.rng import FastRng, fast_state

GAME = DontGoBoom()


def card_type(token: str) -> tuple[int, str]:
    if token == "B":
        return BOMB_VALUE, BOMB
    if token.endswith("P"):
        return int(token[:-1]), PEEK
    if token.endswith("D"):
        return int(token[:-1]), DRAW_AGAIN
    value = int(token)
    return value, "swap" if value == 10 else NUMBER


class _Cards:
    """Hands out unused card indices of the asked-for type."""

    def __init__(self) -> None:
        self.free = list(range(CARD_COUNT))

    def take(self, token: str) -> int:
        wanted = card_type(token)
        for index in self.free:
            if (VALUE[index], KIND[index]) == wanted:
                self.free.remove(index)
                return index
        raise ValueError(f"no card {token!r} left")


def parse_grid(text: str, cards: _Cards) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    tokens = text.replace("/", " ").split()
    assert len(tokens) == 9, text
    indices = tuple(cards.take(token.lstrip("~")) for token in tokens)
    face_up = tuple(not token.startswith("~") for token in tokens)
    return indices, face_up


def scenario(
    grids: Sequence[str],
    *,
    deck: Sequence[str] = (),
    discard: Sequence[str] | None = None,
    removed: Sequence[str] = (),
    held: str | None = None,
    held_from: str = FROM_DECK,
    phase: str = DRAW,
    turn: int = 0,
    peeked: Mapping[int, Sequence[tuple[int, int]]] | None = None,
    public_deck: Sequence[int] = (),
    rounds: int = 3,
    round_number: int = 1,
    round_scores: Sequence[Sequence[int]] = (),
    turns_taken: int = 0,
    final_lap: Sequence[int] = (),
    final_lap_trigger: int = NO_SEAT,
    rest_to: str = "deck",
    seed: int = 0,
) -> DontGoBoomState:
    """A state in the middle of a round. ``peeked`` maps a seat to the (owner, position)
    cards it has looked at; ``public_deck`` lists deck positions known to everyone."""
    cards = _Cards()
    parsed = [parse_grid(grid, cards) for grid in grids]
    held_index = cards.take(held) if held is not None else NO_CARD
    if discard is None:
        discard = () if phase == CHOOSE else ("5",)
    discard_indices = tuple(cards.take(token) for token in discard)
    removed_indices = tuple(cards.take(token) for token in removed)
    deck_indices = tuple(cards.take(token) for token in deck)
    if rest_to == "deck":
        deck_indices += tuple(cards.free)
    else:
        # Bombs are never discarded: the ones left over are out of the game.
        discard_indices += tuple(card for card in cards.free if KIND[card] != BOMB)
        removed_indices += tuple(card for card in cards.free if KIND[card] == BOMB)
    grid_indices = tuple(indices for indices, _ in parsed)
    knowledge = peeked or {}
    players = len(grids)
    return DontGoBoomState(
        players=players,
        rounds=rounds,
        round=round_number,
        rng=fast_state(seed),
        ids=FastRng(fast_state(seed + 1)).unique_tokens(CARD_COUNT),
        grids=grid_indices,
        face_up=tuple(face for _, face in parsed),
        peeked=tuple(
            tuple(sorted(grid_indices[owner][position] for owner, position in knowledge.get(seat, ())))
            for seat in range(players)
        ),
        deck=deck_indices,
        discard=discard_indices,
        removed=removed_indices,
        public_deck=tuple(sorted(deck_indices[position] for position in public_deck)),
        phase=phase,
        chosen=(NO_CARD,) * players if phase == CHOOSE else (),
        turn=NO_SEAT if phase == CHOOSE else turn,
        held=held_index,
        held_from=held_from if held is not None else "",
        turns_taken=turns_taken,
        final_lap_trigger=final_lap_trigger,
        final_lap=tuple(final_lap),
        round_scores=tuple(tuple(scores) for scores in round_scores),
        log=(),
    )


def act(state: DontGoBoomState, seat: int, kind: str, **fields: Any) -> DontGoBoomState:
    """Apply an action; ``source=`` stands for the ``from`` field of ``draw``."""
    if "source" in fields:
        fields["from"] = fields.pop("source")
    return GAME.apply(state, seat, {"type": kind, **fields})


def labels(state: DontGoBoomState, seat: int) -> list[str]:
    """A minefield as readable tokens, face-down cards with ``~``."""
    shown = []
    for card, up in zip(state.grids[seat], state.face_up[seat], strict=True):
        shown.append(("" if up else "~") + token(card))
    return shown


def token(card: int) -> str:
    kind = KIND[card]
    if kind == BOMB:
        return "B"
    return f"{VALUE[card]}" + {PEEK: "P", DRAW_AGAIN: "D"}.get(kind, "")


def tokens(cards: Sequence[int]) -> list[str]:
    return [token(card) for card in cards]


def last_event(state: DontGoBoomState) -> str:
    return state.log[-1].event
