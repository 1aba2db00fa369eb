"""Don't Go Boom bots: a golf heuristic (``basic``), its fast twin (``rollout``), ``evaluate``.

One decision core serves both. ``basic`` builds what a seat knows from its view
(face-up cards, its own peeks, the discard pile, the unseen cards' average value);
``rollout`` builds the same from a sampled state, reading only what that seat may
know too, with constants in place of the counting that a view allows.

The rules of thumb, all expressed as an expected minefield cost (lower is better):
- a known card costs its value, an unknown one the average of the unseen cards;
  a line of three equal known numbers costs 0 (bombs never defuse);
- two equal numbers in a line are worth a little: the third may be unknown and
  already equal, or be replaced by one later (``_PAIR_HOPE``);
- keep a card where it lowers the cost most, else discard it and flip;
- take the discard only when it beats the average gain of a blind deck draw;
- a Swap gives a bad card to an opponent for one of their good face-up cards, or
  rearranges the own minefield to complete a line; a Peek is worth a little
  information; a Draw Again is a fresh chance when the 3 itself is not worth keeping;
- turning up the last card ends the round: do it when ahead, avoid it when behind.

The expert starts from ``expert_prior``: the same rules, except that the draw weighs
the deck by its expectation. Basic prices a blind deck draw at a constant
(``_DECK_DRAW_GAIN``); the expert values every card the deck could give (each unseen
number, as the count of what the seat has seen allows, and a Big Bad Bomb), handled
as basic would handle it, and takes the discard only when keeping it is worth more.
The search's tree samples that chance node (a thousand playouts spread over fourteen
card values and their answers); here it is computed whole. In self-play this prior
alone beats basic 53.4% (standard error 1.1%, 2,000 games on deals 1000-1999).
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine import Game
from games.engine.dont_go_boom.cards import (
    ACTION_KINDS,
    BOMB,
    BOMB_VALUE,
    CARD_COUNT,
    COPIES_PER_NUMBER,
    DRAW_AGAIN,
    GRID_SIZE,
    KIND,
    LINES,
    NUMBER,
    PEEK,
    SWAP,
    TOTAL_VALUE,
    VALUE,
)
from games.engine.dont_go_boom.state import (
    CHOOSE,
    DECIDE,
    DRAW,
    FLIP,
    FROM_DECK,
    NO_SEAT,
    OVER,
    DontGoBoomState,
)

UNKNOWN = -1  # a value nobody in question knows
# The average card outside the minefields' known cards, early in a round; rollouts
# use it instead of counting (the true figure drifts little over a round).
_AVERAGE_CARD = TOTAL_VALUE / CARD_COUNT
# The chance an unknown card is one given number (eight copies of 108 cards).
_SAME_NUMBER_CHANCE = COPIES_PER_NUMBER / CARD_COUNT
# How much of a pair's line value (two equal numbers) counts as hope of a third.
_PAIR_HOPE = 0.15
# What a blind deck draw is worth on average: the discard must beat it to be taken.
# Tuned in self-play: 4 beat 1.5 (about 60% of 1,000 games); 2.5 and 7 did worse.
_DECK_DRAW_GAIN = 4.0
# What knowing one of one's own face-down cards is worth (a Peek).
_PEEK_GAIN = 0.8
# What a fresh draw is worth over discarding a Draw Again and flipping.
_DRAW_AGAIN_GAIN = 1.5
# Ending the round: how much of the score lead counts, and what one more turn
# typically gains an opponent who is still owed one.
_END_WEIGHT = 0.5
_LAST_TURN_GAIN = 2.0
# A keep must beat discarding by this much: discarding keeps a card face down,
# flipping an unknown one, which is worth as much on average but tells more.
_KEEP_MARGIN = 0.3
# ``evaluate``'s logistic width (points): a base, and what open face-down cards
# (by square root) and rounds still to come add to the uncertainty.
_EVAL_WIDTH = 2.0
_EVAL_WIDTH_PER_CARD = 1.0
_EVAL_WIDTH_PER_ROUND = 6.0
# The expert's draw: keeping the discard must beat the deck's expected value by this
# much, in the same cost units. Tuned in self-play against basic: margins 0 to 2 all
# won 53-55% (1,000-2,000 games each); 1 chosen.
_EXACT_DRAW_MARGIN = 1.0
# Per number that carries an action, the action and the share of its copies that
# carry it, read from the engine's card table (five 7s Peek, five 3s Draw Again, all
# eight 10s Swap).
_ACTION_SHARE = {
    value: (
        kind,
        sum(1 for v, k in zip(VALUE, KIND, strict=True) if (v, k) == (value, kind)) / COPIES_PER_NUMBER,
    )
    for value, kind in zip(VALUE, KIND, strict=True)
    if kind in ACTION_KINDS
}
CENTRE = 4  # the first card turned up: the centre sits on four lines


class Knowledge:
    """What one seat knows of the round: the common input of ``basic`` and ``rollout``."""

    __slots__ = (
        "average",
        "discard_top",
        "down",
        "final_lap",
        "held",
        "held_from",
        "held_kind",
        "mine",
        "others",
        "phase",
        "players",
        "same_chance",
        "seat",
    )

    def __init__(self, seat: int, players: int, phase: str) -> None:
        self.seat = seat
        self.players = players
        self.phase = phase
        self.mine: list[int] = []  # known value per position, UNKNOWN when not known
        self.down: list[bool] = []  # face down per position
        # (seat, known values, face down) per opponent
        self.others: list[tuple[int, list[int], list[bool]]] = []
        self.discard_top = UNKNOWN
        self.held = UNKNOWN
        self.held_kind = ""
        self.held_from = ""
        self.final_lap = False
        self.average = _AVERAGE_CARD
        # per value 1..13, the chance an unknown card is that number
        self.same_chance: list[float] = [_SAME_NUMBER_CHANCE] * 14


# -- the cost of a minefield ---------------------------------------------------------


def grid_cost(values: list[int], know: Knowledge) -> float:
    """The expected score of a minefield (see the module docstring), lower is better."""
    average = know.average
    defused = [False] * GRID_SIZE
    hope = 0.0
    for a, b, c in LINES:
        va, vb, vc = values[a], values[b], values[c]
        if va == vb == vc:
            if va != UNKNOWN and va != BOMB_VALUE:
                defused[a] = defused[b] = defused[c] = True
            continue
        # Two equal known numbers: the third may already be that number, or become it.
        if va == vb:
            pair, third = va, vc
        elif va == vc:
            pair, third = va, vb
        elif vb == vc:
            pair, third = vb, va
        else:
            continue
        if pair in (UNKNOWN, BOMB_VALUE):
            continue
        chance = know.same_chance[pair] if third == UNKNOWN else 0.0
        hope += chance * (2 * pair + average) + _PAIR_HOPE * 2 * pair
    cost = 0.0
    for position in range(GRID_SIZE):
        if not defused[position]:
            value = values[position]
            cost += average if value == UNKNOWN else value
    return cost - hope


def _ending_adjustment(cost_after: float, know: Knowledge) -> float:
    """Value of ending the round now with a minefield worth ``cost_after`` (all face up).

    Everyone still face down gets one more turn; the round freezes at about their
    current estimate minus that turn's gain. Ahead, that is good; behind, bad.
    """
    best_other = min(grid_cost(values, know) for _, values, _ in know.others) - _LAST_TURN_GAIN
    return _END_WEIGHT * max(-10.0, min(5.0, best_other - cost_after))


def _value_after(values: list[int], face_down_left: int, know: Knowledge) -> float:
    """How good a minefield is to its owner (higher is better), ending the round included."""
    cost = grid_cost(values, know)
    value = -cost
    if face_down_left == 0 and not know.final_lap:
        value += _ending_adjustment(cost, know)
    return value


# -- decisions ----------------------------------------------------------------------


def decide(know: Knowledge, thorough: bool, exact_draw: bool = False) -> dict[str, Any]:
    """The action for ``know.seat``; ``thorough`` weighs every place and Swap (else
    only the likely ones, for speed); ``exact_draw`` weighs the deck by its expectation
    (the expert's prior) instead of basic's constant."""
    phase = know.phase
    if phase == CHOOSE:
        return {"type": "choose", "position": CENTRE}
    if phase == DRAW:
        wants = _wants_discard(know, thorough, exact_draw)
        return {"type": "draw", "from": "discard" if wants else "deck"}
    if phase == FLIP:
        return {"type": "flip", "position": _flip_position(know)}
    assert phase == DECIDE
    return _decide_held(know, thorough)[1]


def _best_keep(card: int, know: Knowledge, thorough: bool) -> tuple[float, int]:
    """(value, position) of the best place to keep ``card``."""
    mine, down = know.mine, know.down
    face_down = sum(down)
    best_value, best_position = -math.inf, 0
    for position in range(GRID_SIZE) if thorough else _keep_candidates(card, mine):
        old = mine[position]
        mine[position] = card
        value = _value_after(mine, face_down - down[position], know)
        mine[position] = old
        if value > best_value:
            best_value, best_position = value, position
    return best_value, best_position


def _keep_candidates(card: int, mine: list[int]) -> list[int]:
    """The places worth weighing for ``card`` in a fast decision: the highest known
    card, every place on a line with an equal card, and one unknown place."""
    candidates = [max(range(GRID_SIZE), key=mine.__getitem__)]
    for line in LINES:
        if card in (mine[line[0]], mine[line[1]], mine[line[2]]):
            candidates.extend(position for position in line if mine[position] != card)
    if UNKNOWN in mine:
        candidates.append(mine.index(UNKNOWN))
    return candidates


def _wants_discard(know: Knowledge, thorough: bool, exact_draw: bool) -> bool:
    """Whether keeping the discard beats a deck draw: valued whole (``exact_draw``), or
    at basic's constant gain."""
    if know.discard_top == UNKNOWN or know.discard_top == BOMB_VALUE:
        return False
    keep_value, _ = _best_keep(know.discard_top, know, thorough)
    if exact_draw:
        return keep_value > deck_draw_value(know) + _EXACT_DRAW_MARGIN
    return keep_value > -grid_cost(know.mine, know) + _DECK_DRAW_GAIN


def deck_draw_value(know: Knowledge) -> float:
    """The expected value (``_value_after``'s units) of drawing from the deck: each
    card it may give, by its chance among the cards this seat has not seen, handled
    the way ``_decide_held`` would handle it."""
    number_chances = know.same_chance[1:]
    bomb_chance = max(0.0, 1.0 - sum(number_chances))
    total = bomb_chance * _held_value(know, BOMB_VALUE, BOMB, FROM_DECK) if bomb_chance else 0.0
    for value, chance in enumerate(number_chances, start=1):
        if chance <= 0.0:
            continue
        action, share = _ACTION_SHARE.get(value, (NUMBER, 0.0))
        expected = share * _held_value(know, value, action, FROM_DECK) if share else 0.0
        if share < 1.0:
            expected += (1.0 - share) * _held_value(know, value, NUMBER, FROM_DECK)
        total += chance * expected
    return total / (bomb_chance + sum(number_chances))


def _held_value(know: Knowledge, card: int, kind: str, source: str) -> float:
    """The value of the best answer to holding ``card`` (of ``kind``, drawn from ``source``)."""
    saved = know.held, know.held_kind, know.held_from
    know.held, know.held_kind, know.held_from = card, kind, source
    try:
        return _decide_held(know, thorough=True)[0]
    finally:
        know.held, know.held_kind, know.held_from = saved


def _flip_position(know: Knowledge) -> int:
    """A face-down card to turn up: a known low one (no risk), else an unknown one."""
    candidates = [position for position in range(GRID_SIZE) if know.down[position]]
    known_low = [p for p in candidates if know.mine[p] != UNKNOWN and know.mine[p] <= know.average]
    if known_low:
        return min(known_low, key=lambda p: know.mine[p])
    unknown = [p for p in candidates if know.mine[p] == UNKNOWN]
    return unknown[0] if unknown else candidates[0]


def _decide_held(know: Knowledge, thorough: bool) -> tuple[float, dict[str, Any]]:
    """(value, action): the best answer to the held card."""
    card = know.held
    best_value, best_position = _best_keep(card, know, thorough)
    action: dict[str, Any] = {"type": "keep", "position": best_position}
    if know.held_from != FROM_DECK or know.held_kind == BOMB:
        return best_value, action  # the card must be kept

    mine, down = know.mine, know.down
    face_down = sum(down)
    # Discarding keeps the minefield as it is, then flips one face-down card.
    standing = _value_after(mine, max(0, face_down - 1), know)
    best_value -= _KEEP_MARGIN
    if standing > best_value:
        best_value, action = standing, {"type": "discard"}

    kind = know.held_kind
    if kind == PEEK and face_down:
        value = _value_after(mine, face_down, know) + _PEEK_GAIN
        unknown = [p for p in range(GRID_SIZE) if down[p] and mine[p] == UNKNOWN]
        if unknown and value > best_value:
            best_value, action = value, {"type": "peek", "position": unknown[0]}
    elif kind == DRAW_AGAIN:
        value = _value_after(mine, face_down, know) + _DRAW_AGAIN_GAIN
        if value > best_value:
            best_value, action = value, {"type": "draw_again"}
    elif kind == SWAP:
        value, swap = _best_swap(know, thorough)
        if swap is not None and value > best_value:
            best_value, action = value, swap
    return best_value, action


def _best_swap(know: Knowledge, thorough: bool) -> tuple[float, dict[str, Any] | None]:
    """The best Swap: my gain plus, shared over the opponents, their loss."""
    mine, down = know.mine, know.down
    face_down = sum(down)
    best_value, best = -math.inf, None
    # With another player: I get their card (keeping its face state), they get mine face up.
    share = 1.0 / (know.players - 1)
    my_positions = range(GRID_SIZE) if thorough else _worst_positions(know)
    for seat, values, their_down in know.others:
        their_cost = grid_cost(values, know)
        if thorough:
            their_positions: list[int] | range = range(GRID_SIZE)
        else:
            # Only their lowest face-up card: the one most worth taking.
            shown = [p for p in range(GRID_SIZE) if not their_down[p]]
            their_positions = [min(shown, key=values.__getitem__)] if shown else []
        for position in my_positions:
            mine_card = mine[position]
            # The given card turns face up; an unknown card of mine stays unknown to me.
            for target in their_positions:
                theirs = values[target]
                mine[position], values[target] = theirs, mine_card
                left = face_down - down[position] + their_down[target]
                gain = _value_after(mine, left, know) + share * (grid_cost(values, know) - their_cost)
                mine[position], values[target] = mine_card, theirs
                if gain > best_value:
                    best_value = gain
                    best = {
                        "type": "swap",
                        "position": position,
                        "target_seat": seat,
                        "target_position": target,
                    }
    if thorough:
        # Two of my own cards trade places (faces unchanged): useful to complete a line.
        for first in range(GRID_SIZE):
            for second in range(first + 1, GRID_SIZE):
                mine[first], mine[second] = mine[second], mine[first]
                gain = -grid_cost(mine, know)
                mine[first], mine[second] = mine[second], mine[first]
                if gain > best_value:
                    best_value = gain
                    best = {
                        "type": "swap",
                        "position": first,
                        "target_seat": know.seat,
                        "target_position": second,
                    }
    return best_value, best


def _worst_positions(know: Knowledge) -> list[int]:
    """The (at most two) positions whose cards cost most: the cards worth giving away."""

    def cost(position: int) -> float:
        value = know.mine[position]
        return know.average if value == UNKNOWN else value

    ranked = sorted(range(GRID_SIZE), key=cost, reverse=True)
    return ranked[:2]


# -- knowledge from a view and from a state --------------------------------------------


def knowledge_from_view(view: dict[str, Any], seat: int) -> Knowledge:
    know = Knowledge(seat, view["players"], view["phase"])
    minefields = view["minefields"]
    seen: dict[str, int] = {}  # card id -> value, every card whose value this seat knows
    for minefield in minefields:
        values: list[int] = []
        down: list[bool] = []
        for card in minefield["cards"]:
            if card["face_up"]:
                values.append(card["value"])
                seen[card["id"]] = card["value"]
            elif card["peeked"] is not None:
                values.append(card["peeked"]["value"])
                seen[card["id"]] = card["peeked"]["value"]
            else:
                values.append(UNKNOWN)
            down.append(not card["face_up"])
        if minefield["seat"] == seat:
            know.mine, know.down = values, down
        else:
            know.others.append((minefield["seat"], values, down))
    for card in (*view["discard"], *view["removed"], *view["deck"]["known_cards"]):
        seen[card["id"]] = card["value"]
    held = view["held"]
    if held is not None and held["card"] is not None:
        seen[held["card"]["id"]] = held["card"]["value"]
        if held["seat"] == seat:
            know.held = held["card"]["value"]
            know.held_kind = held["card"]["kind"]
            know.held_from = held["from"]
    if view["discard"]:
        know.discard_top = view["discard"][0]["value"]
    know.final_lap = view["final_lap"]["active"]

    # Count what is left unseen: its average value and, per number, its share.
    unseen_count = CARD_COUNT - len(seen)
    if unseen_count > 0:
        know.average = (TOTAL_VALUE - sum(seen.values())) / unseen_count
        left = [COPIES_PER_NUMBER] * 14
        for value in seen.values():
            if value != BOMB_VALUE:
                left[value] -= 1
        know.same_chance = [count / unseen_count for count in left]
    return know


def knowledge_from_state(state: DontGoBoomState, seat: int) -> Knowledge:
    """What ``seat`` knows in a full state, cheaply: unseen cards take fixed averages."""
    know = Knowledge(seat, state.players, state.phase)
    peeked = state.peeked[seat]
    for owner in range(state.players):
        grid, face_up = state.grids[owner], state.face_up[owner]
        values = [
            VALUE[card] if face_up[position] or card in peeked else UNKNOWN
            for position, card in enumerate(grid)
        ]
        down = [not up for up in face_up]
        if owner == seat:
            know.mine, know.down = values, down
        else:
            know.others.append((owner, values, down))
    if state.discard:
        know.discard_top = VALUE[state.discard[0]]
    if state.turn == seat and state.phase == DECIDE:
        know.held = VALUE[state.held]
        know.held_kind = KIND[state.held]
        know.held_from = state.held_from
    know.final_lap = state.final_lap_trigger != NO_SEAT
    return know


# -- the bot interface ------------------------------------------------------------------


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The heuristic move, from the view alone (every choice it makes is legal in any
    state the view allows, so it never needs a sample)."""
    return decide(knowledge_from_view(view, seat), thorough=True)


def expert_prior(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The expert's first choice (the search's root prior): basic's move, except that
    the draw weighs the deck by its expectation (see the module docstring)."""
    return decide(knowledge_from_view(view, seat), thorough=True, exact_draw=True)


def rollout(game: Game[Any], state: DontGoBoomState, seat: int, rng: random.Random) -> dict[str, Any]:
    """The same heuristic on a sampled state, weighing only the likely places and
    Swaps: fast (tens of microseconds)."""
    return decide(knowledge_from_state(state, seat), thorough=False)


def evaluate(game: Game[Any], state: DontGoBoomState, seat: int) -> float:
    """The chance-like share of opponents ``seat`` ends ahead of, in [0, 1].

    Each total is the finished rounds plus the current minefield as its owner sees
    it (``grid_cost``: face-up and peeked cards, lines, pairs; other face-down cards
    at the average card). The gap to each opponent goes through a logistic whose
    width grows with what is still open: face-down cards now and rounds to come.
    """
    if state.phase == OVER:
        current = [0.0] * state.players
        face_down = 0
    elif state.phase == CHOOSE:
        current = [9 * _AVERAGE_CARD] * state.players
        face_down = 9 * state.players
    else:
        know = Knowledge(seat, state.players, state.phase)
        current = []
        face_down = 0
        for owner in range(state.players):
            grid, face_up = state.grids[owner], state.face_up[owner]
            peeked = state.peeked[owner]
            values = [
                VALUE[card] if face_up[position] or card in peeked else UNKNOWN
                for position, card in enumerate(grid)
            ]
            face_down += GRID_SIZE - sum(face_up)
            current.append(grid_cost(values, know))
    totals = [
        current[owner] + sum(scores[owner] for scores in state.round_scores) for owner in range(state.players)
    ]
    rounds_to_come = state.rounds - state.round
    width = (
        _EVAL_WIDTH
        + _EVAL_WIDTH_PER_CARD * math.sqrt(face_down)
        + _EVAL_WIDTH_PER_ROUND * math.sqrt(rounds_to_come)
    )
    mine = totals[seat]
    shares = [
        1.0 / (1.0 + math.exp((mine - totals[owner]) / width))
        for owner in range(state.players)
        if owner != seat
    ]
    return sum(shares) / len(shares)
