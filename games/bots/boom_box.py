"""Bouldertroll Boom Box bots: an expected-gems heuristic (``basic``), its fast twin
(``rollout``) and ``evaluate``.

Both decide from a ``Table``: per box the seat holds or may pass, the chance it is a
Boom and the gems it holds otherwise. ``basic`` fills it from the view (the owner's
set minus what has been opened, ``games.engine.boom_box.facts``, nudged by the
owner's own claim); ``rollout`` from a sampled state, with the set's base chance
instead of counting, and the true content of the seat's own boxes (which it knows).

Rules of thumb, in gems relative to the opponents (the rank is what counts):
- open a box when its gems outweigh the chance of a Boom times the gems it would
  wipe out (at 0 gems a Boom only costs a box: open freely early on);
- pass a box back to its owner when the owner is likely to lose more than gain by
  having to open it; never hand out a likely gem for nothing;
- from the Start Line, send Booms to a player who has gems to lose, and gems to a
  player who has none (they would open anything anyway);
- claim "gem" on one's own boxes (a claim that tells nothing), and what one
  believes on others' boxes;
- choosing the box an opener loses: the one worth most to them (or least to
  oneself, when one opened one's own Boom).
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine import Game
from games.engine.boom_box import rules
from games.engine.boom_box.facts import box_facts
from games.engine.boom_box.state import BOOM, BOX_SET, BoomBoxState

# The set's base figures: 2 Booms in 6 boxes, 4/3 gems in a gem box on average.
_BASE_BOOM = BOX_SET.count(BOOM) / len(BOX_SET)
_BASE_GEMS = sum(BOX_SET) / (len(BOX_SET) - BOX_SET.count(BOOM))
# What losing an unopened box to a Boom costs, in standing (a chance at future gems).
_BOX_LOSS = 0.05
# How far the owner's own claim on a box moves the odds of a Boom: a mild signal,
# since owners may lie (and our own bots always say "gem").
_CLAIM_ODDS = 1.25
# A player's chance of opening a box that reaches them, by whether they have gems to lose.
_OPENS_WITH_NOTHING = 0.8
_OPENS_WITH_GEMS = 0.3


class Box:
    """One box as the deciding seat sees it."""

    __slots__ = ("boom", "gems", "id", "owner")

    def __init__(self, box_id: str, owner: int, boom: float, gems: float) -> None:
        self.id = box_id
        self.owner = owner
        self.boom = boom  # chance it is a Boom (0 or 1 when known)
        self.gems = gems  # gems it adds when not a Boom


class Table:
    """What one seat knows and owes now: the common input of ``basic`` and ``rollout``."""

    __slots__ = (
        "can_end",
        "gems",
        "has_opened",
        "has_passed",
        "holding",
        "must_open",
        "must_pass",
        "opened",
        "players",
        "seat",
        "unopened",
    )

    def __init__(
        self, seat: int, players: int, gems: list[float], holding: list[int], opened: list[int]
    ) -> None:
        self.seat = seat
        self.players = players
        self.gems = gems
        self.holding = holding  # unopened boxes held, per seat
        self.opened = opened  # boxes opened, per seat (the tie-break)
        self.unopened = sum(holding)
        self.has_passed = False
        self.has_opened = False
        self.must_pass = False
        self.must_open: str | None = None
        self.can_end = False


# -- values: how a change of gems moves my standing -----------------------------------


def standing(table: Table, gems: list[float]) -> float:
    """My share of opponents beaten, chance-like, if the gems stood as ``gems``.

    Each gap to an opponent goes through a logistic that narrows as the unopened
    boxes run out: early, a gem more is worth little (Booms will come); at the end,
    one gem decides the game. That is what keeps a leader from opening the last box.
    """
    width = 0.35 + 0.4 * math.sqrt(max(0, table.unopened - 1))
    seat = table.seat
    mine = gems[seat] + 0.01 * table.opened[seat]
    total = 0.0
    for other in range(table.players):
        if other != seat:
            gap = mine - gems[other] - 0.01 * table.opened[other]
            total += 1.0 / (1.0 + math.exp(-gap / width))
    return total / (table.players - 1)


def open_value(box: Box, opener: int, table: Table) -> float:
    """How ``opener`` opening ``box`` moves my standing: its gems, or a Boom wiping
    out the opener's (or, at 0 gems, costing them a box, ``_BOX_LOSS``)."""
    gems = table.gems
    before = gems[opener]
    gems[opener] = before + box.gems
    if_gem = standing(table, gems)
    gems[opener] = 0.0
    if_boom = standing(table, gems)
    gems[opener] = before
    if before == 0 and table.holding[opener] > 1:
        if_boom += _BOX_LOSS if opener != table.seat else -_BOX_LOSS
    return (1.0 - box.boom) * if_gem + box.boom * if_boom - standing(table, gems)


def _pass_value(box: Box, table: Table, own_line: bool) -> float:
    """How passing ``box`` to the next seat moves my standing (0: no change)."""
    receiver = (table.seat + 1) % table.players
    their_open = open_value(box, receiver, table)
    if box.owner == receiver:
        return their_open  # their own box: they must open it
    # They open it only if they like the odds: at 0 gems, nearly always.
    opens = _OPENS_WITH_NOTHING if table.gems[receiver] == 0 else _OPENS_WITH_GEMS
    value = opens * their_open
    if own_line and table.players == 2:
        # Two players: what they do not open comes back to me, and I must open it.
        value += (1.0 - opens) * open_value(box, table.seat, table)
    return value


def decide(table: Table, front: list[Box], line: list[Box]) -> dict[str, Any]:
    """The next action of a turn: open, pass or end it (``front``: boxes passed to me,
    ``line``: my Start Line, known content)."""
    seat = table.seat
    if table.must_open is not None:
        return {"type": "open", "box": table.must_open}

    best_open: Box | None = None
    best_open_value = 0.0
    if not table.has_opened:
        for box in front:
            value = open_value(box, seat, table)
            if best_open is None or value > best_open_value:
                best_open, best_open_value = box, value

    best_pass: Box | None = None
    best_pass_value = -math.inf
    if not table.has_passed:
        for box in front:
            # Passing it gives up opening it myself later (at least 0: I could keep it).
            value = _pass_value(box, table, own_line=False) - max(0.0, open_value(box, seat, table))
            if value > best_pass_value:
                best_pass, best_pass_value = box, value
        for box in line:
            value = _pass_value(box, table, own_line=True)
            if value > best_pass_value:
                best_pass, best_pass_value = box, value

    if best_open is not None and best_open_value > 0.0:
        return {"type": "open", "box": best_open.id}
    if best_pass is not None and (table.must_pass or best_pass_value > 0.0):
        return _pass(best_pass, table)
    if table.can_end:
        return {"type": "done"}
    # Something must be done: the lesser evil.
    if best_pass is not None and (best_open is None or best_pass_value >= best_open_value):
        return _pass(best_pass, table)
    assert best_open is not None
    return {"type": "open", "box": best_open.id}


def _pass(box: Box, table: Table) -> dict[str, Any]:
    # On my own boxes always "gem": a claim that gives away nothing of what they hold.
    # On others' boxes, what I believe.
    claim = "gem" if box.owner == table.seat or box.boom < 0.5 else "boom"
    return {"type": "pass", "box": box.id, "claim": claim}


def choose_loss(table: Table, opener: int, choices: list[Box]) -> dict[str, Any]:
    """The box the opener of my Boom loses: the one whose opening would do me most
    harm (least good, when I opened my own Boom and lose one of my boxes)."""

    if opener == table.seat:
        # Mine to lose: the box I would least like to open or pass on.
        def worth(box: Box) -> float:
            if box.owner == table.seat:
                return _pass_value(box, table, own_line=True)
            return max(open_value(box, opener, table), _pass_value(box, table, own_line=False))

        chosen = min(choices, key=worth)
    else:
        # Theirs: the box they would most like to open, passed to them (their own
        # Start Line boxes they only pass on, so those go last).
        chosen = min(choices, key=lambda box: (box.owner == opener, open_value(box, opener, table)))
    return {"type": "remove", "box": chosen.id}


def choose_set_aside(own: list[Box]) -> dict[str, Any]:
    """Set aside gem boxes, the richest first: the Start Line keeps its Booms to send out."""
    richest = max(own, key=lambda box: (box.gems * (1.0 - box.boom), box.id))
    return {"type": "set_aside", "box": richest.id}


# -- tables from a view and from a state ------------------------------------------------


def _with_claim(boom: float, claims: tuple[str, ...], claimed_by: tuple[int, ...], owner: int) -> float:
    """The owner's first claim on its box nudges the odds; others' claims are guesses."""
    if not claims or claimed_by[0] != owner or boom in (0.0, 1.0):
        return boom
    odds = boom / (1.0 - boom)
    odds = odds * _CLAIM_ODDS if claims[0] == "boom" else odds / _CLAIM_ODDS
    return odds / (1.0 + odds)


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The heuristic move, from the view alone."""
    facts = box_facts(view)
    boxes = {
        box_id: Box(
            box_id,
            fact.owner,
            _with_claim(fact.boom_chance, fact.claims, fact.claimed_by, fact.owner),
            fact.expected_gems,
        )
        for box_id, fact in facts.items()
    }
    if view["phase"] == "setup":
        return choose_set_aside([boxes[box_id] for box_id in view["choose_from"]])
    seats = view["seats"]
    table = Table(
        seat,
        view["players"],
        [float(item["gems"]) for item in seats],
        [item["boxes_held"] for item in seats],
        [item["boxes_opened"] for item in seats],
    )
    pending = view["pending_loss"]
    if pending is not None:
        return choose_loss(table, pending["opener"], [boxes[box_id] for box_id in pending["choices"]])
    turn = view["turn"]
    table.has_passed = turn["has_passed"]
    table.has_opened = turn["has_opened"]
    table.must_pass = turn["must_pass"]
    table.must_open = turn["must_open"]
    table.can_end = turn["can_end"]
    mine = seats[seat]
    front = [boxes[box_id] for box_id in mine["in_front"] if box_id != table.must_open]
    line = [boxes[box_id] for box_id in mine["start_line"]]
    return decide(table, front, line)


def _state_box(state: BoomBoxState, box_id: str, seat: int, by_id: dict[str, tuple[int, int]]) -> Box:
    owner, gems = by_id[box_id]
    if owner == seat:
        return Box(box_id, owner, 1.0 if gems == BOOM else 0.0, float(gems))
    return Box(box_id, owner, _BASE_BOOM, _BASE_GEMS)


def rollout(game: Game[Any], state: BoomBoxState, seat: int, rng: random.Random) -> dict[str, Any]:
    """The same rules of thumb on a sampled state, from what ``seat`` knows: its own
    boxes' contents; others' boxes at the set's base odds."""
    by_id = {box.id: (box.owner, box.gems) for box in state.boxes}
    if state.phase == "setup":
        own = [
            _state_box(state, box_id, seat, by_id)
            for box_id in rules.boxes_of(state, seat)
            if box_id not in state.set_aside[seat]
        ]
        return choose_set_aside(own)
    table = Table(
        seat,
        state.players,
        [float(gems) for gems in state.gems],
        [len(state.start_lines[s]) + len(state.fronts[s]) for s in range(state.players)],
        [len(stack) for stack in state.stacks],
    )
    if state.loss_chooser is not None:
        assert state.turn is not None
        choices = [_state_box(state, box_id, seat, by_id) for box_id in rules.losable_boxes(state)]
        return choose_loss(table, state.turn, choices)
    table.has_passed = state.has_passed
    table.has_opened = state.has_opened
    table.must_pass = rules.must_pass(state)
    table.must_open = rules.returned_box(state, seat)
    table.can_end = rules.can_end_turn(state)
    front = [
        _state_box(state, box_id, seat, by_id) for box_id in state.fronts[seat] if box_id != table.must_open
    ]
    line = [_state_box(state, box_id, seat, by_id) for box_id in state.start_lines[seat]]
    return decide(table, front, line)


def evaluate(game: Game[Any], state: BoomBoxState, seat: int) -> float:
    """The chance-like share of opponents ``seat`` ends ahead of, in [0, 1].

    Gems now, compared pairwise through a logistic that widens with the boxes still
    unopened (each can add gems or wipe them out); boxes opened break ties.
    """
    unopened = sum(map(len, state.start_lines)) + sum(map(len, state.fronts))
    width = 0.5 + 0.5 * math.sqrt(unopened)
    mine = state.gems[seat] + 0.01 * len(state.stacks[seat])
    shares = []
    for other in range(state.players):
        if other != seat:
            theirs = state.gems[other] + 0.01 * len(state.stacks[other])
            shares.append(1.0 / (1.0 + math.exp((theirs - mine) / width)))
    return sum(shares) / len(shares)
