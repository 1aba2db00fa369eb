"""The Ka-Blam! state, and the log entries that carry hidden cards.

The log holds the current round only (each round is dealt afresh from all 89
cards); finished rounds live on as ``RoundResult`` with every hand shown. The
entries with a private part (the deal, a draw) are built here only, so that play
and the sampler build them alike and a sampled log reads like the real one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.ka_blam.cards import card_json, card_text, spoken, words_json
from games.engine.log import LogEntry
from games.engine.rng import RngState
from games.engine.word_cards.facts import dealt_entry, drew_entry, json_object

HAND_SIZE = 5
NO_PLAY = "no_play"  # a draw because the player could not play
PICK_UP = "pick_up_2"  # a draw forced by a Pick Up 2

# Why a round ended.
EMPTY_HAND = "empty_hand"
EXPLOSION = "explosion"
ALL_PASSED = "all_passed"


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    dealer: int
    winner: int
    reason: str  # EMPTY_HAND, EXPLOSION or ALL_PASSED
    points: int  # what the winner scored
    hands: tuple[tuple[int, ...], ...]  # every hand at the end, shown when the round is scored
    exploded: int  # the seat that drew the Exploding card, -1 if none


@dataclass(frozen=True, slots=True)
class KaBlamState:
    players: int
    length: str  # "long" or "short"
    target: int  # the points that end a long game
    rng: RngState
    ids: tuple[str, ...]  # opaque id per card
    scores: tuple[int, ...]
    round: int  # 1, 2, ...
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # sorted by card
    pile: tuple[int, ...]  # the pick-up pile, top first
    discard: tuple[int, ...]  # top first
    colour: int  # the colour to follow: the top card's, or the one named with a Wild
    exploded: int  # the seat out of this round, -1 if none
    turn: int  # the seat to play; -1 once the game is over
    direction: int  # +1: to seat + 1; -1: the other way
    passes: int  # passes in a row (nothing to play, nothing to draw)
    log: tuple[LogEntry, ...]  # this round's events
    rounds: tuple[RoundResult, ...]  # the finished rounds


def deal_entry(
    round_number: int, dealer: int, hands: Sequence[Sequence[int]], ids: tuple[str, ...]
) -> LogEntry:
    return dealt_entry(
        dealer,
        f"Round {round_number}: {{s{dealer}}} dealt {HAND_SIZE} cards to each player.",
        json_object(round=str(round_number), hand_size=str(HAND_SIZE), words="[]"),
        hands,
        lambda card: card_json(card, ids),
        spoken,
    )


def draw_entry(seat: int, card: int, ids: tuple[str, ...], reason: str, pile_size: int) -> LogEntry:
    return drew_entry(
        seat,
        '{"reason":"' + reason + '","pile_size":' + str(pile_size) + ',"words":[]}',
        card_text(card),
        card_json(card, ids),
        words_json(card),
    )
