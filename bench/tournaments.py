"""Tournaments run by real Celery workers: a whole 64-entrant single elimination of
4-seat tables between bots, and how long a round takes to be seated after its last
result (Swiss, 64 to 1,024 entrants, pairs and 4-seat tables).

    createdb -h 127.0.0.1 -U postgres boomsite_bench   # once; the script migrates it
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/boomsite_bench REDIS_URL=redis://127.0.0.1:6379/5 \\
        nice -n 10 .venv/bin/python -m bench.tournaments
    nice -n 10 .venv/bin/python -m bench.tournaments --sizes 64,256 --skip-run   # embedded SQLite

The database must be a throwaway one: the script deletes its tournaments and matches
first. It starts its own Celery workers (``--workers`` prefork processes) on the
configured broker, purged first. It prints Markdown tables for bench/README.md.

**The run**: ``--entrants`` random bots (Bouldertroll Boom Box, the shortest game) in
single elimination at tables of 4, the top 2 going on; timed from the start to the
winner, with each round's "last result → next round's matches exist" delay.

**The advance**: for each size, a Swiss tournament of people whose round 1 is
finished (everyone resigns but one per table, as absent players would be forfeited);
then the match-finished announcement of the last table is sent to the worker, and the
time until round 2's matches all exist is measured, with the time the pure pairing
alone takes for that round (``formats.next_round``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--sizes", default="64,256,1024")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-run", action="store_true")
    parser.add_argument("--skip-advance", action="store_true")
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    engine = str(settings.DATABASES["default"]["ENGINE"])
    print(
        f"database: {'PostgreSQL' if 'postgres' in engine else 'SQLite (embedded)'}; workers: {args.workers}"
    )
    call_command("migrate", verbosity=0)
    clear()
    if not args.skip_run:
        with worker(args.workers):
            run_elimination(args.entrants)
    if not args.skip_advance:
        print()
        print("| Swiss | entrants | tables | pairing alone | last result → round 2 seated (in a worker) |")
        print("|---|--:|--:|--:|--:|")
        for size in [int(text) for text in args.sizes.split(",")]:
            for table_size in (2, 4):
                print(advance_row(size, table_size, args.workers))


class worker:
    """Celery workers on the configured broker and database, for as long as the block runs."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> None:
        from boomsite.celery import app

        app.control.purge()
        name = f"bench-{uuid.uuid4().hex[:6]}@localhost"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "boomsite", "worker", "--pool", "prefork",
             "--concurrency", str(self.concurrency), "--without-gossip", "--without-mingle",
             "--loglevel", "WARNING", "-n", name],
            cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[name], timeout=0.5):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("the Celery worker did not start")

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=60)


def clear() -> None:
    from games.models import Match
    from games.tournaments.models import Tournament

    Tournament.objects.all().delete()
    Match.objects.all().delete()


def organiser() -> Any:
    from accounts.models import User

    user, _ = User.objects.get_or_create(username="bench-organiser", defaults={"is_staff": True})
    return user


def make(**fields: Any) -> Any:
    from django.utils import timezone

    from games.tournaments.models import Tournament

    now = timezone.now()
    tournament = Tournament.objects.create(
        name=f"bench {uuid.uuid4().hex[:4]}", created_by=organiser(), registration_opens_at=now - timedelta(hours=2),
        registration_closes_at=now - timedelta(hours=1), starts_at=now - timedelta(hours=1),
        seeding=Tournament.Seeding.RANDOM, turn_limit=3600, rated=False, **fields,
    )  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    return tournament


def run_elimination(entrants: int) -> None:
    from accounts.models import User
    from games.services import BOT_USERNAMES
    from games.tournaments import services
    from games.tournaments.models import Entry, Tournament

    tournament = make(game="boom-box", format=Tournament.Format.SINGLE_ELIMINATION, table_size=4, advance=2,
                      max_entrants=entrants)  # fmt: skip
    bot = User.objects.get(username=BOT_USERNAMES["random"])
    Entry.objects.bulk_create(
        Entry(tournament=tournament, user=bot, bot_number=n, display_name=f"{bot.username} {n}")
        for n in range(1, entrants + 1)
    )
    started = time.perf_counter()
    services.tournament_start(tournament_id=tournament.pk)
    while Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING:
        time.sleep(0.2)
    took = time.perf_counter() - started
    tournament.refresh_from_db()
    print(f"single elimination, {entrants} random bots, Boom Box at tables of 4, top 2 go on: "
          f"{tournament.get_status_display().lower()} in {took:.0f} s")  # fmt: skip
    print()
    print("| round | tables | moves | last result → next round seated |")
    print("|--:|--:|--:|--:|")
    rounds = list(tournament.rounds.order_by("number").prefetch_related("tables__match"))
    for this, following in zip(rounds, [*rounds[1:], None], strict=True):
        tables = list(this.tables.all())
        last = max(table.match.finished_at for table in tables)
        moves = sum(table.match.ply for table in tables)
        gap = f"{(following.created_at - last).total_seconds() * 1000:.0f} ms" if following else "(the final)"
        print(f"| {this.number} | {len(tables)} | {moves} | {gap} |")


def advance_row(size: int, table_size: int, workers: int) -> str:
    from dataclasses import replace

    from accounts.models import User
    from boomsite.celery import app
    from games.models import Match, Seat
    from games.services import match_resign
    from games.tournaments import formats, services
    from games.tournaments.models import Entry, Round, Tournament
    from games.tournaments.selectors import format_state

    tournament = make(game="boom-box", format=Tournament.Format.SWISS, table_size=table_size, swiss_rounds=5,
                      max_entrants=size)  # fmt: skip
    people = User.objects.bulk_create(
        User(username=f"bench-{uuid.uuid4().hex[:10]}", email="") for _ in range(size)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, user=user, display_name=user.username) for user in people
    )
    services.tournament_start(tournament_id=tournament.pk)
    first = Round.objects.get(tournament=tournament, number=1)
    tables = list(first.tables.all())
    entries = {entry.pk: entry.user for entry in tournament.entries.all()}
    for table in tables:  # everyone but the first seat resigns: round 1 is over
        for entry_id in table.entries[1:]:
            if Match.objects.filter(pk=table.match_id, status=Match.Status.RUNNING).exists():
                match_resign(match_id=table.match_id, user=entries[entry_id])
    # The pure pairing of round 2 alone, on the state the task will build.
    ranks = {
        (seat.match_id, seat.index): seat.rank
        for seat in Seat.objects.filter(match__tournament_table__round=first)
    }
    played = formats.PlayedRound(
        round=formats.Round(
            tables=tuple(formats.Table(entrants=tuple(t.entries)) for t in tables), byes=tuple(first.byes)
        ),
        places=tuple(
            {entry: ranks[(t.match_id, index)] or 0 for index, entry in enumerate(t.entries)} for t in tables
        ),
    )
    state = replace(format_state(tournament), played=(played,))
    clock = time.perf_counter()
    planned = formats.next_round(state)
    pairing = time.perf_counter() - clock
    assert planned is not None
    # Through a worker, as the last table's announcement reaches it (the others were purged).
    with worker(workers):
        clock = time.perf_counter()
        app.send_task(services.MATCH_FINISHED_TASK, args=[tables[-1].match_id])
        while not Round.objects.filter(tournament=tournament, number=2).exists():
            time.sleep(0.005)
        seated = time.perf_counter() - clock
    count = Round.objects.get(tournament=tournament, number=2).tables.count()
    assert count == len(planned.tables), (count, len(planned.tables))
    return (
        f"| tables of {table_size} | {size:,} | {count} | {pairing * 1000:.0f} ms | {seated * 1000:.0f} ms |"
    )


if __name__ == "__main__":
    main()
