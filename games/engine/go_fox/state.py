"""The Go Fox! state and the log entries that carry hidden cards.

The entries that hold a private part (the deal, a draw) are built here only, so
that play and the sampler build them the same way: a sampled state's log then
reads exactly like the real one to the viewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.log import LogEntry
from games.engine.rng import RngState
from games.engine.word_cards import WORDS, word_card_json, word_json
from games.engine.word_cards.facts import dealt_entry, drew_entry, json_object

HAND_SIZE = 5


@dataclass(frozen=True, slots=True)
class GoFoxState:
    players: int
    rng: RngState
    ids: tuple[str, ...]  # opaque id per card index
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted by number then colour
    pile: tuple[int, ...]  # the pick-up pile, top first
    pairs: tuple[tuple[int, ...], ...]  # per seat, the cards laid face up, two by two
    turn: int  # the seat whose turn it is (-1 once the game is over)
    # "ask": the player asks (or draws, with an empty hand); "go_fox": the ask failed,
    # the player may lay a pair they hold, then draws; "over".
    phase: str
    log: tuple[LogEntry, ...]


# Hands are kept by number, then colour, so that pairs sit side by side.
_HAND_ORDER = tuple((card.number - 1) * len(WORDS.colours) + card.colour_index for card in WORDS.cards)
hand_order = _HAND_ORDER.__getitem__
NUMBER_OF = tuple(card.number for card in WORDS.cards)


def deal_entry(hands: Sequence[Sequence[int]], ids: Sequence[str]) -> LogEntry:
    return dealt_entry(
        0,
        f"{{s0}} dealt {HAND_SIZE} cards to each player.",
        json_object(hand_size=str(HAND_SIZE), words="[]"),
        hands,
        lambda card: word_card_json(WORDS.cards[card], ids[card]),
        lambda card: WORDS.cards[card].word,
    )


def draw_entry(seat: int, card: int, ids: Sequence[str], pile_size: int) -> LogEntry:
    face = WORDS.cards[card]
    return drew_entry(
        seat,
        '{"pile_size":' + str(pile_size) + ',"words":[]}',
        face.label,
        word_card_json(face, ids[card]),
        word_json(face),
    )
