"""How long a Swiss round takes to pair: ``formats.next_round`` for 64, 256 and 1,024
players, in pairs and at tables of 4, after some rounds played with random results.

    nice -n 10 .venv/bin/python -m bench.tournament_pairing                 # a few seconds
    nice -n 10 .venv/bin/python -m bench.tournament_pairing --sizes 256 --played 8 --repeats 3

For each field size and table size it plays ``--played`` rounds (random places, shared
places now and then, about 1% of the field withdrawing each round), then times the
next round's pairing ``--repeats`` times and ``standings`` once. Every round is paired
by ``next_round`` itself, so the timed round meets the repeats that random play leaves.
The pure code only: no database, no Celery (the task adds its reads and writes). The
process pins itself to one core. The goal (issue 24): 256 players paired in under 2 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from games.tournaments.formats import PlayedRound, Round, Settings, State, next_round, standings

TIE_RATE = 0.1  # how often a table's result has a shared place
WITHDRAWAL_RATE = 0.01  # of the field, per round


def random_places(round_: Round, rng: random.Random) -> tuple[dict[int, int], ...]:
    places = []
    for table in round_.tables:
        order = list(table.entrants)
        rng.shuffle(order)
        ranks = {entrant: index + 1 for index, entrant in enumerate(order)}
        if rng.random() < TIE_RATE and len(order) >= 2:
            ranks[order[1]] = ranks[order[0]]
        places.append(ranks)
    return tuple(places)


def played_state(players: int, table_size: int, played: int, rounds: int, seed: int) -> State:
    rng = random.Random(seed)
    settings = Settings(format="swiss", table_size=table_size, rounds=rounds)
    state = State(settings=settings, seeds=tuple(range(1, players + 1)))
    for _ in range(played):
        round_ = next_round(state)
        assert round_ is not None
        still_in = [entrant for entrant in state.seeds if entrant not in state.out]
        leaving = rng.sample(still_in, int(len(still_in) * WITHDRAWAL_RATE))
        state = State(
            settings=settings,
            seeds=state.seeds,
            played=(*state.played, PlayedRound(round=round_, places=random_places(round_, rng))),
            out=state.out | frozenset(leaving),
        )
    return state


def repeats_in(round_: Round, state: State) -> int:
    """Pairs seated together this round who had met before (0 unless unavoidable or tables)."""
    met: set[frozenset[int]] = set()
    for played in state.played:
        for table in played.round.tables:
            met.update(
                frozenset((one, other)) for one in table.entrants for other in table.entrants if one != other
            )
    return sum(
        1
        for table in round_.tables
        for index, one in enumerate(table.entrants)
        for other in table.entrants[index + 1 :]
        if frozenset((one, other)) in met
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="64,256,1024", help="field sizes, comma-separated")
    parser.add_argument("--tables", default="2,4", help="table sizes, comma-separated")
    parser.add_argument("--played", type=int, default=5, help="rounds played before the timed one")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.played} rounds played first\n"
    )
    print("| players | seats | next round: median | max | repeats seated | standings |")
    print("|---:|---:|---:|---:|---:|---:|")
    for players in (int(size) for size in args.sizes.split(",")):
        for table_size in (int(size) for size in args.tables.split(",")):
            state = played_state(players, table_size, args.played, args.played + 1, args.seed)
            times = []
            round_ = None
            for _ in range(args.repeats):
                started = time.process_time()
                round_ = next_round(state)
                times.append(time.process_time() - started)
            assert round_ is not None
            started = time.process_time()
            standings(state)
            standings_time = time.process_time() - started
            print(
                f"| {players:,} | {table_size} | {statistics.median(times):.3f} s | {max(times):.3f} s "
                f"| {repeats_in(round_, state)} | {standings_time:.3f} s |"
            )


if __name__ == "__main__":
    main()
