"""A soak: the production stack under a steady load for minutes, watched for leaks.

    nice -n 10 .venv/bin/python -m bench.soak                    # 10 minutes, ~14 in all
    nice -n 10 .venv/bin/python -m bench.soak --minutes 1 --sockets 600 --matches 60

It needs PostgreSQL and Redis (``--postgres``, ``--redis``: this machine's by default).
It makes a throwaway database ``bench_soak_<random>`` there (dropped at the end) and
uses two Redis databases of its own (``--redis-db`` 12 for the channel layer, the
broker and Celery, ``--cache-db`` 13 for the cache and presence), flushed at the start
and the end. It runs a real SMTP server (aiosmtpd) in its own process and starts the
stack as README's "Scale-out" does: two ``daphne --no-server-name`` processes, ``celery
-A boomsite worker --pool prefork --concurrency 2`` and ``celery -A boomsite beat``,
with DEBUG off, TRUSTED_PROXIES=127.0.0.1 (each simulated client sends its own
``X-Forwarded-For: 10.x.y.z``), EMAIL_URL to the SMTP server, and the clock and notice
sweeps every 5 s with a 5 s grace before a "your turn" email (CLOCK_SWEEP_SECONDS,
NUDGE_GRACE_SECONDS), so that nudges happen during the soak. DATABASE_POOL_* and other
settings in the environment are passed on.

The load (``bench/soak_players.py``): ``--matches`` matches kept in play (people
against people and against bots, some whose five-minute turn clocks run out, some whose
player only comes back when an email says it is their turn), ``--sockets`` match sockets
open (the players' and, mostly, idle watchers'), people's moves at ``--rate`` a second
over the match sockets, bots' moves by the worker, and page loads and API calls at
``--http-rate`` a second.

What it reports, as Markdown (``bench/soak_report.py``): each process's memory over
time and its growth from minute 2 to the end; PostgreSQL connections to the bench's
database per process (matched by client port) and by state, against each process's
pool; Redis's used memory; push latency p50/p99 (a move sent to the opponent's socket
receiving the new board; to watchers too); and the checks: no move lost or
duplicated (every acknowledged move stored once, at its ply, and no stored move the
clients did not send), no 5xx, every email exactly once (messages received per
person, kind and match against the notices the site marked sent; every "match over"
email owed for a finished match received). Exit code 1 if a criterion fails.

It stops by itself, and stops every process it started and drops the database on
Ctrl-C or failure too. The servers' logs are kept (and named) when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.soak_players import (
    Slot,
    Viewer,
    World,
    address,
    close_tabs,
    find_stale_tabs,
    give_api_tokens,
    load_pages,
    mail_arrived,
    make_people,
    open_tabs,
    play_live,
    play_nudged,
    scrape_metrics,
    start_match,
)
from bench.soak_report import (
    Checks,
    baseline_seconds,
    check_mail,
    check_moves,
    memory_growth_by_line,
    report,
    scan_logs,
)
from bench.soak_stack import (
    APPLICATION_PREFIX,
    Roles,
    Sampler,
    celery_beat,
    celery_worker,
    log,
    own_redis_databases,
    pool_settings,
    smtp_server,
    stop_group,
    worker_idle,
)
from bench.ws_servers import Server, daphne, prepare_site, throwaway_postgres

SITE_URL = "http://soak.boomsite.test"  # the public address a proxy would serve; never connected to
SHARES = {"pvp": 0.30, "pvb": 0.40, "nudged": 0.15, "away": 0.15}
SWEEP_SECONDS = 5
GRACE_SECONDS = 5
SCRAPE_SECONDS = 15.0  # Prometheus's usual interval
QUIET_SECONDS = 10.0  # after play stops, before every open tab must show its match's latest ply
DRAIN_SECONDS = 90.0
SETTLE_SECONDS = 180.0  # after the soak: the worker's queue empties, the last emails go


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the soak (default 10)")
    parser.add_argument("--sockets", type=int, default=2000, help="match sockets open (default 2,000)")
    parser.add_argument("--matches", type=int, default=200, help="matches kept in play (default 200)")
    parser.add_argument(
        "--rate", type=float, default=8.0,
        help="people's moves per second over the sockets, all live matches together (default 8)",
    )  # fmt: skip
    parser.add_argument("--http-rate", type=float, default=3.0, help="page loads and API calls a second")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=12, help="channel layer and broker (flushed)")
    parser.add_argument("--cache-db", type=int, default=13, help="cache and presence (flushed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--trace-memory", action="store_true",
        help="run the Daphnes under tracemalloc and report where their memory grew (a diagnosis: "
        "tracing costs memory and CPU of its own)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.matches < 4 or args.rate <= 0:
        parser.error("--minutes and --rate must be positive, --matches at least 4")
    if args.sockets < args.matches * 2:
        parser.error("--sockets must be at least twice --matches (the players' own and some watchers)")
    return args


@contextmanager
def stopped_on_sigterm() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl-C, so every process and the database are cleaned up."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    var_dir = Path(tempfile.mkdtemp(prefix="boomsite-soak-"))
    failed = True
    try:
        with stopped_on_sigterm(), ExitStack() as stack:
            mailbox, smtp_port = stack.enter_context(smtp_server())
            redis_url = f"{args.redis.rstrip('/')}/{args.redis_db}"
            stack.enter_context(own_redis_databases(args.redis, [args.redis_db, args.cache_db]))
            database_url = stack.enter_context(throwaway_postgres(args.postgres, prefix="bench_soak"))
            env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "boomsite.settings",
                "BOOMSITE_VAR_DIR": str(var_dir),
                "DATABASE_URL": database_url,
                "REDIS_URL": redis_url,
                "CACHE_REDIS_DB": str(args.cache_db),
                "SECRET_KEY": secrets.token_urlsafe(50),
                "DEBUG": "false",
                "HTTPS_ONLY": "false",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "SITE_URL": SITE_URL,
                "CSRF_TRUSTED_ORIGINS": SITE_URL,
                "TRUSTED_PROXIES": "127.0.0.1",
                "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
                "CLOCK_SWEEP_SECONDS": str(SWEEP_SECONDS),
                "NUDGE_GRACE_SECONDS": str(GRACE_SECONDS),
                # INFO: the channel layer's "over capacity", the bot sweep's "re-queued".
                "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO"),
            }
            env.pop("BOOMSITE_PROCESS_KIND", None)  # each process names its own kind
            # As make run does: every process of the host counts into one folder, and a
            # scrape of any Daphne answers for all (docs/site.md, "Metrics").
            env["PROMETHEUS_MULTIPROC_DIR"] = str(var_dir / "metrics")
            (var_dir / "metrics").mkdir()
            # The bench's own process is none of the site's: it counts no metrics.
            os.environ.update(
                {name: value for name, value in env.items() if name != "PROMETHEUS_MULTIPROC_DIR"}
            )
            os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
            os.environ["PGAPPNAME"] = APPLICATION_PREFIX + "bench"
            log(f"preparing the site on {urlsplit(database_url).path.lstrip('/')} and Redis {redis_url}")
            prepare_site()
            logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's every connection
            failed = run(args, env, var_dir, stack, mailbox, database_url, redis_url)
    except KeyboardInterrupt:
        log("interrupted: every process stopped, the database dropped")
    finally:
        if failed:
            log(f"the servers' logs are kept in {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    return 1 if failed else 0


def make_slots(args: argparse.Namespace, tag: str) -> tuple[list[Slot], dict[str, int]]:
    """The slots with their people, their first matches and their watchers."""
    rng = random.Random(args.seed)
    kinds: list[str] = []
    for kind, share in SHARES.items():
        kinds += [kind] * max(1, round(share * args.matches))
    kinds = kinds[: args.matches]
    while len(kinds) < args.matches:
        kinds.append("pvb")
    slots: list[Slot] = []
    needed = sum(2 if kind == "pvp" else 1 for kind in kinds)
    people = make_people(needed, f"{tag}-p", 1, game_over_off_every=5)
    give_api_tokens(people[:: max(1, len(people) // 20)])
    taken = iter(people)
    for index, kind in enumerate(kinds):
        count = 2 if kind == "pvp" else 1
        slot = Slot(
            index, kind, [next(taken) for _ in range(count)],  # type: ignore[arg-type]
            rng.choice(["random", "basic"]), random.Random(rng.random()),
        )  # fmt: skip
        start_match(slot)
        slots.append(slot)
    players = sum(len(slot.people) for slot in slots if slot.kind in ("pvp", "pvb"))
    watching = args.sockets - players
    # Watchers: a share signed in (four tabs each, on different matches), the others
    # visitors (three each); each from an address of its own.
    signed_in = int(watching * 0.4)
    accounts = make_people(max(1, -(-signed_in // 4)), f"{tag}-w", 100_000)
    visitors = [Viewer(address(200_000 + index)) for index in range(max(1, -(-(watching - signed_in) // 3)))]
    for number in range(watching):
        slot = slots[number % len(slots)]
        viewer = accounts[number % len(accounts)] if number < signed_in else visitors[number % len(visitors)]
        slot.watchers.append((viewer, rng.randrange(2)))
    counts = {
        "players": players,
        "watchers": watching,
        "signed_in_watchers": signed_in,
        "watcher_accounts": len(accounts),
        "visitors": len(visitors),
        "people": len(people),
    }
    return slots, counts


def run(
    args: argparse.Namespace, env: dict[str, str], var_dir: Path, stack: ExitStack, mailbox: Any,
    database_url: str, redis_url: str,
) -> bool:  # fmt: skip
    """Set up, soak, check and report; True when a criterion failed."""
    from django.db import connections

    log(f"making {args.matches} matches, their people and watchers")
    slots, counts = make_slots(args, secrets.token_hex(2))
    connections.close_all()
    pools = pool_settings(env)
    load_before = os.getloadavg()
    application = "boomsite.asgi:application"
    if args.trace_memory:
        application = "bench.soak_traced_asgi:application"
        env = {**env, "SOAK_TRACE_DIR": str(var_dir / "traces")}
        (var_dir / "traces").mkdir()
    # Each process names itself to PostgreSQL (libpq's PGAPPNAME), for pg_stat_activity.
    servers: list[Server] = [
        stack.enter_context(daphne(application, named(env, f"daphne-{number}"), var_dir, site_url=SITE_URL))
        for number in (1, 2)
    ]
    worker = stack.enter_context(celery_worker(named(env, "worker"), var_dir, concurrency=2))
    beat = stack.enter_context(celery_beat(named(env, "beat"), var_dir))
    log(
        f"stack up: Daphnes on {', '.join(str(server.port) for server in servers)}, worker {worker.pid}, beat {beat.pid}"
    )
    sampler = Sampler(
        Roles([server.process.pid for server in servers], worker.pid, beat.pid),
        database_url, urlsplit(database_url).path.lstrip("/"), args.redis, [args.redis_db, args.cache_db],
    )  # fmt: skip
    started_at = datetime.now(UTC)
    soak_started = time.time()  # near enough: the sockets open first, in under a minute
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="soak-db") as database:
        world = asyncio.run(soak(args, servers, slots, database, mailbox, sampler))
        database.submit(connections.close_all).result()
    log("the soak is over: beat stopped; waiting for the worker's queue to empty")
    stop_group(beat)
    deadline = time.monotonic() + SETTLE_SECONDS
    while not worker_idle() and time.monotonic() < deadline:
        time.sleep(1)
    time.sleep(2)  # the last message's SMTP exchange
    logs, notes = scan_logs(var_dir)
    checks = Checks(moves=check_moves(world), mail=check_mail(world, mailbox), logs=logs, log_notes=notes)
    connections.close_all()
    conditions = {
        "started": started_at,
        "minutes": args.minutes,
        "sockets": args.sockets,
        "opened": world.record.opened,
        "matches": args.matches,
        "kinds": {kind: sum(1 for slot in slots if slot.kind == kind) for kind in SHARES},
        "rate": args.rate,
        "http_rate": args.http_rate,
        "counts": counts,
        "pools": pools,
        "cores": os.cpu_count(),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "postgres": _server_version(database_url),
        "redis": _redis_version(args.redis),
        "sweep": SWEEP_SECONDS,
        "grace": GRACE_SECONDS,
        "pool_env": {name: value for name, value in os.environ.items() if name.startswith("DATABASE_POOL")},
    }
    text, passed = report(conditions, world, sampler, checks)
    if args.trace_memory:
        text += "\n\n" + memory_growth_by_line(
            var_dir / "traces", soak_started + baseline_seconds(args.minutes)
        )
    print(text, flush=True)
    return not passed


def named(env: dict[str, str], name: str) -> dict[str, str]:
    return {**env, "PGAPPNAME": APPLICATION_PREFIX + name}


async def soak(
    args: argparse.Namespace, servers: list[Server], slots: list[Slot], database: ThreadPoolExecutor,
    mailbox: Any, sampler: Sampler,
) -> World:  # fmt: skip
    loop = asyncio.get_running_loop()
    world = World(servers, SITE_URL, slots, database)
    mailbox.listener = lambda mail: loop.call_soon_threadsafe(mail_arrived, world, mail)
    log(f"opening {args.sockets} match sockets")
    opening = time.monotonic()
    await asyncio.gather(*(open_tabs(world, slot) for slot in slots))
    log(f"{world.tabs_open()} sockets open in {time.monotonic() - opening:.0f} s "
        f"({len(world.record.open_failures)} failed); soaking for {args.minutes:g} minutes")  # fmt: skip
    sampler.start()
    end = time.monotonic() + args.minutes * 60
    live = [slot for slot in slots if slot.kind in ("pvp", "pvb")]
    interval = len(live) / args.rate
    tasks = [asyncio.create_task(play_live(world, slot, interval, end)) for slot in live]
    tasks += [asyncio.create_task(play_nudged(world, slot, end)) for slot in slots if slot.kind == "nudged"]
    tasks.append(asyncio.create_task(load_pages(world, args.http_rate, end, args.seed)))
    tasks.append(asyncio.create_task(scrape_metrics(world, SCRAPE_SECONDS, end)))
    progress = asyncio.create_task(_progress(world, sampler, end))
    try:
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        world.stopping = True
        done, pending = await asyncio.wait(tasks, timeout=DRAIN_SECONDS)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for task in done:
            if task.exception() is not None:
                world.record.errors.append(f"a player stopped: {task.exception()!r}")
        await find_stale_tabs(world, QUIET_SECONDS)
    finally:
        progress.cancel()
        sampler.stop()
        mailbox.listener = None
        for slot in slots:
            await close_tabs(slot)
    # Mail that came while the loop ran is in world.record; what comes after is read from the mailbox.
    return world


async def _progress(world: World, sampler: Sampler, end: float) -> None:
    while True:
        await asyncio.sleep(60)
        record = world.record
        last = sampler.samples[-1] if sampler.samples else None
        memory = (
            ", ".join(f"{role} {rss / 2**20:.0f}" for role, rss in last.rss.items() if role != "bench")
            if last
            else "-"
        )
        log(
            f"{max(0.0, end - time.monotonic()) / 60:.1f} min left: {len(record.moves)} moves, "
            f"{len(record.opponent_ms)} pushes timed, {world.tabs_open()} sockets, {record.replaced} matches "
            f"replaced, {len(record.mail)} emails, {sum(record.http.values())} requests, "
            f"{len(record.errors)} errors; RSS MB {memory}; load {os.getloadavg()[0]:.2f}"
        )


def _server_version(database_url: str) -> str:
    import psycopg

    with psycopg.connect(database_url) as connection:
        row = connection.execute("SHOW server_version").fetchone()
    return str(row[0]).split()[0] if row else "?"


def _redis_version(url: str) -> str:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return str(client.info("server")["redis_version"])
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
