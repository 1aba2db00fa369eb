"""Building states by hand and playing tournaments with random results, for the format tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.tournaments.formats import PlayedRound, Round, Settings, State, Table, next_round


def pairs_round(pairs: Sequence[tuple[int, int]], byes: Sequence[int] = ()) -> Round:
    return Round(tables=tuple(Table(pair) for pair in pairs), byes=tuple(byes))


def played(
    tables: Sequence[tuple[int, ...]], places: Sequence[Sequence[int]], byes: Sequence[int] = ()
) -> PlayedRound:
    """A played round from each table's entrants and their places, in the same order."""
    return PlayedRound(
        round=Round(tables=tuple(Table(table) for table in tables), byes=tuple(byes)),
        places=tuple(
            dict(zip(table, table_places, strict=True))
            for table, table_places in zip(tables, places, strict=True)
        ),
    )


def wins(
    pairs: Sequence[tuple[int, int]], byes: Sequence[int] = (), draws: Sequence[int] = ()
) -> PlayedRound:
    """A round of pairs in which the first of each pair won, except the tables listed in
    ``draws`` (by index), which were drawn."""
    return played(
        pairs,
        [(1, 1) if index in draws else (1, 2) for index in range(len(pairs))],
        byes,
    )


def met_pairs(rounds: Sequence[PlayedRound]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for round_ in rounds:
        for table in round_.round.tables:
            for index, one in enumerate(table.entrants):
                for other in table.entrants[index + 1 :]:
                    met[frozenset((one, other))] += 1
    return met


def random_places(round_: Round, rng: random.Random) -> tuple[dict[int, int], ...]:
    """Random places, shared now and then (both ways of writing them)."""
    places = []
    for table in round_.tables:
        order = list(table.entrants)
        rng.shuffle(order)
        ranks = {entrant: index + 1 for index, entrant in enumerate(order)}
        if rng.random() < 0.25:
            ranks[order[1]] = ranks[order[0]]  # a shared first place, written 1, 1, 3, ...
        elif len(order) >= 3 and rng.random() < 0.1:
            for entrant in order[2:]:
                ranks[entrant] -= 1  # a shared second place written 1, 2, 2, 3 (dense)
            ranks[order[2]] = ranks[order[1]]
        places.append(ranks)
    return tuple(places)


@dataclass
class Tournament:
    """A tournament played to its end with random places and random withdrawals."""

    settings: Settings
    entrants: int
    seed: int
    withdrawal_rate: float = 0.1
    rounds: list[PlayedRound] = field(default_factory=list)
    states: list[State] = field(default_factory=list)  # the state each round was built from
    out: frozenset[int] = frozenset()

    @property
    def seeds(self) -> tuple[int, ...]:
        # Ids unlike seed numbers, so that no code can mix the two up unnoticed.
        return tuple(1000 + 7 * number for number in range(self.entrants))

    def state(self) -> State:
        return State(settings=self.settings, seeds=self.seeds, played=tuple(self.rounds), out=self.out)

    def play(self, limit: int = 200) -> State:
        rng = random.Random(self.seed)
        for _ in range(limit):
            state = self.state()
            round_ = next_round(state)
            if round_ is None:
                return state
            self.states.append(state)
            self.rounds.append(PlayedRound(round=round_, places=random_places(round_, rng)))
            still_in = [entrant for entrant in self.seeds if entrant not in self.out]
            if still_in and rng.random() < self.withdrawal_rate:
                self.out = self.out | {rng.choice(still_in)}
        raise AssertionError(f"no end after {limit} rounds")
