"""Go Fox! bots: ask for what the next player is known (or likely) to hold; lay every pair.

A turn's choices are the number to ask the next player for, and, after a GO FOX!,
whether to lay a pair (always: a pair laid is a point no one can take back; a pair
kept in hand loses a card to the player before us the moment they ask for it).

Which number to ask for: the one the next player most likely holds. The log
tells a lot, and everyone can read it:

- a player who asked for a number and heard GO FOX! still holds that number,
  until they lay a pair of it or give one away;
- a player who said GO FOX! held none of that number then; only the cards they
  drew since could have brought one;
- about everyone else we count: of the six cards of a number, those in our hand
  and on the table are out of reach, and the rest are spread at random over the
  other hands and the pick-up pile.

With two players, basic also keeps a pair in hand (a sure point the next time an
ask fails) rather than asking for its number while it holds another to ask for.

``basic`` reads all that from the view. ``rollout``, used inside search playouts on
a sampled state, reads only the end of the state's log, about a round and a half
(``RECENT_ENTRIES_PER_PLAYER``): knowledge that a player holds a number is
used by the next ask they hear, so older entries rarely matter, and reading the
whole log on every playout action would cost most of the playouts. Without it the
playouts never punish an ask that failed (the player before us reads it and asks
us for that number), so search preferred exactly those asks. It does not weigh
chances; past the log it asks for the number with the most cards still in reach.
``evaluate`` stands in for the rest of the game after ``ROLLOUT_DEPTH`` playout
actions (a few rounds): a whole playout is about a hundred actions whose luck drowns
the few turns an ask changes, so played to the end, search could not tell asks
apart in its second of playouts.
"""

from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from typing import Any

from games.engine.base import Game
from games.engine.go_fox.state import NUMBER_OF, GoFoxState
from games.engine.word_cards import COLOUR_COUNT, NUMBERS

_UNKNOWN, _HOLDS, _NONE = 0, 1, 2
# How far back ``rollout`` reads the log, per player at the table: a turn writes
# three or four entries (ask, GO FOX! or give and pair, perhaps a pair, a draw).
RECENT_ENTRIES_PER_PLAYER = 6
# Playout actions before ``evaluate`` (two to three turns each): about three rounds
# at two players, a round and a half at four.
ROLLOUT_DEPTH = 16
# ``evaluate``'s worth of a single card in hand, in pairs. Measured: in rollout
# self-play (400 games each at 2 and 4 players), every single held after the 30th
# action brought 0.37 more pairs by the end than a hand without it.
SINGLE_WORTH = 0.37


class _Knowledge:
    """What the public log says about one seat's hand, number by number."""

    def __init__(self) -> None:
        self.status = dict.fromkeys(NUMBERS, _UNKNOWN)
        self.draws_since = dict.fromkeys(NUMBERS, 0)  # cards drawn since a GO FOX! on the number


def read_log(log: list[dict[str, Any]], players: int) -> list[_Knowledge]:
    """Per seat, what the public events of the log tell about their hand now."""
    known = [_Knowledge() for _ in range(players)]
    for item in log:
        event, actor = item["event"], item["seat"]
        if event == "go_fox":
            said, asker, number = known[actor], known[item["asker"]], item["number"]
            said.status[number] = _NONE
            said.draws_since[number] = 0
            asker.status[number] = _HOLDS
        elif event == "give":
            # The giver may hold another of that number, the asker laid theirs in the
            # pair: about both we know no more than before the ask.
            number = item["card"]["number"]
            known[actor].status[number] = _UNKNOWN
            known[item["to"]].status[number] = _UNKNOWN
        elif event == "pair":
            if item["after"] != "give" and known[actor].status[item["number"]] == _HOLDS:
                known[actor].status[item["number"]] = _UNKNOWN  # they may have held a third
        elif event == "draw":
            draws = known[actor].draws_since
            for number in NUMBERS:
                draws[number] += 1
    return known


def holding_chance(
    knowledge: _Knowledge, number: int, hand_size: int, out_of_reach: int, unseen: int
) -> float:
    """The chance that a seat holds at least one card of ``number``.

    ``out_of_reach``: the cards of that number in our hand or laid on the table;
    ``unseen``: every card we cannot see (the other hands and the pick-up pile).
    """
    status = knowledge.status[number]
    if status == _HOLDS:
        return 1.0
    if hand_size == 0 or unseen <= 0:
        return 0.0
    free = max(0, COLOUR_COUNT - out_of_reach)
    draws = hand_size if status == _UNKNOWN else min(hand_size, knowledge.draws_since[number])
    # Drawing ``draws`` cards from the unseen ones, none of them of this number.
    none = 1.0
    for taken in range(draws):
        if unseen - taken <= 0:
            break
        none *= max(0.0, (unseen - free - taken) / (unseen - taken))
    return 1.0 - none


def choose(
    hand_numbers: list[int],
    phase: str,
    chance: dict[int, float],
    keep_chance: dict[int, float],
    players: int,
) -> dict[str, Any]:
    """The action for a hand (its cards' numbers), given per number the chance that
    the next player holds it (``chance``) and that the player before us does
    (``keep_chance``: they would take one of a pair we kept), with ``players`` at the
    table."""
    counts = {number: hand_numbers.count(number) for number in set(hand_numbers)}
    if phase == "ask":
        if not counts:
            return {"type": "draw"}
        askable = list(counts)
        # Two players: keep a pair in hand rather than ask for it, while there is a
        # number we hold one (or three) of to ask for. A turn scores at most one pair,
        # and a pair in hand makes a failed ask score too (it is laid after the GO
        # FOX!); asking for its number spends it even when the ask succeeds. With more
        # players this costs more than it gives, likely because a failed ask shows a
        # single to the player before us, who asks us next; with two, the one who
        # learns it has just said they hold none. Measured in docs/games/go-fox.md.
        if players == 2:
            askable = [held for held in counts if counts[held] != 2] or askable
        # Most likely to be held; on a tie, a number we hold one of (a pair we hold
        # can be laid anyway if the ask fails), then the higher number (any order would do).
        number = max(askable, key=lambda held: (chance.get(held, 0.0), -counts[held], held))
        return {"type": "ask", "number": number}
    pairs = [number for number, count in counts.items() if count >= 2]
    if not pairs:
        return {"type": "draw"}
    # The pair most at risk of being broken by the player before us goes down first.
    return {"type": "lay", "number": max(pairs, key=lambda held: (keep_chance.get(held, 0.0), held))}


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    players: int = view["players"]
    hand_numbers = [card["number"] for card in view["hand"]]
    out_of_reach = dict.fromkeys(NUMBERS, 0)
    for number in hand_numbers:
        out_of_reach[number] += 1
    for table in view["pairs"]:
        for pair in table["pairs"]:
            out_of_reach[pair["number"]] += 2
    sizes: list[int] = view["hand_sizes"]
    unseen = view["pile_size"] + sum(size for owner, size in enumerate(sizes) if owner != seat)
    known = read_log(view["log"], players)
    asked, before = (seat + 1) % players, (seat - 1) % players

    def chances(owner: int) -> dict[int, float]:
        return {
            number: holding_chance(known[owner], number, sizes[owner], out_of_reach[number], unseen)
            for number in set(hand_numbers)
        }

    return choose(hand_numbers, view["phase"], chances(asked), chances(before), players)


def rollout(game: Game[Any], state: GoFoxState, seat: int, rng: random.Random) -> dict[str, Any]:
    hand_numbers = [NUMBER_OF[card] for card in state.hands[seat]]
    if state.phase == "ask" and hand_numbers:
        held = set(hand_numbers)
        asked = (seat + 1) % state.players
        known = _recently_shown(state, asked, held)
        if known:
            return {"type": "ask", "number": max(known)}
        # The number with the most cards we cannot see; randomly among equals.
        out_of_reach = dict.fromkeys(held, 0)
        for number in hand_numbers:
            out_of_reach[number] += 1
        for cards in state.pairs:
            for card in cards:
                if NUMBER_OF[card] in out_of_reach:
                    out_of_reach[NUMBER_OF[card]] += 1
        fewest = min(out_of_reach.values())
        return {"type": "ask", "number": rng.choice([n for n, c in out_of_reach.items() if c == fewest])}
    return choose(hand_numbers, state.phase, {}, {}, state.players)


def _recently_shown(state: GoFoxState, owner: int, numbers: set[int]) -> list[int]:
    """Of ``numbers``, those the recent log shows ``owner`` still holds: they asked for
    it and heard GO FOX!, and have not laid or given one of it since."""
    shown: list[int] = []
    gone: set[int] = set()
    log = state.log
    for index in range(len(log) - 1, max(-1, len(log) - 1 - RECENT_ENTRIES_PER_PLAYER * state.players), -1):
        item = log[index]
        event = item.event
        if event == "go_fox":
            facts = _facts(item.public)
            number = facts["number"]
            if facts["asker"] == owner and number in numbers and number not in gone:
                shown.append(number)
        elif item.seat == owner and event in ("pair", "give"):
            facts = _facts(item.public)
            gone.add(facts["number"] if event == "pair" else facts["card"]["number"])
    return shown


@lru_cache(maxsize=4096)
def _facts(public: str) -> dict[str, Any]:
    """An entry's public facts, parsed once: states share their log entries."""
    facts: dict[str, Any] = json.loads(public)
    return facts


def evaluate(game: Game[Any], state: GoFoxState, seat: int) -> float:
    """A rough chance that ``seat`` finishes first: pairs laid, pairs in hand (laid
    at the next chance) and singles at ``SINGLE_WORTH``; each gap to an opponent goes
    through a logistic that widens with the cards still to be drawn."""
    projected = []
    for owner in range(state.players):
        counts: dict[int, int] = {}
        for card in state.hands[owner]:
            number = NUMBER_OF[card]
            counts[number] = counts.get(number, 0) + 1
        held_pairs = sum(count // 2 for count in counts.values())
        singles = sum(count % 2 for count in counts.values())
        projected.append(len(state.pairs[owner]) / 2 + held_pairs + SINGLE_WORTH * singles)
    # Set by hand, not fitted: half a pair of doubt now, growing with the square root
    # of the draws still to come (each may pair a single).
    width = 0.5 + 0.25 * math.sqrt(len(state.pile))
    mine = projected[seat]
    shares = [
        1.0 / (1.0 + math.exp((projected[owner] - mine) / width))
        for owner in range(state.players)
        if owner != seat
    ]
    return sum(shares) / len(shares)
