"""Dealing face-down tiles again so that every public fact about them still holds.

The facts are count constraints (each Information: how many tiles of each class a
set of tiles holds, where a class is a token, "no token", or "some token" for a
disturbed Information) and per-tile domains (Analyst slots, Marker, Colourist).
Rows and columns overlap, so this is a small constraint problem. Two observations
make it quick:

- Kinds that no fact tells apart (grey cables and Auxiliaries, when no Informant
  spoke) are dealt as one group and told apart at the end, at random.
- A local search (swap two tiles, keep the swap that breaks fewest facts, now and
  then a random swap) finds a deal in a few milliseconds even when a dozen
  Information records cross, where a backtracking search can wander for seconds.
  It is not guaranteed to finish, so after many restarts an exhaustive search
  takes over; the true deal exists, so that one always ends.

Swapping keeps the multiset of face-down tiles exact by construction.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

STEPS_PER_TRY = 400
TRIES = 100  # local search restarts before the exhaustive search takes over
NOISE = 0.1  # how often the local search makes a random swap to leave a local minimum


@dataclass(frozen=True, slots=True)
class CountConstraint:
    """``need[c]`` tiles of class ``c`` among the face-down ``positions``; ``class_of`` maps kinds to classes."""

    positions: tuple[int, ...]
    class_of: dict[str, str]
    need: dict[str, int]


def deal(
    tiles: Iterable[str],
    known: list[str | None],
    allowed: dict[int, set[str]],
    counts: list[CountConstraint],
    rng: random.Random,
    tries: int = TRIES,
) -> tuple[str, ...]:
    """Every tile's kind: ``known`` where it is not None, the others dealt from what is left of ``tiles``.

    ``tries`` bounds the local search restarts (0 goes straight to the exhaustive search).
    """
    return _Dealer(tuple(tiles), known, allowed, counts, rng).deal(tries)


class _Dealer:
    def __init__(
        self,
        tiles: tuple[str, ...],
        known: list[str | None],
        allowed: dict[int, set[str]],
        counts: list[CountConstraint],
        rng: random.Random,
    ) -> None:
        self.rng = rng
        self.known = known
        self.kind_supply = {kind: tiles.count(kind) - known.count(kind) for kind in sorted(set(tiles))}
        counts = [count for count in counts if count.positions]
        restricted = sorted(allowed)

        def signature(kind: str) -> tuple[object, ...]:
            return (
                tuple(count.class_of[kind] for count in counts),
                tuple(kind in allowed[position] for position in restricted),
            )

        by_signature: dict[tuple[object, ...], list[str]] = {}
        for kind in self.kind_supply:
            by_signature.setdefault(signature(kind), []).append(kind)
        # Groups are numbered, and sets of groups are bit masks.
        self.groups = list(by_signature.values())
        self.supply = [sum(self.kind_supply[kind] for kind in group) for group in self.groups]
        self.hidden = [position for position, kind in enumerate(known) if kind is None]
        everything = (1 << len(self.groups)) - 1
        self.domains = {
            position: sum(1 << bit for bit, group in enumerate(self.groups) if group[0] in allowed[position])
            if position in allowed
            else everything
            for position in self.hidden
        }
        # Per count constraint: its tiles, the class (a number) of each group, the
        # groups of each class (a mask) and how many tiles of each class it needs.
        self.members: list[tuple[int, ...]] = []
        self.class_of: list[list[int]] = []
        self.class_masks: list[list[int]] = []
        self.needs: list[list[int]] = []
        self.constraints_of: dict[int, list[int]] = {position: [] for position in self.hidden}
        for count in counts:
            names = sorted(set(count.need) | set(count.class_of.values()))
            class_of = [names.index(count.class_of[group[0]]) for group in self.groups]
            self.class_of.append(class_of)
            self.class_masks.append(
                [
                    sum(1 << bit for bit, found in enumerate(class_of) if found == index)
                    for index in range(len(names))
                ]
            )
            self.needs.append([count.need.get(name, 0) for name in names])
            for position in count.positions:
                self.constraints_of[position].append(len(self.members))
            self.members.append(count.positions)
        self.constrained = [
            position for position in self.hidden if position in allowed or self.constraints_of[position]
        ]

    def deal(self, tries: int) -> tuple[str, ...]:
        groups = self._local_search(tries) or self._exhaustive_search()
        # Each group's tiles go to the places given to the group, in random order.
        dealt: dict[int, str] = {}
        for bit, group in enumerate(self.groups):
            places = [position for position in self.hidden if groups[position] == bit]
            kinds = [kind for kind in group for _ in range(self.kind_supply[kind])]
            self.rng.shuffle(kinds)
            dealt.update(zip(places, kinds, strict=True))
        return tuple(
            kind if kind is not None else dealt[position] for position, kind in enumerate(self.known)
        )

    # -- local search ------------------------------------------------------------------

    def _local_search(self, tries: int) -> dict[int, int] | None:
        rng = self.rng
        pool = [bit for bit, count in enumerate(self.supply) for _ in range(count)]
        for _ in range(tries):
            rng.shuffle(pool)
            self.group = dict(zip(self.hidden, pool, strict=True))
            # excess[c][k]: how many more tiles of class k constraint c holds than it needs.
            self.excess = [[-need for need in needs] for needs in self.needs]
            for number, members in enumerate(self.members):
                for position in members:
                    self.excess[number][self.class_of[number][self.group[position]]] += 1
            cost = sum(abs(value) for row in self.excess for value in row)
            cost += sum(1 for position in self.constrained if not self._fits(position, self.group[position]))
            for _ in range(STEPS_PER_TRY):
                if cost == 0:
                    return self.group
                conflicted = [position for position in self.constrained if self._is_conflicted(position)]
                first = rng.choice(conflicted)
                others = [position for position in self.hidden if self.group[position] != self.group[first]]
                if rng.random() < NOISE:
                    second = rng.choice(others)
                else:
                    deltas = [self._swap_delta(first, position) for position in others]
                    lowest = min(deltas)
                    second = rng.choice(
                        [position for position, delta in zip(others, deltas, strict=True) if delta == lowest]
                    )
                cost += self._swap_delta(first, second)
                self._swap(first, second)
        return None

    def _fits(self, position: int, group: int) -> bool:
        return bool(self.domains[position] >> group & 1)

    def _is_conflicted(self, position: int) -> bool:
        group = self.group[position]
        if not self._fits(position, group):
            return True
        return any(
            self.excess[number][self.class_of[number][group]] > 0 for number in self.constraints_of[position]
        )

    def _swap_delta(self, first: int, second: int) -> int:
        """How much swapping the two tiles changes the number of broken facts."""
        a, b = self.group[first], self.group[second]
        delta = (
            (not self._fits(first, b))
            + (not self._fits(second, a))
            - (not self._fits(first, a))
            - (not self._fits(second, b))
        )
        for leaving, arriving, own, other in ((a, b, first, second), (b, a, second, first)):
            shared = self.constraints_of[other]
            for number in self.constraints_of[own]:
                if number in shared:
                    continue  # both tiles are in it: its counts do not change
                out, into = self.class_of[number][leaving], self.class_of[number][arriving]
                if out != into:
                    excess = self.excess[number]
                    delta += (
                        abs(excess[out] - 1) - abs(excess[out]) + abs(excess[into] + 1) - abs(excess[into])
                    )
        return delta

    def _swap(self, first: int, second: int) -> None:
        a, b = self.group[first], self.group[second]
        for leaving, arriving, own, other in ((a, b, first, second), (b, a, second, first)):
            shared = self.constraints_of[other]
            for number in self.constraints_of[own]:
                if number not in shared:
                    self.excess[number][self.class_of[number][leaving]] -= 1
                    self.excess[number][self.class_of[number][arriving]] += 1
        self.group[first], self.group[second] = b, a

    # -- exhaustive search (the safety net) ----------------------------------------------

    def _exhaustive_search(self) -> dict[int, int]:
        self.assignment: dict[int, int] = {}
        self.remaining = list(self.supply)
        self.missing = [list(needs) for needs in self.needs]
        if not self._search(set(self.constrained)):
            raise ValueError("no deal of the face-down tiles agrees with these facts")
        leftover = [bit for bit, count in enumerate(self.remaining) for _ in range(count)]
        self.rng.shuffle(leftover)
        free = [position for position in self.hidden if position not in self.assignment]
        self.assignment.update(zip(free, leftover, strict=True))
        return self.assignment

    def _search(self, unassigned: set[int]) -> bool:
        """Backtracking, most constrained tile first, with forward checking."""
        if not unassigned:
            return True
        in_supply = sum(1 << bit for bit, count in enumerate(self.remaining) if count > 0)
        wanted = [
            sum(mask for mask, missing in zip(masks, needs, strict=True) if missing > 0)
            for masks, needs in zip(self.class_masks, self.missing, strict=True)
        ]
        candidates: dict[int, int] = {}
        for position in unassigned:
            mask = self.domains[position] & in_supply
            for number in self.constraints_of[position]:
                mask &= wanted[number]
            if not mask:
                return False
            candidates[position] = mask
        for number, members in enumerate(self.members):
            for mask, missing in zip(self.class_masks[number], self.missing[number], strict=True):
                able = sum(
                    1 for position in members if position in unassigned and candidates[position] & mask
                )
                if missing > able:
                    return False
        best = min(sorted(candidates), key=lambda position: candidates[position].bit_count())
        options = [bit for bit in range(len(self.groups)) if candidates[best] >> bit & 1]
        self.rng.shuffle(options)
        for group in options:
            self._take(best, group, -1)
            if self._search(unassigned - {best}):
                self.assignment[best] = group
                return True
            self._take(best, group, +1)
        return False

    def _take(self, position: int, group: int, step: int) -> None:
        self.remaining[group] += step
        for number in self.constraints_of[position]:
            self.missing[number][self.class_of[number][group]] += step
