"""The move path under load: real WebSocket clients playing at stepped rates, against
the site and, in the same run, a bare Channels consumer on the same channel layer.

    nice -n 10 .venv/bin/python -m bench.ws_load                       # embedded, ~4 minutes
    nice -n 10 .venv/bin/python -m bench.ws_load --matches 2 --rates 5 --step-seconds 3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/7 \\
        nice -n 10 .venv/bin/python -m bench.ws_load --processes 2

It starts the site's Daphne (``--processes`` of them; a match's two sockets go to
process ``match % processes``) and as many Daphnes serving ``bench/echo_site.py``, all
with the site's settings in a throwaway var folder, with DEBUG off (unless DEBUG is
set) and no Celery worker: a move between two people queues no task. Without
DATABASE_URL the database is SQLite there; with it, a throwaway PostgreSQL database
``bench_ws_<random>`` on that server, migrated first and dropped at the end. Without
REDIS_URL an embedded Redis runs there; with it, that Redis database (its number in
the URL) must be empty, since the run flushes it at the end.

Then, for each pair of ``--matches`` pairs of accounts, a two-player Don't Go Boom
match of the longest kind (most rounds), made through the services; a session per
player as a login makes it; one socket per player, with its cookie and the page's
origin. A player moves as ``static/js/match.js`` does: it takes an ``act-form`` of the
board its socket last pushed at the match's latest ply (a legal action, that board's
ply and action id) and sends exactly ``{type: "act", action, ply, action_id}``. Each
match keeps one move in flight and moves when its schedule says (its share of the
target rate, at a random phase); a move counts done when the mover has its ``acted``
and both sockets a board past the move's ply. A match that ends is replaced by a new
one for its pair (its sockets' openings fall in that step's CPU). Against the echo
consumer a move is an ``act`` sent to the pair's group, the opponent's board is the
group's push, and the players alternate.

For every target rate (moves per second across all matches) the site, then the echo,
plays ``--step-seconds``; in-flight moves are then waited for (``--drain-seconds`` at
most; one still unanswered counts lost). Per step: moves per second achieved (moves
sent in the step, over its length); act→acted and act→opponent's board p50, p95, p99;
server CPU per move (user + system time of the Daphne processes from
``/proc/<pid>/stat``, the drain included, over the step's moves); and the client's own
CPU, as a share of one core (near 100% the client, not the server, is the limit).

**Saturation**: the highest target rate at which the achieved rate is at least 90% of
the target and the opponent's board p99 at most ``--p99-bound-ms``. A target whose
last two steps missed it plays no higher rate. Printed with the site/baseline ratios.

Checked at the end (the exit code is 1 otherwise): no error message on any socket,
every move acknowledged exactly once (no ``acted`` missing, repeated or marked
duplicate), every move's board reached both players, and in the database each
match's ply advanced by exactly the moves acknowledged on it, with one stored move
per acknowledged action id.

The parts: ``bench/ws_servers.py`` (the database, Redis and Daphne processes),
``bench/ws_players.py`` (the accounts, matches and socket clients) and
``bench/echo_site.py`` (the baseline consumer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import shutil
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.ws_players import (
    EchoTarget,
    Move,
    Pair,
    SiteTarget,
    Step,
    Table,
    Tally,
    Target,
    make_pairs,
    start_match,
)
from bench.ws_servers import Storage, cpu_seconds, daphne, prepare_site, storage

SATURATION_SHARE = 0.9  # achieved / target at or above which a step keeps up
MISSES_BEFORE_STOP = 2  # steps in a row that miss saturation before a target stops climbing


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def client_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class StepResult:
    target: str
    rate: float
    seconds: float
    moves: int
    achieved: float
    acted_ms: list[float | None]
    own_board_ms: list[float | None]
    opponent_ms: list[float | None]
    server_cpu_ms_per_move: float | None
    client_cpu_share: float
    keeps_up: bool

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


SHARES = (0.5, 0.95, 0.99)


def _latencies(moves: list[Move], stamp: str) -> list[float | None]:
    ms = [(getattr(move, stamp) - move.sent) * 1000 for move in moves if getattr(move, stamp) is not None]
    return [percentile(ms, share) for share in SHARES]


async def run_step(target: Target, tables: list[Table], rate: float, args: argparse.Namespace) -> StepResult:
    pids = [server.process.pid for server in target.servers]
    server_before = sum(cpu_seconds(pid) for pid in pids)
    client_before = client_cpu_seconds()
    wall_before = time.monotonic()
    step = Step(rate, tables, wall_before, wall_before + args.step_seconds, args.drain_seconds)
    await asyncio.gather(*(table.play(step) for table in tables))
    server_cpu = sum(cpu_seconds(pid) for pid in pids) - server_before
    client_cpu = client_cpu_seconds() - client_before
    wall = time.monotonic() - wall_before
    done = [move for move in step.moves if move.settled and move.refused is None]
    achieved = len(step.moves) / args.step_seconds
    opponent = _latencies(done, "opponent_board")
    p99 = opponent[2]
    return StepResult(
        target=target.name,
        rate=rate,
        seconds=args.step_seconds,
        moves=len(step.moves),
        achieved=achieved,
        acted_ms=_latencies(done, "acted"),
        own_board_ms=_latencies(done, "own_board"),
        opponent_ms=opponent,
        server_cpu_ms_per_move=server_cpu * 1000 / len(step.moves) if step.moves else None,
        client_cpu_share=client_cpu / wall,
        keeps_up=achieved >= SATURATION_SHARE * rate and p99 is not None and p99 <= args.p99_bound_ms,
    )


async def run_all(
    targets: list[Target], args: argparse.Namespace, tallies: dict[str, Tally]
) -> tuple[list[StepResult], dict[str, list[Table]]]:
    rng = random.Random(args.seed)
    tables = {
        target.name: [
            Table(target, index, tallies[target.name], random.Random(rng.random()))
            for index in range(args.matches)
        ]
        for target in targets
    }
    for target in targets:
        log(f"opening {2 * args.matches} sockets on the {target.name}")
        for table in tables[target.name]:
            await table.open()
    results: list[StepResult] = []
    misses = {target.name: 0 for target in targets}
    try:
        for rate in args.rates:
            for target in targets:
                if misses[target.name] >= MISSES_BEFORE_STOP:
                    continue
                result = await run_step(target, tables[target.name], rate, args)
                results.append(result)
                misses[target.name] = 0 if result.keeps_up else misses[target.name] + 1
                log(_progress_line(result))
    finally:
        for target in targets:
            for table in tables[target.name]:
                await table.close()
    return results, tables


def _progress_line(result: StepResult) -> str:
    return (
        f"{result.target:>8} @ {result.rate:g}/s: {result.achieved:.1f}/s achieved, "
        f"opponent p50/p99 {_ms(result.opponent_ms[0])}/{_ms(result.opponent_ms[2])} ms, "
        f"{_ms(result.server_cpu_ms_per_move, 1)} ms CPU/move, client {result.client_cpu_share:.0%} of a core"
    )


# -- the checks and the report -----------------------------------------------------


def check_site_database(pairs: list[Pair], tables: list[Table]) -> list[str]:
    """Each match's ply advanced by exactly its acknowledged moves, one stored move per
    acknowledged action id, and no other move stored."""
    from games.models import Match
    from games.models import Move as StoredMove

    acked = {table.index: 0 for table in tables}
    action_ids = set()
    for table in tables:
        for move in table.sent.values():
            if move.acted is not None and not move.marked_duplicate:
                acked[table.index] += 1
                action_ids.add(uuid.UUID(move.action_id))
    problems = []
    match_ids = [match_id for pair in pairs for match_id in pair.matches]
    plies = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "ply"))
    for pair in pairs:
        advanced = sum(plies[match_id] - start for match_id, start in pair.matches.items())
        if advanced != acked[pair.index]:
            problems.append(
                f"pair {pair.index}: the plies advanced {advanced}, moves acked {acked[pair.index]}"
            )
    stored_total = sum(
        StoredMove.objects.filter(match_id=match_id, ply__gte=start).count()
        for pair in pairs
        for match_id, start in pair.matches.items()
    )
    stored_acked = StoredMove.objects.filter(match_id__in=match_ids, action_id__in=action_ids).count()
    if stored_total != len(action_ids) or stored_acked != len(action_ids):
        problems.append(
            f"{len(action_ids)} moves acked, {stored_total} stored since play began, "
            f"{stored_acked} of the acked action ids stored"
        )
    return problems


def _ms(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _three(values: list[float | None]) -> str:
    return " / ".join(_ms(value) for value in values)


def saturation(results: list[StepResult], target: str) -> tuple[float | None, bool]:
    """The highest rate that kept up, and whether a higher rate was played and did not."""
    steps = [result for result in results if result.target == target]
    kept = [result.rate for result in steps if result.keeps_up]
    highest = max(kept) if kept else None
    return highest, any(result.rate > (highest or 0) and not result.keeps_up for result in steps)


def _ratio(site: float | None, baseline: float | None) -> float | None:
    return site / baseline if site is not None and baseline else None


def saturation_ratio(results: list[StepResult]) -> tuple[float, str] | None:
    """Site over baseline saturation, and whether it is ``exact``, ``at most`` (the
    baseline never missed: its saturation is higher) or ``at least`` (the site never
    missed); None when neither saturated or either kept up at no rate."""
    site, site_reached = saturation(results, "site")
    baseline, baseline_reached = saturation(results, "baseline")
    if site is None or baseline is None or not (site_reached or baseline_reached):
        return None
    if site_reached and baseline_reached:
        return site / baseline, "exact"
    return site / baseline, "at most" if site_reached else "at least"


def ratios(results: list[StepResult]) -> list[dict[str, Any]]:
    by_rate: dict[float, dict[str, StepResult]] = {}
    for result in results:
        by_rate.setdefault(result.rate, {})[result.target] = result
    rows = []
    for rate, pair in sorted(by_rate.items()):
        if "site" in pair and "baseline" in pair:
            site, base = pair["site"], pair["baseline"]
            rows.append(
                {
                    "rate": rate,
                    "opponent_p50": _ratio(site.opponent_ms[0], base.opponent_ms[0]),
                    "opponent_p99": _ratio(site.opponent_ms[2], base.opponent_ms[2]),
                    "cpu_per_move": _ratio(site.server_cpu_ms_per_move, base.server_cpu_ms_per_move),
                }
            )
    return rows


def report(conditions: dict[str, Any], results: list[StepResult], checks: dict[str, Any]) -> str:
    lines = [
        f"{conditions['matches']} two-player Don't Go Boom matches, {conditions['processes']} Daphne "
        f"process(es) per target, {conditions['storage']}, {conditions['step_seconds']:g} s per step; "
        f"load average {conditions['load_before']} before, {conditions['load_after']} after; "
        f"{conditions['cores']} cores.",
        "",
        "| target | rate /s | achieved /s | act→acted p50 / p95 / p99 ms | act→opponent's board p50 / p95 / p99 ms "
        "| server CPU ms/move | client CPU |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        lines.append(
            f"| {result.target} | {result.rate:g} | {result.achieved:.1f} | {_three(result.acted_ms)} "
            f"| {_three(result.opponent_ms)} | {_ms(result.server_cpu_ms_per_move, 1)} "
            f"| {result.client_cpu_share:.0%} |"
        )
    lines += ["", f"Saturation (achieved ≥ {SATURATION_SHARE:.0%} of the target, opponent's board p99 ≤ "
              f"{conditions['p99_bound_ms']:g} ms):"]  # fmt: skip
    for target in conditions["targets"]:
        rate, reached = saturation(results, target)
        shown = "none of the rates" if rate is None else f"{'' if reached else '≥ '}{rate:g} moves/s"
        lines.append(f"- {target}: {shown}")
    ratio = saturation_ratio(results)
    if ratio is not None:
        value, bound = ratio
        lines.append(f"- site / baseline: {'' if bound == 'exact' else bound + ' '}{value:.2f}")
    rows = ratios(results)
    if rows:
        lines += ["", "| rate /s | opponent p50 site/baseline | opponent p99 site/baseline | CPU/move site/baseline |",
                  "|---:|---:|---:|---:|"]  # fmt: skip
        for row in rows:
            lines.append(
                f"| {row['rate']:g} | {_ms(row['opponent_p50'], 1)}x | {_ms(row['opponent_p99'], 1)}x "
                f"| {_ms(row['cpu_per_move'], 1)}x |"
            )
    lines += ["", "Checks: " + ("all passed" if checks["ok"] else "FAILED")]
    for target, tally in checks["targets"].items():
        lines.append(
            f"- {target}: {tally['moves']} moves, {len(tally['errors'])} errors, {tally['lost']} lost, "
            f"{tally['duplicates']} duplicated, {tally['replaced']} matches replaced"
        )
        lines += [f"  - {error}" for error in tally["errors"][:10]]
    lines += [f"- database: {problem}" for problem in checks["database"]]
    if not checks["database"] and "site" in checks["targets"]:
        lines.append("- database: every match's ply advanced by exactly its acknowledged moves")
    return "\n".join(lines)


def _rates(text: str) -> list[float]:
    return [float(rate) for rate in text.split(",")]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=40, help="concurrent two-player matches (default 40)")
    parser.add_argument(
        "--rates", type=_rates,
        default=[5, 10, 15, 25, 35, 50, 75, 100, 150, 200, 300, 400, 600, 800],
        help="target moves/s across all matches, comma-separated (default 5 to 800, about 1.5 times apart)",
    )  # fmt: skip
    parser.add_argument(
        "--step-seconds", type=float, default=10.0, help="play per rate and target (default 10)"
    )
    parser.add_argument(
        "--drain-seconds", type=float, default=30.0, help="wait for in-flight moves (default 30)"
    )
    parser.add_argument("--processes", type=int, default=1, help="Daphne processes per target (default 1)")
    parser.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--p99-bound-ms", type=float, default=250.0, help="saturation's latency bound")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the Markdown report")
    args = parser.parse_args(argv)
    if (
        args.matches < 1
        or args.processes < 1
        or args.step_seconds <= 0
        or any(rate <= 0 for rate in args.rates)
    ):
        parser.error("--matches, --processes, --step-seconds and every rate must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    var_dir = Path(tempfile.mkdtemp(prefix="boomsite-ws-load-"))
    failed = True
    try:
        with storage(var_dir) as where:
            os.environ.update(where.env)
            log(f"preparing the site: {where.description}")
            prepare_site()
            failed = run(args, where, var_dir)
    finally:
        if failed:
            log(f"the servers' logs are kept in {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    return 1 if failed else 0


def run(args: argparse.Namespace, where: Storage, var_dir: Path) -> bool:
    """Start the servers, play, check and print; True when a check failed."""
    from django.db import connections

    from games.live.consumers import RATE_PER_SECOND

    if max(args.rates) / args.matches > RATE_PER_SECOND:
        log(
            f"note: above {RATE_PER_SECOND * args.matches:g} moves/s a match's moves come faster than one "
            f"socket may send ({RATE_PER_SECOND:g}/s): expect rate_limited errors on the site"
        )
    env = dict(os.environ)
    pairs = make_pairs(args.matches, secrets.token_hex(3))
    for pair in pairs:
        start_match(pair)
    connections.close_all()
    load_before = " ".join(f"{value:.2f}" for value in os.getloadavg())
    tallies = {"site": Tally(), "baseline": Tally()}
    with ExitStack() as stack, ThreadPoolExecutor(max_workers=1) as database:
        site_servers = [
            stack.enter_context(daphne("boomsite.asgi:application", env, var_dir))
            for _ in range(args.processes)
        ]
        targets: list[Target] = [SiteTarget(site_servers, pairs, database)]
        if args.baseline:
            echo_servers = [
                stack.enter_context(daphne("bench.echo_site:application", env, var_dir))
                for _ in range(args.processes)
            ]
            targets.append(EchoTarget(echo_servers))
        results, tables = asyncio.run(run_all(targets, args, tallies))
        database.submit(connections.close_all).result()
    checks = verify(tallies, tables, pairs)
    connections.close_all()
    conditions = {
        "matches": args.matches,
        "processes": args.processes,
        "storage": where.description,
        "step_seconds": args.step_seconds,
        "p99_bound_ms": args.p99_bound_ms,
        "targets": [target.name for target in targets],
        "load_before": load_before,
        "load_after": " ".join(f"{value:.2f}" for value in os.getloadavg()),
        "cores": os.cpu_count(),
    }
    if args.json:
        saturations = {
            name: dict(zip(("rate", "reached"), saturation(results, name), strict=True))
            for name in conditions["targets"]
        }
        print(json.dumps({"conditions": conditions, "steps": [result.as_dict() for result in results],
                          "saturation": saturations, "saturation_ratio": saturation_ratio(results),
                          "ratios": ratios(results), "checks": checks}, indent=2))  # fmt: skip
    else:
        print(report(conditions, results, checks))
    return not checks["ok"]


def verify(tallies: dict[str, Tally], tables: dict[str, list[Table]], pairs: list[Pair]) -> dict[str, Any]:
    summary: dict[str, Any] = {"targets": {}, "database": []}
    ok = True
    for name, its_tables in tables.items():
        tally = tallies[name]
        moves = [move for table in its_tables for move in table.sent.values()]
        duplicates = sum(1 for move in moves if move.acks > 1 or move.marked_duplicate)
        unanswered = sum(1 for move in moves if move.acted is None and move.refused is None)
        summary["targets"][name] = {
            "moves": len(moves),
            "errors": tally.errors,
            "lost": max(tally.lost, unanswered),
            "duplicates": duplicates,
            "replaced": tally.replaced,
        }
        ok = ok and not tally.errors and not tally.lost and not unanswered and not duplicates
    if "site" in tables:
        summary["database"] = check_site_database(pairs, tables["site"])
        ok = ok and not summary["database"]
    summary["ok"] = ok
    return summary


if __name__ == "__main__":
    sys.exit(main())
