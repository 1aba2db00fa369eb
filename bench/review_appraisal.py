"""How sure is a review's grade? The appraisal's numbers at several budgets.

    nice -n 10 .venv/bin/python -m bench.review_appraisal --game go-fox --positions 12

The post-game review grades a decision by the expert's estimate of what it cost
(games/review/expert.py, ``appraisal``): the seat's worth after the expert's action
minus after the one played, each played out on the same re-deals (common random
numbers). This takes positions with a real choice from seeded basic-vs-basic games,
lets the expert choose (at the review's budget), pairs its action with another legal
one picked at random (a player who chose otherwise), and appraises the pair at each
``--rounds``. It prints, per budget: the mean standard error of the cost, how far the
cost moves from the largest budget's (mean and worst, in points of reward: percentage
points of a chance to win), how many pairs change grade against the largest budget's,
and the seconds an appraisal takes; and checks that the same seed gives the same numbers.

    nice -n 10 .venv/bin/python -m bench.review_appraisal --game go-fox --whole

``--whole`` times a whole review instead: one seeded basic-vs-basic match, seat 0's
decisions each searched and (with a choice) appraised as the review's service does,
the search and the appraisal timed apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from games.bots import strategies
from games.engine import Game, get
from games.review import expert, grades


def positions(game: Game[Any], players: int, wanted: int, seed: int) -> list[tuple[Any, int]]:
    """(state, seat) with two or more legal actions, from seeded basic-vs-basic games."""
    basic = strategies.for_game(game).basic
    rng = random.Random(seed)
    found: list[tuple[Any, int]] = []
    deal = 0
    while len(found) < wanted:
        state = game.new(players, seed + deal)
        deal += 1
        choices = []
        while waiting := game.to_act(state):
            mover = waiting[0]
            if len(game.legal_actions(state, mover)) > 1:
                choices.append((state, mover))
            state = game.apply(state, mover, basic(game, game.view(state, mover), mover, rng))
        found.extend(rng.sample(choices, min(3, len(choices), wanted - len(found))))
    return found


def whole(game: Game[Any], players: int, seed: int) -> None:
    """One review of seat 0's decisions in a seeded basic-vs-basic match, timed."""
    basic = strategies.for_game(game).basic
    rng = random.Random(seed)
    iterations = expert.iterations_for(game.slug)
    rounds = expert.appraisal_rounds(iterations)
    state = game.new(players, seed)
    searching, appraising, decisions, forced = 0.0, 0.0, 0, 0
    costs: list[tuple[float, bool]] = []
    while waiting := game.to_act(state):
        mover = waiting[0]
        view = game.view(state, mover)
        action = basic(game, view, mover, rng)
        if mover == 0:
            decisions += 1
            started = time.perf_counter()
            best = expert.opinion(game, view, 0, match_id=seed, ply=decisions, iterations=iterations).action
            searched = time.perf_counter()
            searching += searched - started
            if len(game.legal_actions(state, 0)) > 1:
                found = expert.appraisal(
                    game, view, 0, best=best, played=action, match_id=seed, ply=decisions, rounds=rounds
                )
                costs.append(
                    (found.best - found.played, expert.action_key(best) == expert.action_key(action))
                )
                appraising += time.perf_counter() - searched
            else:
                forced += 1
        state = game.apply(state, mover, action)
    bands = [grades.grade_of(cost, agrees=agrees) for cost, agrees in costs]
    print(
        f"{game.slug}, {players} players: {decisions} decisions ({forced} forced), search {searching:.1f} s, "
        f"appraisal {appraising:.1f} s ({rounds} rounds); basic's grades: "
        f"{ {grade.word: bands.count(grade) for grade in dict.fromkeys(bands)} }"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="go-fox")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rounds", default="25,50,100,200,400")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--whole", action="store_true", help="time a whole review instead")
    arguments = parser.parse_args(argv)
    game = get(arguments.game)
    if arguments.whole:
        whole(game, arguments.players, arguments.seed)
        return
    budgets = sorted(int(rounds) for rounds in arguments.rounds.split(","))
    iterations = expert.iterations_for(game.slug)
    errors: dict[int, list[float]] = {rounds: [] for rounds in budgets}
    moves: dict[int, list[float]] = {rounds: [] for rounds in budgets}
    regraded = dict.fromkeys(budgets, 0)
    seconds: dict[int, list[float]] = {rounds: [] for rounds in budgets}
    costs = []
    rng = random.Random(arguments.seed)
    for index, (state, seat) in enumerate(
        positions(game, arguments.players, arguments.positions, arguments.seed)
    ):
        view = game.view(state, seat)
        best = expert.opinion(game, view, seat, match_id=0, ply=index, iterations=iterations).action
        others = [
            a for a in game.legal_actions(state, seat) if expert.action_key(a) != expert.action_key(best)
        ]
        played = rng.choice(others)
        found = {}
        for rounds in budgets:
            started = time.perf_counter()
            found[rounds] = expert.appraisal(
                game, view, seat, best=best, played=played, match_id=0, ply=index, rounds=rounds
            )
            seconds[rounds].append(time.perf_counter() - started)
        again = expert.appraisal(
            game, view, seat, best=best, played=played, match_id=0, ply=index, rounds=budgets[0]
        )
        assert again == found[budgets[0]], "the same seed gave other numbers"
        reference = found[budgets[-1]]
        costs.append(reference.best - reference.played)
        for rounds in budgets:
            cost = found[rounds].best - found[rounds].played
            errors[rounds].append(found[rounds].error)
            moves[rounds].append(abs(cost - costs[-1]))
            same = grades.grade_of(cost, agrees=False) == grades.grade_of(costs[-1], agrees=False)
            regraded[rounds] += not same
        print(
            f"  position {index}: cost {costs[-1]:+.3f} ± {reference.error:.3f} ({budgets[-1]} rounds)",
            flush=True,
        )
    print(
        f"{game.slug}, {arguments.players} players, {len(costs)} positions, expert at {iterations} playouts:"
    )
    for rounds in budgets:
        print(
            f"  {rounds:4d} rounds: standard error {statistics.fmean(errors[rounds]):.3f}, "
            f"off the {budgets[-1]}'s cost by {statistics.fmean(moves[rounds]):.3f} (worst {max(moves[rounds]):.3f}), "
            f"{regraded[rounds]} of {len(costs)} graded otherwise, {statistics.fmean(seconds[rounds]):.2f} s"
        )
    bands = [grades.grade_of(cost, agrees=False).word for cost in costs]
    print("  grades at the largest budget:", {word: bands.count(word) for word in dict.fromkeys(bands)})


if __name__ == "__main__":
    main()
