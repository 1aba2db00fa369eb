"""Swiss: a fixed number of rounds, each pairing (or seating) entrants of equal score.

Ranking for pairing: points, then the better seed. Pairs follow the Dutch order (the
top half of a score group meets the bottom half; an odd group's lowest moves down to
meet the next group's top) unless that would repeat a pairing, and then a maximum
weight matching (networkx) finds the pairing that minimises, in this order: repeated
pairings, how far the bye is from the lowest-ranked entrant without one, the score
differences within pairs (squared), and the distance from the Dutch order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import groupby
from typing import Any

import networkx as nx

from games.tournaments.formats.model import Round, State, Table
from games.tournaments.formats.scoring import History, seat_order, table_sizes

# Up to this many entrants a pairing that meets a repeat is searched over every possible
# pair (about 0.02 s for 64); above it, over the entrants ranked near the repeats first,
# in windows that widen until the repeat is gone (or the window is the whole field).
WHOLE_FIELD_SEARCH_UP_TO = 64
FIRST_WINDOW = 4  # ranks on either side of a repeated pair
WINDOW_GROWTH = 4

BYE = "bye"  # the matching's node for "sits out"

Pair = tuple[int, int]


def swiss_round(state: State, history: History) -> Round | None:
    rounds = state.settings.rounds
    assert rounds is not None  # validated before
    active = [entrant for entrant in state.seeds if entrant not in state.out]
    if len(state.played) >= rounds or len(active) < 2:
        return None
    seed_index = {entrant: index for index, entrant in enumerate(state.seeds)}
    records = history.records
    ranked = sorted(active, key=lambda entrant: (-records[entrant].points, seed_index[entrant]))
    rank = {entrant: index for index, entrant in enumerate(ranked)}
    if state.settings.table_size == 2:
        pairs, bye = pair_entrants(ranked, history)
        tables = sorted(pairs, key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
        return Round(
            tables=tuple(Table(seat_order(pair, history, rank)) for pair in tables),
            byes=() if bye is None else (bye,),
        )
    groups = seat_tables(ranked, history, state.settings.table_size)
    return Round(tables=tuple(Table(seat_order(group, history, rank)) for group in groups))


# -- pairs ------------------------------------------------------------------------------------


def bye_candidates(ranked: Sequence[int], history: History) -> list[int]:
    """Who may get this round's bye, in rank order: those without a bye (those with the
    fewest, once everyone still in has had one)."""
    fewest = min(history.records[entrant].byes for entrant in ranked)
    return [entrant for entrant in ranked if history.records[entrant].byes == fewest]


def dutch_pairs(ranked: Sequence[int], history: History) -> list[Pair]:
    """The pairing by score groups alone (an even field, ranked): in each group the top
    half meets the bottom half in order (1 v 4, 2 v 5, 3 v 6); an odd group's lowest
    moves down and meets the next group's top."""
    records = history.records
    pairs: list[Pair] = []
    floater: int | None = None
    for _, group in groupby(ranked, key=lambda entrant: records[entrant].points):
        residents = list(group)
        if floater is not None:
            pairs.append((floater, residents.pop(0)))
            floater = None
        if len(residents) % 2:
            floater = residents.pop()
        half = len(residents) // 2
        pairs.extend(zip(residents[:half], residents[half:], strict=True))
    if floater is not None:
        raise ValueError("dutch_pairs needs an even field")
    return pairs


def pair_entrants(ranked: Sequence[int], history: History) -> tuple[list[Pair], int | None]:
    """The pairs and the bye (None for an even field)."""
    candidates = bye_candidates(ranked, history) if len(ranked) % 2 else []
    bye = candidates[-1] if candidates else None
    ideal = dutch_pairs([entrant for entrant in ranked if entrant != bye], history)
    repeats = [pair for pair in ideal if history.times_met(*pair)]
    if not repeats:
        return ideal, bye
    search = _PairingSearch(ranked, history, ideal, bye, candidates)
    if len(ranked) <= WHOLE_FIELD_SEARCH_UP_TO:
        return search.solve(set(ranked))
    window = FIRST_WINDOW
    while True:
        parts = search.around(repeats, window)
        if len(parts) == 1 and len(parts[0]) == len(ranked):
            return search.solve(parts[0])
        solved = [search.solve(part) for part in parts]
        if all(
            part_bye == (bye if bye in part else None) and not any(history.times_met(*pair) for pair in pairs)
            for part, (pairs, part_bye) in zip(parts, solved, strict=True)
        ):
            chosen = set().union(*parts)
            kept = [pair for pair in ideal if pair[0] not in chosen]
            return kept + [pair for pairs, _ in solved for pair in pairs], bye
        window *= WINDOW_GROWTH


class _PairingSearch:
    """The matching over a chosen part of the field, the rest keeping its Dutch pairs."""

    def __init__(
        self,
        ranked: Sequence[int],
        history: History,
        ideal: list[Pair],
        bye: int | None,
        candidates: list[int],
    ) -> None:
        self.ranked = list(ranked)
        self.history = history
        self.rank = {entrant: index for index, entrant in enumerate(ranked)}
        self.bye = bye
        self.partner: dict[int, int] = {}
        for one, other in ideal:
            self.partner[one], self.partner[other] = other, one
        if bye is not None:
            self.partner[bye] = bye
        # Candidates below this one: 0 for the lowest-ranked without a bye.
        self.bye_cost = {entrant: len(candidates) - 1 - index for index, entrant in enumerate(candidates)}
        points = [history.records[entrant].points for entrant in ranked]
        scale = math.lcm(*(value.denominator for value in points))
        self.scaled = {entrant: int(value * scale) for entrant, value in zip(ranked, points, strict=True)}
        spread = max(self.scaled.values()) - min(self.scaled.values())
        count = len(ranked)
        # Lexicographic weights: each level outweighs everything below it in any pairing.
        self.arrangement_unit = 1
        self.score_unit = (count + 2) * 2 * count + 1
        self.bye_unit = self.score_unit * ((count // 2 + 1) * spread * spread + 1)
        self.repeat_unit = self.bye_unit * (count + 1)

    def around(self, repeats: list[Pair], window: int) -> list[set[int]]:
        """The entrants ranked within ``window`` of either entrant of a repeated pair,
        with their Dutch partners, in parts that can be paired apart: ranks that touch,
        and partners, are in the same part. The whole field once the window covers it."""
        last = len(self.ranked) - 1
        spans = sorted(
            (max(0, self.rank[entrant] - window), min(last, self.rank[entrant] + window))
            for pair in repeats
            for entrant in pair
        )
        merged: list[list[int]] = []
        for low, high in spans:
            if merged and low <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        group: dict[int, int] = {}  # entrant -> its part's representative, by union-find
        for low, high in merged:
            for entrant in self.ranked[low : high + 1]:
                group[entrant] = self.ranked[low]
        for entrant in list(group):
            group.setdefault(self.partner[entrant], self.partner[entrant])

        def root(entrant: int) -> int:
            while group[entrant] != entrant:
                group[entrant] = group[group[entrant]]
                entrant = group[entrant]
            return entrant

        for entrant in list(group):
            group[root(entrant)] = root(self.partner[entrant])
        parts: dict[int, set[int]] = {}
        for entrant in group:
            parts.setdefault(root(entrant), set()).add(entrant)
        return sorted(parts.values(), key=lambda part: min(self.rank[entrant] for entrant in part))

    def cost(self, one: int, other: int) -> int:
        rank, partner = self.rank, self.partner
        repeats = self.history.times_met(one, other)
        score = (self.scaled[one] - self.scaled[other]) ** 2
        arrangement = abs(rank[other] - rank[partner[one]]) + abs(rank[one] - rank[partner[other]])
        return repeats * self.repeat_unit + score * self.score_unit + arrangement * self.arrangement_unit

    def solve(self, chosen: set[int]) -> tuple[list[Pair], int | None]:
        members = [entrant for entrant in self.ranked if entrant in chosen]
        costs: dict[tuple[Any, Any], int] = {}
        for index, one in enumerate(members):
            for other in members[index + 1 :]:
                costs[(one, other)] = self.cost(one, other)
        if self.bye is not None and self.bye in chosen:
            for entrant in members:
                if entrant in self.bye_cost:
                    costs[(entrant, BYE)] = self.bye_cost[entrant] * self.bye_unit
        top = max(costs.values()) + 1
        graph: nx.Graph[Any] = nx.Graph()
        for (one, other), cost in costs.items():
            graph.add_edge(one, other, weight=top - cost)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        pairs: list[Pair] = []
        bye: int | None = None  # stays None when the bye is not in this part
        for one, other in matching:
            if other == BYE or one == BYE:
                bye = other if one == BYE else one
            else:
                first, second = sorted((one, other), key=self.rank.__getitem__)
                pairs.append((first, second))
        if 2 * len(pairs) + (1 if bye in chosen else 0) != len(members):
            raise RuntimeError("the pairing left an entrant out")  # cannot happen: every pair is an edge
        return pairs, bye


# -- tables of 3 and more --------------------------------------------------------------------


def seat_tables(ranked: Sequence[int], history: History, table_size: int) -> list[list[int]]:
    """Tables as equal as possible, filled in rank order (leaders on table 1), except that
    the entrants of one score group are dealt to the seats that group fills in snake
    order (1, 2, 3, 3, 2, 1, ...), so a group's best are spread over its tables as the
    top half meets the bottom half in pairs. Then, while a table seats two entrants who
    met before, the one swap of one of them with an entrant of the nearest table that
    lowers the repeats most (at the least cost in score differences) is made. Tables
    end ordered by their best-ranked entrant."""
    records = history.records
    rank = {entrant: index for index, entrant in enumerate(ranked)}
    sizes = table_sizes(len(ranked), table_size)
    table_at = [table for table, size in enumerate(sizes) for _ in range(size)]  # by rank position
    tables: list[list[int]] = [[] for _ in sizes]
    for _, group in groupby(ranked, key=lambda entrant: records[entrant].points):
        members = list(group)
        free = Counter(table_at[rank[entrant]] for entrant in members)
        waiting = iter(members)
        forward = True
        dealt = 0
        while dealt < len(members):
            sweep = [index for index in sorted(free) if free[index]]
            for index in sweep if forward else reversed(sweep):
                tables[index].append(next(waiting))
                free[index] -= 1
                dealt += 1
            forward = not forward
    _TableRepair(ranked, history, tables).run()
    for seated in tables:
        seated.sort(key=rank.__getitem__)
    tables.sort(key=lambda seated: rank[seated[0]])
    return tables


class _TableRepair:
    def __init__(self, ranked: Sequence[int], history: History, tables: list[list[int]]) -> None:
        self.history = history
        self.tables = tables
        points = {entrant: history.records[entrant].points for entrant in ranked}
        scale = math.lcm(*(value.denominator for value in points.values()))
        self.scaled = {entrant: int(value * scale) for entrant, value in points.items()}
        spread = max(self.scaled.values()) - min(self.scaled.values())
        seats = sum(len(table) * (len(table) - 1) // 2 for table in tables)
        # One repeat outweighs any change in score differences.
        self.repeat_unit = seats * spread * spread + 1

    def pair_cost(self, one: int, other: int) -> int:
        return (
            self.repeat_unit * self.history.times_met(one, other)
            + (self.scaled[one] - self.scaled[other]) ** 2
        )

    def member_cost(self, entrant: int, table: list[int], leaving: int) -> int:
        return sum(self.pair_cost(entrant, other) for other in table if other != leaving and other != entrant)

    def repeated(self, table: list[int]) -> list[int]:
        return [
            one
            for one in table
            if any(other != one and self.history.times_met(one, other) for other in table)
        ]

    def run(self) -> None:
        while self._one_swap():
            pass

    def _one_swap(self) -> bool:
        tables = self.tables
        for here, table in enumerate(tables):
            movers = self.repeated(table)
            if not movers:
                continue
            for distance in range(1, len(tables)):
                best: tuple[int, int, int, int] | None = None  # (change, there, mover, other)
                for there in (here - distance, here + distance):
                    if not 0 <= there < len(tables):
                        continue
                    for mover in movers:
                        for other in tables[there]:
                            change = (
                                self.member_cost(other, table, mover)
                                + self.member_cost(mover, tables[there], other)
                                - self.member_cost(mover, table, mover)
                                - self.member_cost(other, tables[there], other)
                            )
                            if change < 0 and (best is None or change < best[0]):
                                best = (change, there, mover, other)
                if best is not None:
                    _, there, mover, other = best
                    table[table.index(mover)] = other
                    tables[there][tables[there].index(other)] = mover
                    return True
        return False
