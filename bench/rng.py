"""What the keyed generator costs next to splitmix64, measured side by side.

    nice -n 10 .venv/bin/python -m bench.rng                  # ~1 minute
    nice -n 10 .venv/bin/python -m bench.rng --games go-fox --rounds 5

Two parts, both in one process pinned to one core, CPU time (the machine is shared):

- **Draws**: nanoseconds per 64-bit draw, per shuffle of a 52-card deck and per 89
  ids, for ``KeyedRng`` and ``FastRng`` (best of several repeats).
- **Games**: random legal playouts (as ``bench.engine``: ``to_act`` + ``legal_actions``
  + ``apply``) started by ``new(..., generator=...)`` on each generator, in rounds
  that alternate the two (keyed, splitmix64, keyed, ...), so a change in the
  machine's load hits both alike. Each round plays the same seeds on both; the
  report is actions/s per generator (median over rounds) and the median of the
  per-round ratios. The deals differ between generators (that is the point), so
  many playouts are averaged.

Bots are not affected: a search plays out sampled states, whose generator is the
fast one (the samplers store ``rng.getrandbits(64)``); ``bench.bots --speed``
measures them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from games.engine import Game, all_games, get
from games.engine.rng import FastRng, KeyedRng, fast_state, keyed_state

GENERATORS = ("keyed", "splitmix64")


def cpu_seconds(call: Callable[[], Any]) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def draw_costs(repeats: int = 7) -> dict[str, dict[str, float]]:
    """Nanoseconds per operation, best of ``repeats``, for each generator."""
    makers: dict[str, Callable[[], Any]] = {
        "keyed": lambda: KeyedRng(keyed_state(12345)),
        "splitmix64": lambda: FastRng(fast_state(12345)),
    }
    costs: dict[str, dict[str, float]] = {}
    for name, make in makers.items():

        def draws(make: Callable[[], Any] = make) -> None:
            rng = make()
            for _ in range(20_000):
                rng.next64()

        def shuffles(make: Callable[[], Any] = make) -> None:
            rng = make()
            for _ in range(500):
                rng.shuffled(range(52))

        def ids(make: Callable[[], Any] = make) -> None:
            for _ in range(300):
                make().unique_tokens(89)

        costs[name] = {
            "draw": min(cpu_seconds(draws) for _ in range(repeats)) / 20_000 * 1e9,
            "shuffle of 52": min(cpu_seconds(shuffles) for _ in range(repeats)) / 500 * 1e9,
            "89 ids": min(cpu_seconds(ids) for _ in range(repeats)) / 300 * 1e9,
        }
    return costs


def play(game: Game[Any], players: int, seeds: range, generator: str) -> int:
    actions = 0
    for seed in seeds:
        chooser = random.Random(seed)
        state = game.new(players, seed, generator=generator)
        while waiting := game.to_act(state):
            seat = chooser.choice(waiting)
            state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
            actions += 1
    return actions


def game_costs(game: Game[Any], players: int, rounds: int, playouts: int) -> dict[str, float]:
    rates: dict[str, list[float]] = {name: [] for name in GENERATORS}
    ratios = []
    for number in range(rounds):
        seeds = range(10_000 + number * playouts, 10_000 + (number + 1) * playouts)
        round_rates = {}
        for name in GENERATORS if number % 2 == 0 else reversed(GENERATORS):
            started = time.process_time()
            actions = play(game, players, seeds, name)
            round_rates[name] = actions / max(time.process_time() - started, 1e-9)
            rates[name].append(round_rates[name])
        ratios.append(round_rates["keyed"] / round_rates["splitmix64"])
    return {
        "keyed": statistics.median(rates["keyed"]),
        "splitmix64": statistics.median(rates["splitmix64"]),
        "ratio": statistics.median(ratios),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", help="comma-separated slugs (default: every game but Booby-Trap)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds per game (default 15)")
    parser.add_argument(
        "--playouts", type=int, default=80, help="playouts per round and generator (default 80)"
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    print("| operation | keyed (ns) | splitmix64 (ns) | keyed / splitmix64 |")
    print("|---|--:|--:|--:|")
    costs = draw_costs()
    for operation in costs["keyed"]:
        keyed, fast = costs["keyed"][operation], costs["splitmix64"][operation]
        print(f"| {operation} | {keyed:,.0f} | {fast:,.0f} | {keyed / fast:.2f} |")

    # Booby-Trap's playouts are physics, not draws (a few hundred actions/s): left out by default.
    games = (
        [get(slug) for slug in args.games.split(",")]
        if args.games
        else [game for game in all_games() if game.slug != "booby-trap"]
    )
    print()
    print(
        f"| game | players | keyed actions/s | splitmix64 actions/s | keyed / splitmix64 (median of {args.rounds} rounds) |"
    )
    print("|---|--:|--:|--:|--:|")
    for game in games:
        players = max(game.min_players, min(args.players, game.max_players))
        found = game_costs(game, players, args.rounds, args.playouts)
        print(
            f"| {game.slug} | {players} | {found['keyed']:,.0f} | {found['splitmix64']:,.0f} "
            f"| {found['ratio']:.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
