"""Re-dealing hidden cards so that they agree with everything a viewer has seen.

Go Fox! and Ka-Blam! both hide hands and the pick-up pile, and both reveal facts
about hidden cards as play goes on: "Ben said GO FOX!, so he held no 5 then",
"Ann drew, so she held nothing she could play". A sampled state must re-deal the
hidden cards at random *and* keep every such fact true, also for the history: a 5
now in Ben's hand must have reached him after he said GO FOX!.

The model, shared by both games (each builds it from its own view):

- a **slot** is one arrival of a hidden card: a card dealt to a player, a card a
  player drew, or a place in the pick-up pile now. It has an owner, an arrival
  time (a log index) and an epoch (which shuffle of the pile it came from);
- an **occurrence** is one hidden stay of a card: from where it went hidden (the
  deal, a reshuffle) until it left a hand face up at a known time (played, given,
  laid) or until now;
- a **fact** says a seat held none of some cards at some time; a **witness** says
  a seat held at least one of some cards at some time.

Every slot gets exactly one occurrence: the card that arrived there. That is a
perfect bipartite matching, found here with randomised augmenting paths (so the
re-deal is random); a fact rules out the pairs whose stay spans it. Then each
witness is pinned to one card that its seat held across its time, with a small
backtracking search. ``violations`` checks a filling against the same rules.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.log import LogEntry
from games.engine.word_cards.view import public_entry

PILE = -1  # the owner of a slot that is a place in the pick-up pile
NOW = 1 << 30  # the end of an occurrence that is still hidden


class InconsistentView(ValueError):
    """No re-deal agrees with the view: it was not made by this game."""


@dataclass(frozen=True, slots=True)
class Slot:
    owner: int  # a seat, or PILE
    arrival: int  # log index at which the card reached the owner
    epoch: int = 0
    allowed: frozenset[int] | None = None  # the cards it may hold (None: any)


@dataclass(frozen=True, slots=True)
class Occurrence:
    card: int
    epoch: int = 0
    end: int = NOW  # log index at which it left a hand face up (NOW: still hidden)
    leaver: int | None = None  # the seat it left face up from (None: still hidden)
    holder: int | None = None  # the seat known to hold it now (revealed hands), if any


@dataclass(frozen=True, slots=True)
class Fact:
    seat: int
    time: int
    cards: frozenset[int]  # the seat held none of these at ``time``


@dataclass(frozen=True, slots=True)
class Witness:
    seat: int
    time: int
    cards: frozenset[int]  # the seat held at least one of these at ``time``


@dataclass
class HiddenModel:
    """What a viewer cannot see, read from a view: slots, the cards to fill them, the facts.

    A game's sampler builds one by walking its log; it remembers the slots of each
    opponent's deal and draws so that the game can write those log entries again
    from the re-deal.
    """

    known: dict[str, int]  # every id the view shows -> its card
    slots: list[Slot] = field(default_factory=list)
    occurrences: list[Occurrence] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    witnesses: list[Witness] = field(default_factory=list)
    deal_slots: dict[int, list[int]] = field(default_factory=dict)  # opponent -> its dealt slots
    draw_slot: dict[int, int] = field(default_factory=dict)  # log index of an opponent's draw -> slot
    pile_slots: list[int] = field(default_factory=list)
    viewer_dealt: list[int] = field(default_factory=list)

    def fill(self, rng: random.Random) -> list[int]:
        """A random re-deal: the occurrence index of each slot (see ``redeal``)."""
        return redeal(self.slots, self.occurrences, self.facts, self.witnesses, rng)

    def held(self, filled: Sequence[int], owner: int) -> list[int]:
        """The cards in ``owner``'s slots that are still in their hand (not played, given or laid)."""
        return [
            self.occurrences[filled[index]].card
            for index, slot in enumerate(self.slots)
            if slot.owner == owner and self.occurrences[filled[index]].leaver is None
        ]

    def dealt_hands(
        self,
        card_in: Sequence[int],
        players: int,
        seat: int | None,
        order: Callable[[int], int] | None = None,
    ) -> list[list[int]]:
        """Each seat's dealt hand in a re-deal (``card_in``: the card of each slot), sorted
        by ``order``; the viewer's as they were dealt it."""
        return [
            self.viewer_dealt
            if owner == seat
            else sorted((card_in[index] for index in self.deal_slots[owner]), key=order)
            for owner in range(players)
        ]

    def rebuilt_log(
        self,
        log: Sequence[dict[str, Any]],
        seat: int | None,
        card_in: Sequence[int],
        deal: Callable[[dict[str, Any]], LogEntry],
        draw: Callable[[dict[str, Any], int], LogEntry],
    ) -> tuple[LogEntry, ...]:
        """The viewer's ``log`` written again for a re-deal (``card_in``: the card of each
        slot): the deal (``deal``) and each draw (``draw``, given the card drawn: the
        viewer's own as they saw it) with their private parts, so the sampled log reads
        to the viewer exactly as the real one; every other entry as the viewer read it."""
        entries = []
        for time, item in enumerate(log):
            if item["event"] == "deal":
                entries.append(deal(item))
            elif item["event"] == "draw":
                own = item["seat"] == seat
                drawn = self.known[item["card"]["id"]] if own else card_in[self.draw_slot[time]]
                entries.append(draw(item, drawn))
            else:
                entries.append(public_entry(item))
        return tuple(entries)


class _Problem:
    """The slots, occurrences and facts, indexed for the question "may this slot hold that"."""

    def __init__(
        self, slots: Sequence[Slot], occurrences: Sequence[Occurrence], facts: Sequence[Fact]
    ) -> None:
        self.slots = slots
        self.occurrences = occurrences
        # (seat, card) -> sorted times at which the seat is known not to hold the card
        self.forbidden: dict[tuple[int, int], list[int]] = {}
        by_seat: dict[int, list[Fact]] = {}
        for fact in facts:
            by_seat.setdefault(fact.seat, []).append(fact)
            for card in fact.cards:
                self.forbidden.setdefault((fact.seat, card), []).append(fact.time)
        for times in self.forbidden.values():
            times.sort()
        # Per seat, fact times in order and, from each fact on, every card banned since:
        # what a card still hidden in that seat's hand must avoid.
        self.fact_times: dict[int, list[int]] = {}
        self.banned_from: dict[int, list[frozenset[int]]] = {}
        for seat, seat_facts in by_seat.items():
            seat_facts.sort(key=lambda fact: fact.time)
            unions: list[frozenset[int]] = [frozenset()]
            for fact in reversed(seat_facts):
                unions.append(unions[-1] | fact.cards)
            unions.reverse()
            self.fact_times[seat] = [fact.time for fact in seat_facts]
            self.banned_from[seat] = unions

    def banned_since(self, seat: int, arrival: int) -> frozenset[int]:
        times = self.fact_times.get(seat)
        if not times:
            return frozenset()
        return self.banned_from[seat][bisect_right(times, arrival)]

    def fits(self, slot: Slot, occurrence: Occurrence) -> bool:
        if slot.epoch != occurrence.epoch:
            return False
        if slot.allowed is not None and occurrence.card not in slot.allowed:
            return False
        if slot.owner == PILE:
            return occurrence.leaver is None and occurrence.holder is None
        if occurrence.leaver is not None:
            if occurrence.leaver != slot.owner or occurrence.end <= slot.arrival:
                return False
        elif occurrence.holder is not None and occurrence.holder != slot.owner:
            return False
        times = self.forbidden.get((slot.owner, occurrence.card))
        if times:
            # A fact strictly inside the stay (arrival, end) contradicts it.
            after_arrival = bisect_right(times, slot.arrival)
            if after_arrival < len(times) and times[after_arrival] < occurrence.end:
                return False
        return True


def redeal(
    slots: Sequence[Slot],
    occurrences: Sequence[Occurrence],
    facts: Sequence[Fact],
    witnesses: Sequence[Witness],
    rng: random.Random,
    attempts: int = 10,
    budget: int = 400,
) -> list[int]:
    """For each slot, the index of the occurrence that fills it, agreeing with every fact.

    The matching itself is exact. Each witness is then pinned to one hidden card of
    its seat, which must have arrived before the witness's time and stayed past it,
    by a small backtracking search (at most ``budget`` tries per attempt); an attempt
    that runs out of budget starts again with fresh randomness.
    """
    if len(slots) != len(occurrences):
        raise InconsistentView(f"{len(slots)} hidden places for {len(occurrences)} hidden cards")
    problem = _Problem(slots, occurrences, facts)
    # Earliest first, so that a later ask for the same number can reuse the card
    # pinned for an earlier one (a player who keeps asking for their 5).
    order = sorted(witnesses, key=lambda witness: witness.time)
    for _ in range(attempts):
        matching = _Matching(problem, rng)
        if not matching.complete():
            raise InconsistentView("no re-deal of the hidden cards agrees with the view")
        if matching.pin_all(order, budget):
            return matching.occurrence_of
    raise InconsistentView("could not re-deal the hidden cards to agree with every witness")


class _Matching:
    """Kuhn's augmenting paths over slots (left) and occurrences (right), in random order.

    Witnesses add limits to occurrences (``only_seat``, ``arrived_before``) that the
    augmenting paths respect.
    """

    def __init__(self, problem: _Problem, rng: random.Random) -> None:
        self.problem = problem
        self.rng = rng
        slots, occurrences = problem.slots, problem.occurrences
        self.owner = [slot.owner for slot in slots]
        self.arrival = [slot.arrival for slot in slots]
        self.only_seat: list[int | None] = [None] * len(occurrences)
        self.arrived_before = [NOW + 1] * len(occurrences)
        # One random order of the hidden cards, each slot starting at a random place in it.
        order = list(range(len(occurrences)))
        rng.shuffle(order)
        still_hidden: dict[int, list[int]] = {}
        leaving: dict[tuple[int, int], list[int]] = {}
        self.by_card: dict[int, list[int]] = {}
        for index in order:
            occurrence = occurrences[index]
            self.by_card.setdefault(occurrence.card, []).append(index)
            if occurrence.leaver is None:
                still_hidden.setdefault(occurrence.epoch, []).append(index)
            else:
                leaving.setdefault((occurrence.leaver, occurrence.epoch), []).append(index)
        # Slots that look alike (all of a deal, all places in the pile) fit the same cards.
        fitting_for: dict[tuple[object, ...], tuple[list[int], list[int]]] = {}
        self.candidates: list[list[int]] = []
        for slot in slots:
            key = (slot.owner, slot.arrival, slot.epoch, slot.allowed)
            fitting = fitting_for.get(key)
            if fitting is None:
                fitting = self._fitting(slot, still_hidden.get(slot.epoch, []), leaving)
                fitting_for[key] = fitting
            # Cards that left this player's hand face up first: they can go nowhere else.
            self.candidates.append(_rotated(fitting[0], rng) + _rotated(fitting[1], rng))
        self.occurrence_of = [-1] * len(slots)
        self.slot_of = [-1] * len(occurrences)

    def _fitting(
        self, slot: Slot, still_hidden: list[int], leaving: dict[tuple[int, int], list[int]]
    ) -> tuple[list[int], list[int]]:
        """The occurrences that may fill ``slot``: those that left face up, those still hidden."""
        occurrences = self.problem.occurrences
        allowed = slot.allowed
        if slot.owner == PILE:
            return [], [
                index
                for index in still_hidden
                if occurrences[index].holder is None
                and (allowed is None or occurrences[index].card in allowed)
            ]
        banned = self.problem.banned_since(slot.owner, slot.arrival)
        fitting = [
            index
            for index in still_hidden
            if occurrences[index].card not in banned
            and occurrences[index].holder in (None, slot.owner)
            and (allowed is None or occurrences[index].card in allowed)
        ]
        fits = self.problem.fits
        left = [
            index for index in leaving.get((slot.owner, slot.epoch), ()) if fits(slot, occurrences[index])
        ]
        return left, fitting

    def complete(self) -> bool:
        order = list(range(len(self.candidates)))
        self.rng.shuffle(order)
        # Most constrained first: fewer long augmenting paths later.
        order.sort(key=lambda index: len(self.candidates[index]))
        return all(self._augment(index, set()) for index in order)

    def _augment(self, slot: int, visited: set[int]) -> bool:
        owner, arrival = self.owner[slot], self.arrival[slot]
        only_seat, arrived_before, slot_of = self.only_seat, self.arrived_before, self.slot_of
        allowed = [
            occurrence
            for occurrence in self.candidates[slot]
            if occurrence not in visited
            and only_seat[occurrence] in (None, owner)
            and arrived_before[occurrence] > arrival
        ]
        # A free card first; only then try to move a taken one elsewhere.
        for occurrence in allowed:
            if slot_of[occurrence] < 0:
                slot_of[occurrence] = slot
                self.occurrence_of[slot] = occurrence
                return True
        for occurrence in allowed:
            if occurrence in visited:
                continue
            visited.add(occurrence)
            if self._augment(slot_of[occurrence], visited):
                slot_of[occurrence] = slot
                self.occurrence_of[slot] = occurrence
                return True
        return False

    def pin_all(self, witnesses: list[Witness], budget: int) -> bool:
        """Pin every witness to a hidden card, backtracking when a choice leaves no way on."""
        return self._pin_from(witnesses, 0, [budget])

    def _pin_from(self, witnesses: list[Witness], position: int, tries: list[int]) -> bool:
        if position == len(witnesses):
            return True
        witness = witnesses[position]
        seat, time = witness.seat, witness.time
        occurrences = self.problem.occurrences
        options = [
            index
            for card in witness.cards
            for index in self.by_card.get(card, ())
            if self.only_seat[index] in (None, seat)  # not a card pinned to another seat's hand
            and (
                (occurrences[index].leaver == seat and occurrences[index].end > time)
                or (occurrences[index].leaver is None and occurrences[index].holder in (None, seat))
            )
        ]
        if any(self.only_seat[index] == seat and self.arrived_before[index] <= time for index in options):
            return self._pin_from(witnesses, position + 1, tries)

        def preference(index: int) -> tuple[int, int]:
            slot = self.slot_of[index]
            if self.owner[slot] == seat and self.arrival[slot] < time:
                rank = 0  # it already sits in a fitting place: pinning moves nothing
            elif self.only_seat[index] == seat:
                rank = 1  # pinned for an earlier witness: the player kept it
            else:
                rank = 2
            # The card that left the hand soonest after the witness is the likeliest one.
            return rank, occurrences[index].end

        self.rng.shuffle(options)
        options.sort(key=preference)
        for index in options:
            if tries[0] <= 0:
                return False
            tries[0] -= 1
            saved = (self.only_seat[index], self.arrived_before[index], list(self.occurrence_of))
            if self._pin(index, seat, time) and self._pin_from(witnesses, position + 1, tries):
                return True
            self.only_seat[index], self.arrived_before[index], occurrence_of = saved
            self.occurrence_of = occurrence_of
            for slot, occurrence in enumerate(occurrence_of):
                self.slot_of[occurrence] = slot
        return False

    def _pin(self, index: int, seat: int, time: int) -> bool:
        self.only_seat[index] = seat
        self.arrived_before[index] = min(self.arrived_before[index], time)
        slot = self.slot_of[index]
        if self.owner[slot] == seat and self.arrival[slot] < self.arrived_before[index]:
            return True
        self.slot_of[index] = -1
        self.occurrence_of[slot] = -1
        return self._augment(slot, set())


def _rotated(items: list[int], rng: random.Random) -> list[int]:
    if not items:
        return []
    start = rng.randrange(len(items))
    return items[start:] + items[:start]


def violations(
    slots: Sequence[Slot],
    occurrences: Sequence[Occurrence],
    facts: Sequence[Fact],
    witnesses: Sequence[Witness],
    filled: Sequence[int],
) -> list[str]:
    """What a filling (an occurrence index per slot) breaks; empty when it agrees with everything.

    Tests use it to check that the true history always fits the model a view gives.
    """
    problem = _Problem(slots, occurrences, facts)
    found = []
    if sorted(filled) != list(range(len(occurrences))):
        found.append("the filling does not use every hidden card exactly once")
    for index, (slot, occurrence) in enumerate(zip(slots, filled, strict=True)):
        if not problem.fits(slot, occurrences[occurrence]):
            found.append(f"slot {index} ({slot}) cannot hold {occurrences[occurrence]}")
    for witness in witnesses:
        if not any(
            slot.owner == witness.seat
            and slot.arrival < witness.time
            and occurrences[occurrence].card in witness.cards
            and occurrences[occurrence].end > witness.time
            for slot, occurrence in zip(slots, filled, strict=True)
        ):
            found.append(f"no hidden card bears out {witness}")
    return found
