"""How strong the bots are: seeded games between two levels, seats swapped, with CIs.

    nice -n 10 .venv/bin/python -m bench.bots --game dont-go-boom --a basic --b random --games 200
    nice -n 10 .venv/bin/python -m bench.bots --game boom-box --a expert --b basic --games 60 --budget 0.1
    nice -n 10 .venv/bin/python -m bench.bots --all --games 100 --expert-games 40 --iterations 100 \
        --slow-games 6 --slow-iterations 20
    nice -n 10 .venv/bin/python -m bench.bots --all --pairs expert-basic --players-list 2 --iterations 100
    nice -n 10 .venv/bin/python -m bench.bots --speed --budget 1.0

A match is level A in one seat and level B in every other seat. Games come in groups
of ``players``: one seeded deal per group, played once with A in each seat in turn
(so two-player deals are played twice, seats swapped), which cancels the deal's and
the seat's luck. Every bot has its own seeded ``random.Random``, so a run is
reproducible (an expert with a time budget depends on the machine's speed; with
``--iterations`` it does not).

Reported for A: its **score**, a win counting 1 and a first place shared by k seats
1/k (two players: win 1, draw 0.5, loss 0), over the games, with a Wilson 95%
confidence interval and a second one by whole deals (``deal_interval``: the luck of
the cards cancels within a deal, so it is narrower); wins/draws/losses; and the average rank of A and of the B seats
(1 is best). With equal levels the score is 1/players. An expert's playouts (its ISMCTS iterations,
see games/bots/search.py) per second are reported too, per second of the process's
CPU time: the machine is shared, and the wall clock would count other jobs' time.

Levels are played through ``games.bots.choose_action``, except ``expert``, which
calls ``games.bots.search.search`` directly so that ``--budget`` (seconds per
decision) or ``--iterations`` replace the site's 1-second default. Games run in at
most two processes (the machine has two cores shared with other work).

``--all`` runs the issue's matrix (each level against the one below, two-player and
four-player forms, every competitive game; ``--pairs``, ``--players-list`` and
``--games-list`` narrow it) and prints a Markdown table for bench/README.md. It takes the
same ``--games``/``--budget``/``--iterations``, plus ``--expert-games`` for matches
with an expert and ``--slow-games``/``--slow-iterations`` for those of the slow games
(Booby-Trap), so the whole matrix fits in minutes; ``--speed`` measures the expert's playouts per CPU second per game, with the
game's own playout policy, on positions from seeded random play, one process.
``--record FILE`` appends each game of a match as a JSON line and ``--pool FILE ...``
summarizes recorded runs as one match; ``--a open-hands`` is the expert's search seeing
every hand (``OpenHandsGame``), not a level of the site. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, cast

from games.bots import LEVELS, choose_action, search
from games.engine import Game, get

PROCESSES = 2
EXPERT = "expert"
# Not a level of the site: the expert's search, seeing every hand (``OpenHandsGame``).
# What it scores against basic is what reading the hidden hands could be worth at most.
OPEN_HANDS = "open-hands"
BENCH_LEVELS = (*LEVELS, OPEN_HANDS)
# The matrix of --all: (game, players, stronger level, weaker level). It's a Bomb! is
# cooperative (its bots are measured by scenario win rates, not against each other).
MATRIX_GAMES = ("dont-go-boom", "boom-box", "booby-trap", "ka-blam", "go-fox", "read-and-grab")
MATRIX_PAIRS = (("basic", "random"), ("expert", "basic"))
MATRIX_PLAYERS = (2, 4)
# Games whose playouts are much slower than the others' (Booby-Trap runs physics on
# every take: about 40 playouts/s against 300-1,700): --all gives their expert
# matches --slow-games games and --slow-iterations iterations when those are set.
SLOW_GAMES = ("booby-trap",)
# --speed: positions per game, taken from seeded random play at spread-out moves.
SPEED_POSITIONS = 5
Z95 = 1.959963984540054
# ``deal_interval`` needs this many whole deals for its normal approximation.
MIN_DEALS = 20


@dataclass(frozen=True)
class Settings:
    game: str
    players: int
    a: str
    b: str
    budget: float | None
    iterations: int | None
    first_seed: int


@dataclass(frozen=True)
class Outcome:
    """One game, from A's side."""

    a_score: float
    a_rank: int
    b_rank: float
    a_place: str  # "win", "draw" (first place shared) or "loss"
    expert_playouts: int
    expert_seconds: float
    seconds: float


@dataclass(frozen=True)
class Summary:
    settings: Settings
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    # The same score's 95% interval from whole deals (see ``deal_interval``): None
    # until there are enough of them.
    deal_low: float | None
    deal_high: float | None
    a_rank: float
    # The standard error of A's average rank: with equal play A's and B's average
    # ranks match, so this says whether a multi-player edge is more than luck.
    a_rank_error: float
    b_rank: float
    expert_playouts_per_second: float | None
    seconds_per_game: float


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (draws count as half successes)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def deal_interval(scores: Sequence[float], players: int, z: float = Z95) -> tuple[float, float] | None:
    """A 95% interval for A's mean score that counts each deal once.

    A match plays every deal ``players`` times, A in each seat in turn, so the cards'
    luck falls on A and on B alike: when both play the same moves, A's average over
    a deal's games is exactly its equal share. The deals' averages are independent,
    so their spread gives the interval (normal, from at least ``MIN_DEALS`` whole
    deals); it is narrower than the games' Wilson interval when the two levels mostly
    agree, because a deal only moves A's score through the moves where they differ.
    """
    deals = [
        statistics.fmean(scores[start : start + players])
        for start in range(0, len(scores) - len(scores) % players, players)
    ]
    if len(deals) < MIN_DEALS:
        return None
    mean = statistics.fmean(deals)
    half = z * statistics.stdev(deals) / math.sqrt(len(deals))
    return max(0.0, mean - half), min(1.0, mean + half)


class OpenHandsGame:
    """A game whose ``sample`` hands the searching seat the true state with only the
    pick-up pile reshuffled (and the state's random source redrawn, so later reshuffles
    and deals stay unknown): every hand open, the pile's order hidden. Everything else
    is the wrapped game's."""

    def __init__(self, game: Game[Any], truth: Any) -> None:
        self._game = game
        self._truth = truth

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> Any:
        pile = list(self._truth.pile)
        rng.shuffle(pile)
        return replace(self._truth, pile=tuple(pile), rng=rng.getrandbits(31))


def has_open_hands_form(game: Game[Any]) -> bool:
    """Whether ``OPEN_HANDS`` can play ``game``: its hidden parts are hands and a pile."""
    names = {field.name for field in fields(game.new(game.min_players, 0))}
    return {"hands", "pile", "rng"} <= names


def decide(
    game: Game[Any],
    state: Any,
    seat: int,
    level: str,
    rng: random.Random,
    settings: Settings,
) -> tuple[dict[str, Any], int, float]:
    """The level's action, and for an expert its playouts and search time."""
    view = game.view(state, seat)
    if level not in (EXPERT, OPEN_HANDS):
        return choose_action(game, view, seat, level, rng), 0, 0.0
    searched = cast(Game[Any], OpenHandsGame(game, state)) if level == OPEN_HANDS else game
    found = search.search(
        searched, view, seat, rng, budget_seconds=settings.budget, max_iterations=settings.iterations
    )
    return found.action, found.playouts, found.cpu_seconds


def play_one(task: tuple[Settings, int]) -> Outcome:
    """Game ``index`` of a match: deal ``index // players``, A in seat ``index % players``."""
    settings, index = task
    game = get(settings.game)
    seed = settings.first_seed + index // settings.players
    a_seat = index % settings.players
    levels = [settings.a if seat == a_seat else settings.b for seat in range(settings.players)]
    # Each bot its own generator, seeded from the game and seat (str seeds hash stably).
    rngs = [random.Random(f"{settings.game}:{seed}:{a_seat}:{seat}") for seat in range(settings.players)]
    started = time.perf_counter()
    state = game.new(settings.players, seed)
    playouts, searching = 0, 0.0
    while waiting := game.to_act(state):
        # Several seats may owe a decision at once (a simultaneous choice): they
        # decide one at a time from their own views, which hide each other's choices.
        seat = waiting[0]
        action, played, seconds = decide(game, state, seat, levels[seat], rngs[seat], settings)
        playouts += played
        searching += seconds
        state = game.apply(state, seat, action)
    result = game.result(state)
    assert result is not None
    ranks: list[int] = result["ranks"]
    a_rank = ranks[a_seat]
    sharing = ranks.count(a_rank)
    b_ranks = [rank for seat, rank in enumerate(ranks) if seat != a_seat]
    return Outcome(
        a_score=1 / sharing if a_rank == 1 else 0.0,
        a_rank=a_rank,
        b_rank=statistics.fmean(b_ranks),
        a_place="loss" if a_rank != 1 else ("win" if sharing == 1 else "draw"),
        expert_playouts=playouts,
        expert_seconds=searching,
        seconds=time.perf_counter() - started,
    )


def run_match(
    settings: Settings, games: int, processes: int = PROCESSES, record: Path | None = None
) -> Summary:
    tasks = [(settings, index) for index in range(games)]
    outcomes: list[Outcome] = []
    for index, outcome in enumerate(_map(play_one, tasks, processes)):
        outcomes.append(outcome)
        if record is not None:
            with record.open("a") as lines:
                lines.write(json.dumps(record_line(settings, index, outcome)) + "\n")
        # A running score on stderr every 10 games: a long run cut short still tells
        # something (whole seat-swapped groups are only guaranteed at the end).
        if len(outcomes) % 10 == 0 and len(outcomes) < games:
            so_far = summarize(settings, outcomes)
            print(
                f"  {len(outcomes)}/{games} games: A score {so_far.score:.1%} "
                f"({so_far.low:.1%}-{so_far.high:.1%}), {so_far.seconds_per_game:.1f} s per game",
                file=sys.stderr,
                flush=True,
            )
    return summarize(settings, outcomes)


# -- Records: one JSON line per game, so that runs on other deals can be pooled ----


def record_line(settings: Settings, index: int, outcome: Outcome) -> dict[str, Any]:
    """Game ``index`` of a match as one JSON-ready line: its deal's seed, A's seat, the outcome."""
    match = asdict(settings)
    del match["first_seed"]
    return {
        **match,
        "deal": settings.first_seed + index // settings.players,
        "a_seat": index % settings.players,
        **asdict(outcome),
    }


def pool_records(paths: Sequence[Path]) -> Summary:
    """One summary of the games recorded in ``paths`` (``--record``), by whole deals.

    Every line must come from the same match (game, players, levels, budget); a deal
    recorded twice (the same deal and seat again) is refused, and a deal not played
    from every seat (a run cut short) is left out, so every deal counted cancels its
    luck as in one run.
    """
    lines = [json.loads(line) for path in paths for line in path.read_text().splitlines() if line.strip()]
    if not lines:
        raise ValueError("no games recorded in " + ", ".join(map(str, paths)))
    match_fields = ("game", "players", "a", "b", "budget", "iterations")
    first = lines[0]
    by_deal: dict[int, dict[int, Outcome]] = {}
    outcome_fields = [field.name for field in fields(Outcome)]
    for line in lines:
        differing = [field for field in match_fields if line[field] != first[field]]
        if differing:
            raise ValueError(f"deal {line['deal']} comes from another match ({', '.join(differing)} differ)")
        seats = by_deal.setdefault(line["deal"], {})
        if line["a_seat"] in seats:
            raise ValueError(f"deal {line['deal']} with A in seat {line['a_seat']} is recorded twice")
        seats[line["a_seat"]] = Outcome(**{field: line[field] for field in outcome_fields})
    players: int = first["players"]
    whole = sorted(deal for deal, seats in by_deal.items() if len(seats) == players)
    if not whole:
        raise ValueError("no deal was recorded from every seat")
    settings = Settings(
        game=first["game"],
        players=players,
        a=first["a"],
        b=first["b"],
        budget=first["budget"],
        iterations=first["iterations"],
        first_seed=whole[0],
    )
    outcomes = [by_deal[deal][seat] for deal in whole for seat in range(players)]
    return summarize(settings, outcomes)


def _map(function: Any, tasks: Sequence[Any], processes: int) -> Iterator[Any]:
    """``function`` over ``tasks``, results in order as they come, in at most two processes."""
    if processes <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield function(task)
        return
    with multiprocessing.Pool(min(processes, PROCESSES)) as pool:
        yield from pool.imap(function, tasks, chunksize=1)


def summarize(settings: Settings, outcomes: Sequence[Outcome]) -> Summary:
    games = len(outcomes)
    score = sum(outcome.a_score for outcome in outcomes)
    low, high = wilson(score, games)
    by_deal = deal_interval([outcome.a_score for outcome in outcomes], settings.players)
    searching = sum(outcome.expert_seconds for outcome in outcomes)
    has_expert = _searches(settings)
    return Summary(
        settings=settings,
        games=games,
        wins=sum(outcome.a_place == "win" for outcome in outcomes),
        draws=sum(outcome.a_place == "draw" for outcome in outcomes),
        losses=sum(outcome.a_place == "loss" for outcome in outcomes),
        score=score / games,
        low=low,
        high=high,
        deal_low=by_deal[0] if by_deal else None,
        deal_high=by_deal[1] if by_deal else None,
        a_rank=statistics.fmean(outcome.a_rank for outcome in outcomes),
        a_rank_error=(
            statistics.stdev(outcome.a_rank for outcome in outcomes) / math.sqrt(games) if games > 1 else 0.0
        ),
        b_rank=statistics.fmean(outcome.b_rank for outcome in outcomes),
        expert_playouts_per_second=(
            sum(outcome.expert_playouts for outcome in outcomes) / searching
            if has_expert and searching > 0
            else None
        ),
        seconds_per_game=statistics.fmean(outcome.seconds for outcome in outcomes),
    )


def _searches(settings: Settings) -> bool:
    return bool({EXPERT, OPEN_HANDS} & {settings.a, settings.b})


def describe(summary: Summary) -> str:
    settings = summary.settings
    lines = [
        f"{settings.game}, {settings.players} players: {settings.a} (A) vs {settings.b} (B), "
        f"{summary.games} games",
        f"  A score {summary.score:.1%} (95% CI {summary.low:.1%}-{summary.high:.1%}); "
        f"wins/draws/losses {summary.wins}/{summary.draws}/{summary.losses}; "
        f"equal play would give {1 / settings.players:.1%}",
        f"  by whole deals: 95% CI {_deal_interval_text(summary)}",
        f"  average rank: A {summary.a_rank:.2f} (standard error {summary.a_rank_error:.2f}), "
        f"B {summary.b_rank:.2f} (1 is best; equal play gives both the same)",
        f"  {summary.seconds_per_game:.2f} s per game",
    ]
    if summary.expert_playouts_per_second is not None:
        lines.append(
            f"  expert: {expert_budget(settings)}, {summary.expert_playouts_per_second:,.0f} playouts/s"
        )
    return "\n".join(lines)


def _deal_interval_text(summary: Summary) -> str:
    if summary.deal_low is None or summary.deal_high is None:
        return f"- (fewer than {MIN_DEALS} whole deals)"
    return f"{summary.deal_low:.1%}-{summary.deal_high:.1%}"


def expert_budget(settings: Settings) -> str:
    if settings.iterations is not None:
        return f"{settings.iterations} iterations per decision"
    return (
        f"{settings.budget if settings.budget is not None else search.DEFAULT_BUDGET_SECONDS} s per decision"
    )


def table(summaries: Iterable[Summary]) -> str:
    lines = [
        "| game | players | A vs B | games | A score (95% CI) | by whole deals | A wins/draws/losses "
        "| avg rank A ± SE / B | expert budget | expert playouts/s |",
        "|---|--:|---|--:|---|---|---|---|---|--:|",
    ]
    for summary in summaries:
        settings = summary.settings
        expert = _searches(settings)
        rate = summary.expert_playouts_per_second
        lines.append(
            f"| {settings.game} | {settings.players} | {settings.a} vs {settings.b} | {summary.games} "
            f"| {summary.score:.0%} ({summary.low:.0%}-{summary.high:.0%}) "
            f"| {_deal_interval_text(summary)} "
            f"| {summary.wins}/{summary.draws}/{summary.losses} "
            f"| {summary.a_rank:.2f} ± {summary.a_rank_error:.2f} / {summary.b_rank:.2f} "
            f"| {expert_budget(settings) if expert else '-'} | {f'{rate:,.0f}' if rate else '-'} |"
        )
    return "\n".join(lines)


# -- Speed -------------------------------------------------------------------------


def speed_positions(game: Game[Any], players: int, count: int, seed: int) -> list[tuple[dict[str, Any], int]]:
    """Views of seats with a real choice (2+ legal actions), spread over seeded random games."""
    positions: list[tuple[dict[str, Any], int]] = []
    chooser = random.Random(seed)
    game_seed = seed
    while len(positions) < count:
        state = game.new(players, game_seed)
        game_seed += 1
        history = []
        while waiting := game.to_act(state):
            seat = chooser.choice(waiting)
            actions = game.legal_actions(state, seat)
            if len(actions) > 1:
                history.append((state, seat))
            state = game.apply(state, seat, chooser.choice(actions))
        if history:
            # One position per game, at a different stage each time.
            state, seat = history[(len(positions) * len(history)) // count]
            positions.append((game.view(state, seat), seat))
    return positions


def measure_speed(slug: str, players: int, budget: float, positions: int) -> tuple[float, float, float]:
    """Median, lowest and highest expert playouts/s over ``positions`` decisions."""
    game = get(slug)
    rates = []
    for index, (view, seat) in enumerate(speed_positions(game, players, positions, seed=1000)):
        found = search.search(game, view, seat, random.Random(index), budget_seconds=budget)
        rates.append(found.playouts_per_cpu_second)
    return statistics.median(rates), min(rates), max(rates)


def speed_table(slugs: Sequence[str], players: Sequence[int], budget: float, positions: int) -> str:
    lines = [
        f"| game | players | expert playouts/s (median of {positions} positions) | lowest | highest |",
        "|---|--:|--:|--:|--:|",
    ]
    for slug in slugs:
        for count in players:
            game = get(slug)
            if not game.min_players <= count <= game.max_players:
                continue
            median, lowest, highest = measure_speed(slug, count, budget, positions)
            lines.append(f"| {slug} | {count} | {median:,.0f} | {lowest:,.0f} | {highest:,.0f} |")
            print(f"  {slug} {count}p done", file=sys.stderr, flush=True)
    return "\n".join(lines)


# -- Command line ------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="dont-go-boom", help="game slug (default dont-go-boom)")
    parser.add_argument("--a", default="basic", choices=BENCH_LEVELS, help="the level measured (one seat)")
    parser.add_argument(
        "--b", default="random", choices=BENCH_LEVELS, help="the opponents' level (other seats)"
    )
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument(
        "--expert-games",
        type=int,
        default=None,
        help="--all: games per match with an expert (default --games)",
    )
    parser.add_argument(
        "--slow-games",
        type=int,
        default=None,
        help=f"--all: games per expert match in {', '.join(SLOW_GAMES)} (default as the others)",
    )
    parser.add_argument(
        "--slow-iterations",
        type=int,
        default=None,
        help=f"--all: expert iterations per decision in {', '.join(SLOW_GAMES)} (default --iterations)",
    )
    parser.add_argument("--players", type=int, default=2, help="player count (default 2)")
    parser.add_argument(
        "--budget", type=float, default=None, help="expert: seconds per decision (default 1 s, the site's)"
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="expert: fixed iterations per decision instead of a budget",
    )
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    parser.add_argument("--processes", type=int, default=PROCESSES, help="at most 2 (default 2)")
    parser.add_argument(
        "--all", action="store_true", help="run the issue's matrix and print a Markdown table"
    )
    parser.add_argument(
        "--games-list", default=",".join(MATRIX_GAMES), help="--all/--speed: comma-separated slugs"
    )
    parser.add_argument(
        "--players-list", default=",".join(map(str, MATRIX_PLAYERS)), help="--all/--speed: player counts"
    )
    parser.add_argument(
        "--pairs",
        default=",".join(f"{strong}-{weak}" for strong, weak in MATRIX_PAIRS),
        help="--all: the matches, as A-B level pairs (default basic-random,expert-basic)",
    )
    parser.add_argument("--speed", action="store_true", help="measure expert playouts/s per game")
    parser.add_argument(
        "--record",
        type=Path,
        default=None,
        help="append every game of the match to this file, a JSON line each",
    )
    parser.add_argument(
        "--pool",
        type=Path,
        nargs="+",
        default=None,
        help="summarize the games recorded in these files (--record) as one match, by whole deals",
    )
    arguments = parser.parse_args(argv)
    processes = max(1, min(arguments.processes, PROCESSES))
    slugs = [slug.strip() for slug in arguments.games_list.split(",") if slug.strip()]
    player_counts = [int(count) for count in arguments.players_list.split(",") if count.strip()]
    pairs = [tuple(pair.strip().split("-", 1)) for pair in arguments.pairs.split(",") if pair.strip()]
    for pair in pairs:
        if len(pair) != 2 or not set(pair) <= set(LEVELS):
            parser.error(f"--pairs: {'-'.join(pair)!r} is not two levels joined by '-'")
    machine = f"Python {platform.python_version()} on {platform.machine()}"

    if arguments.pool:
        try:
            pooled = pool_records(arguments.pool)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--pool: {error}")
        print(describe(pooled))
        print(
            f"  {pooled.games // pooled.settings.players} whole deals, the first {pooled.settings.first_seed}"
        )
        return

    if arguments.speed:
        budget = arguments.budget if arguments.budget is not None else search.DEFAULT_BUDGET_SECONDS
        print(
            f"Expert (ISMCTS) playouts per CPU second, the games' own playout policies, "
            f"{budget} s per decision, one process; {machine}.\n"
        )
        print(speed_table(slugs, player_counts, budget, SPEED_POSITIONS))
        return

    if arguments.all:
        summaries = []
        for slug in slugs:
            game = get(slug)
            slow = slug in SLOW_GAMES
            for players in player_counts:
                if not game.min_players <= players <= game.max_players:
                    continue
                for strong, weak in pairs:
                    iterations = arguments.iterations
                    if slow and arguments.slow_iterations is not None:
                        iterations = arguments.slow_iterations
                    settings = Settings(
                        slug, players, strong, weak, arguments.budget, iterations, arguments.seed
                    )
                    games = arguments.games
                    if "expert" in (strong, weak):
                        if slow and arguments.slow_games is not None:
                            games = arguments.slow_games
                        elif arguments.expert_games is not None:
                            games = arguments.expert_games
                    # Whole groups: every deal played with A in each seat.
                    games = max(players, games - games % players)
                    summary = run_match(settings, games, processes)
                    summaries.append(summary)
                    print(describe(summary), file=sys.stderr, flush=True)
        print(f"Seeded games, seats rotated over each deal; {machine}.\n")
        print(table(summaries))
        return

    if OPEN_HANDS in (arguments.a, arguments.b) and not has_open_hands_form(get(arguments.game)):
        parser.error(
            f"{OPEN_HANDS} needs a game whose hidden parts are hands and a pile, not {arguments.game}"
        )
    settings = Settings(
        arguments.game,
        arguments.players,
        arguments.a,
        arguments.b,
        arguments.budget,
        arguments.iterations,
        arguments.seed,
    )
    # Whole groups: every deal played with A in each seat.
    games = max(settings.players, arguments.games - arguments.games % settings.players)
    summary = run_match(settings, games, processes, arguments.record)
    print(describe(summary))


if __name__ == "__main__":
    main()
