"""How fast the engine plays: random legal playouts, and the codec, per game and player count.

    nice -n 10 .venv/bin/python -m bench.engine                 # every registered game
    nice -n 10 .venv/bin/python -m bench.engine --games dont-go-boom,boom-box --seconds 60

For each game and player count (default options), ``--repeats`` batches of seeded
random playouts (each batch its own seeds) are timed on one core and the **median**
batch rate is reported (on a shared machine the median is steadier than the best). A playout picks a waiting
seat and one of its legal actions uniformly at random until the game ends, so an
"action" costs ``to_act`` + ``legal_actions`` + ``apply``, as it does for a bot.
encode/decode are timed over states spread over one playout (early states are small,
late ones carry the whole log), without the JSON text step. Prints a Markdown table
for the README. See bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Game, all_games, get

# Each (game, player count) gets an equal share of the budget; at least this many
# playouts are timed per repeat, however slow the game.
MIN_PLAYOUTS = 1
MAX_PLAYOUTS = 2_000
CODEC_ROUNDS = 3
SEEDS_PER_CELL = 10**6
# States of one playout the codec is timed on, spread from the first to the last.
CODEC_STATES = 40


@dataclass(frozen=True)
class Row:
    game: str
    players: int
    playouts: int
    actions_per_playout: float
    actions_per_second: float
    playouts_per_second: float
    encodes_per_second: float
    decodes_per_second: float


def playout_states(game: Game[Any], players: int, seed: int) -> list[Any]:
    """Every state of one random legal playout (for calibration and the codec timing)."""
    chooser = random.Random(seed)
    state = game.new(players, seed)
    states = [state]
    while waiting := game.to_act(state):
        seat = chooser.choice(waiting)
        state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def play_many(game: Game[Any], players: int, seeds: Sequence[int]) -> int:
    """The timed loop: random legal playouts of ``seeds``, counting actions, keeping nothing."""
    total = 0
    for seed in seeds:
        chooser = random.Random(seed)
        state = game.new(players, seed)
        while True:
            waiting = game.to_act(state)
            if not waiting:
                break
            seat = chooser.choice(waiting)
            state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
            total += 1
    return total


def timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def measure(
    game: Game[Any], players: int, seconds: float, repeats: int, playouts: int | None, first_seed: int
) -> Row:
    """Time one cell. Every playout here, and in no other cell, has its own seed from
    ``first_seed`` on: a game that memoizes work (Booby-Trap keeps its physics settles)
    would otherwise time its cache."""
    # Calibrate: one playout's time says how many fit in this cell's share of the budget.
    calibration_seed = first_seed
    started = time.perf_counter()
    states = playout_states(game, players, calibration_seed)
    one = max(time.perf_counter() - started, 1e-6)
    if playouts is None:
        playouts = max(MIN_PLAYOUTS, min(MAX_PLAYOUTS, int(seconds * 0.8 / (repeats * one))))
    actions_rates, playout_rates, total_actions = [], [], 0
    for repeat in range(repeats):
        start = first_seed + 1 + repeat * playouts
        seeds = range(start, start + playouts)
        started = time.perf_counter()
        actions = play_many(game, players, seeds)
        elapsed = max(time.perf_counter() - started, 1e-9)
        actions_rates.append(actions / elapsed)
        playout_rates.append(playouts / elapsed)
        total_actions += actions

    states = states[:: max(1, len(states) // CODEC_STATES)] + states[-1:]
    encoded = [game.encode(state) for state in states]
    encode_time = min(timed(lambda: [game.encode(state) for state in states]) for _ in range(CODEC_ROUNDS))
    decode_time = min(timed(lambda: [game.decode(data) for data in encoded]) for _ in range(CODEC_ROUNDS))
    return Row(
        game=game.slug,
        players=players,
        playouts=playouts,
        actions_per_playout=total_actions / (playouts * repeats),
        actions_per_second=statistics.median(actions_rates),
        playouts_per_second=statistics.median(playout_rates),
        encodes_per_second=len(states) / max(encode_time, 1e-9),
        decodes_per_second=len(encoded) / max(decode_time, 1e-9),
    )


def table(rows: Sequence[Row], repeats: int) -> str:
    lines = [
        f"| game | players | playouts per repeat | actions / playout | actions / s (median of {repeats}) "
        "| playouts / s | encodes / s | decodes / s |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.players} | {row.playouts} | {row.actions_per_playout:,.0f} "
            f"| {row.actions_per_second:,.0f} | {row.playouts_per_second:,.1f} "
            f"| {row.encodes_per_second:,.0f} | {row.decodes_per_second:,.0f} |"
        )
    return "\n".join(lines)


def pin_to_one_core() -> str:
    """Run on one core, so that the figures are per core whatever the machine."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="", help="comma-separated slugs (default: every registered game)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="time budget for the whole run (default 60)"
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="timed repeats per cell; the median is reported"
    )
    parser.add_argument(
        "--playouts", type=int, default=None, help="playouts per repeat (default: fit the budget)"
    )
    arguments = parser.parse_args(argv)

    games = [get(slug.strip()) for slug in arguments.games.split(",") if slug.strip()] or all_games()
    if not games:
        sys.exit("No game is registered yet.")
    cells = [(game, players) for game in games for players in range(game.min_players, game.max_players + 1)]
    share = arguments.seconds / len(cells)
    pinned = pin_to_one_core()
    rows = []
    for index, (game, players) in enumerate(cells):
        first_seed = index * SEEDS_PER_CELL
        rows.append(measure(game, players, share, arguments.repeats, arguments.playouts, first_seed))
        print(f"  {game.slug} {players}p done", file=sys.stderr, flush=True)
    print(
        f"Random legal playouts, default options; median of {arguments.repeats} repeats on one core "
        f"({pinned}); Python {platform.python_version()} on {platform.machine()}.\n"
    )
    print(table(rows, arguments.repeats))


if __name__ == "__main__":
    main()
