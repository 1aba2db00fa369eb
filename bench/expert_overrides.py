"""Are the expert's departures from basic good? Decision quality, without whole matches.

    nice -n 10 .venv/bin/python -m bench.expert_overrides --game dont-go-boom --iterations 1000
    nice -n 10 .venv/bin/python -m bench.expert_overrides --game ka-blam --iterations 300 --tree-depth 1

The expert (games/bots/search.py) starts from basic's move and plays another only
when its playouts say so. Whether that makes it stronger is the whole question, and
a match answers it slowly (tens of seconds a game, hundreds of games for a few
points of win rate). This asks it directly, position by position:

1. Seeded games of basic against basic give positions where a seat has a real
   choice (two or more legal actions); ``--per-game`` of them per game, at random.
2. The expert searches each position from the seat's view (fixed ``--iterations``,
   seeded, so a run is reproducible). Where it keeps basic's move nothing changes.
3. Where it departs ("an override"), both moves are scored the way a match would
   score them: ``--continuations`` times, re-deal what the seat cannot see
   (``game.sample``), play the move, then basic for every seat to the end; the same
   re-deal and the same random source for both moves, so the luck cancels and the
   difference is the moves'. The reward is search.reward (win 1, loss 0, two
   players).

It prints every override with its gain (expert's move minus basic's, in expected
reward) and the mean gain per override with its standard error. A positive mean
means the departures win games basic would not; times the overrides' share of
decisions and the decisions in a game, it is roughly the win rate above 50% that
the expert can reach against basic. The continuations are basic's, not the
expert's own later play, so this measures one decision at a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from games.bots import search, strategies
from games.engine import Game, get


def finish(game: Game[Any], state: Any, seat: int, basic: search.Policy, rng: random.Random) -> float:
    """``seat``'s reward when every seat plays basic from ``state`` to the end."""
    while waiting := game.to_act(state):
        mover = waiting[0]
        state = game.apply(state, mover, basic(game, game.view(state, mover), mover, rng))
    result = game.result(state)
    assert result is not None
    return search.reward(result, seat)


def positions(
    game: Game[Any], players: int, games: int, per_game: int, basic: search.Policy, seed: int
) -> list[tuple[Any, int]]:
    """(state, seat) where the seat has a real choice, from seeded basic-vs-basic games."""
    rng = random.Random(seed)
    found: list[tuple[Any, int]] = []
    for deal in range(games):
        state = game.new(players, seed + deal)
        choices = []
        while waiting := game.to_act(state):
            mover = waiting[0]
            if len(game.legal_actions(state, mover)) > 1:
                choices.append((state, mover))
            state = game.apply(state, mover, basic(game, game.view(state, mover), mover, rng))
        found.extend(rng.sample(choices, min(per_game, len(choices))))
    return found


def gain(
    game: Game[Any],
    view: dict[str, Any],
    seat: int,
    move: dict[str, Any],
    instead: dict[str, Any],
    basic: search.Policy,
    continuations: int,
    rng: random.Random,
) -> float:
    """The expected reward of ``move`` minus that of ``instead`` (common random numbers)."""
    differences = []
    for _ in range(continuations):
        dealt = game.sample(view, seat, rng)
        luck = rng.random()
        with_move = finish(game, game.apply(dealt, seat, move), seat, basic, random.Random(luck))
        with_other = finish(game, game.apply(dealt, seat, instead), seat, basic, random.Random(luck))
        differences.append(with_move - with_other)
    return statistics.fmean(differences)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="dont-go-boom")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40, help="basic-vs-basic games to take positions from")
    parser.add_argument("--per-game", type=int, default=3, help="positions taken from each game")
    parser.add_argument("--iterations", type=int, default=1000, help="the expert's playouts per decision")
    parser.add_argument("--tree-depth", type=int, default=search.DEFAULT_TREE_DEPTH)
    parser.add_argument("--rollout-depth", type=int, default=None, help="default: the game's own")
    parser.add_argument(
        "--duel-depth", type=int, default=None, help="playout actions in the duel (default: as the tree's)"
    )
    parser.add_argument(
        "--challengers", type=int, default=1, help="the tree's best moves that duel basic's (default 1)"
    )
    parser.add_argument("--continuations", type=int, default=60, help="re-deals per override and move")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)

    game = get(arguments.game)
    basic = strategies.for_game(game).basic
    started = time.perf_counter()
    chosen = positions(game, arguments.players, arguments.games, arguments.per_game, basic, arguments.seed)
    gains = []
    for index, (state, seat) in enumerate(chosen):
        view = game.view(state, seat)
        found = search.search(
            game,
            view,
            seat,
            random.Random(index),
            max_iterations=arguments.iterations,
            tree_depth=arguments.tree_depth,
            rollout_depth=arguments.rollout_depth,
            duel_depth=arguments.duel_depth,
            challengers=arguments.challengers,
        )
        if found.prior is None or found.action == found.prior:
            continue
        gains.append(
            gain(
                game,
                view,
                seat,
                found.action,
                found.prior,
                basic,
                arguments.continuations,
                random.Random(1000 + index),
            )
        )
        print(f"  position {index}: {found.action} instead of {found.prior}: {gains[-1]:+.3f}", flush=True)
    mean = statistics.fmean(gains) if gains else 0.0
    error = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
    print(
        f"{arguments.game}, {arguments.players} players, {arguments.iterations} iterations, tree depth "
        f"{arguments.tree_depth}, duel depth {arguments.duel_depth or 'as the tree'}, {arguments.challengers} challenger(s): {len(chosen)} positions, {len(gains)} overrides "
        f"({len(gains) / max(1, len(chosen)):.0%}), mean gain per override {mean:+.4f} "
        f"(standard error {error:.4f}); {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
