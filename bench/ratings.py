"""How long rating takes: one finished match's update, and ``rebuild_ratings`` over many.

    createdb -h 127.0.0.1 -U postgres boomsite_ratings_bench   # once; the script migrates it
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/boomsite_ratings_bench SECRET_KEY=x \\
        nice -n 10 .venv/bin/python -m bench.ratings --matches 100000

    BOOMSITE_VAR_DIR=var/bench nice -n 10 .venv/bin/python -m bench.ratings --matches 5000   # SQLite

The database must be a throwaway one (its name or folder must say "bench"): its
matches and ratings are deleted first. It writes ``--matches`` finished matches with
bulk inserts (not played: seats with ranks and a result, as the finishing service
leaves them), spread over the rated games, 2 to 6 seats (people from a pool of
``--people``, now and then bots, a bot sometimes seated twice), shared places as
random play gives them, and 2% of people out of the game, most after a move of their
own (the only moves written: the rules read no others). Then it times:

- ``rebuild_ratings`` over all of them (``services.ratings_rebuild``);
- one rating update (``services.match_rate``, what the match-finished task runs: the
  transaction, the ledger's lock, the reads and writes, the announcement marked
  delivered), ``--updates`` times for each of 2, 4 and 6 seats, on matches finished
  after all the others (the usual case), and for 4 seats arriving one match late
  (one match taken back and applied again).

It prints Markdown tables for bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from typing import Any

BATCH = 5_000
# Seats per match, drawn uniformly from this list (within each game's player range).
TABLE_SIZES = [2, 2, 2, 2, 3, 3, 4, 4, 5, 6]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=5_000)
    parser.add_argument("--updates", type=int, default=200, help="timed updates per table size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    name = str(settings.DATABASES["default"]["NAME"])
    if "bench" not in name:
        sys.exit(f"refusing to wipe {name!r}: use a throwaway database whose name or folder says 'bench'")
    call_command("migrate", verbosity=0)
    print(
        f"database: {connection.vendor} ({name}); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )

    rng = random.Random(args.seed)
    started = time.perf_counter()
    people, bots = wipe_and_make_players(args.people)
    moment = fill(rng, args.matches, people, bots)
    print(f"wrote {args.matches:,} finished matches in {time.perf_counter() - started:.0f} s")

    from games.ratings.models import RatingChange
    from games.ratings.services import ratings_rebuild

    started, cpu_started = time.perf_counter(), time.process_time()
    rated = ratings_rebuild()
    rebuild_seconds, rebuild_cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print()
    print("| rebuild_ratings | matches | rated | rating changes | time | this process's CPU |")
    print("|---|--:|--:|--:|--:|--:|")
    print(
        f"| all games | {args.matches:,} | {sum(rated.values()):,} | {RatingChange.objects.count():,} "
        f"| {rebuild_seconds:.1f} s | {rebuild_cpu:.1f} s |"
    )

    print()
    print("| one update (match_rate) | median | 90th percentile | mean | queries |")
    print("|---|--:|--:|--:|--:|")
    for seats in (2, 4, 6):
        moment = time_updates(rng, f"{seats} seats", seats, args.updates, people, bots, moment, late=False)
    time_updates(rng, "4 seats, one match late", 4, args.updates, people, bots, moment, late=True)


def wipe_and_make_players(count: int) -> tuple[list[int], list[int]]:
    from accounts.models import User
    from games.models import Match
    from games.ratings.models import Rating, RatingChange, RatingLedger
    from games.services import BOT_USERNAMES

    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    RatingLedger.objects.all().delete()
    Match.objects.all().delete()
    # Kept from run to run (deleting accounts rings their sockets, which needs Redis).
    have = set(User.objects.filter(username__startswith="rb-").values_list("username", flat=True))
    User.objects.bulk_create(
        [
            User(username=f"rb-{n}", email=f"rb-{n}@example.com")
            for n in range(count)
            if f"rb-{n}" not in have
        ],
        batch_size=BATCH,
    )
    made = User.objects.filter(username__in=[f"rb-{n}" for n in range(count)]).values_list("pk", flat=True)
    bots = list(User.objects.filter(username__in=BOT_USERNAMES.values()).values_list("pk", flat=True))
    return sorted(made), bots


def random_table(rng: random.Random, seats: int, people: list[int], bots: list[int]) -> list[tuple[int, int]]:
    """(player, rank) per seat: people at most once, a bot in one other seat in five (the
    first seat is always a person, so two accounts at least: a rated table)."""
    table = rng.sample(people, seats)
    for index in range(1, seats):
        if rng.random() < 0.2:
            table[index] = rng.choice(bots)
    scores = [rng.randint(0, 4) for _ in table]
    return [
        (player, 1 + sum(other > score for other in scores))
        for player, score in zip(table, scores, strict=True)
    ]


def fill(rng: random.Random, count: int, people: list[int], bots: list[int]) -> datetime:
    """``count`` finished matches, one a minute up to now; the moment of the last."""
    from django.db import connection, transaction
    from django.utils import timezone

    from games.engine import all_games
    from games.models import Match, Move, Seat

    games = [game for game in all_games() if game.is_rated]
    start = timezone.now() - timedelta(minutes=count + 10)
    with transaction.atomic():
        for first in range(0, count, BATCH):
            tables, matches = [], []
            for number in range(first, min(first + BATCH, count)):
                game = rng.choice(games)
                size = max(game.min_players, min(rng.choice(TABLE_SIZES), game.max_players))
                tables.append(random_table(rng, size, people, bots))
                matches.append(unsaved_match(game.slug, start + timedelta(minutes=number), tables[-1]))
            Match.objects.bulk_create(matches)
            seats: list[Seat] = []
            moves: list[Move] = []
            for match, table in zip(matches, tables, strict=True):
                out = {
                    index
                    for index, (player, _) in enumerate(table)
                    if player not in bots and rng.random() < 0.02
                }
                seats += unsaved_seats(match, table, out)
                moves += [
                    Move(match=match, ply=index, seat=index, action={"type": "x"}, user_id=table[index][0])
                    for index in sorted(out)
                    if rng.random() < 0.75  # the others resigned before a move of their own
                ]
            Seat.objects.bulk_create(seats, batch_size=BATCH)
            Move.objects.bulk_create(moves, batch_size=BATCH)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_match; ANALYZE games_seat; ANALYZE games_move;")
    return start + timedelta(minutes=count)


def unsaved_match(slug: str, finished_at: datetime, table: list[tuple[int, int]]) -> Any:
    from games.models import Match

    return Match(
        game=slug,
        status=Match.Status.FINISHED,
        created_by_id=table[0][0],
        started_at=finished_at - timedelta(minutes=20),
        finished_at=finished_at,
        ply=40,
        result={"scores": None, "ranks": [rank for _, rank in table]},
    )


def unsaved_seats(match: Any, table: list[tuple[int, int]], out: set[int]) -> list[Any]:
    """The seats of ``match``; those in ``out`` resigned five minutes before the end."""
    from games.models import Seat

    return [
        Seat(
            match=match,
            index=index,
            user_id=player,
            rank=rank,
            joined_at=match.started_at,
            display_name=f"p{player}",
            resigned_at=match.finished_at - timedelta(minutes=5) if index in out else None,
            resigned_reason="resigned" if index in out else "",
        )
        for index, (player, rank) in enumerate(table)
    ]


def time_updates(
    rng: random.Random,
    label: str,
    seats: int,
    count: int,
    people: list[int],
    bots: list[int],
    moment: datetime,
    *,
    late: bool,
) -> datetime:
    """Time ``match_rate`` on ``count`` new go-fox matches of ``seats`` seats (one a
    minute after ``moment``); ``late``: each arrives after one that finished after it."""
    from django.db import connection

    from games.ratings.services import RateOutcome, match_rate

    executed = 0

    def counting(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal executed
        executed += 1
        return execute(sql, params, many, context)

    times, queries = [], []
    for _ in range(count):
        first = finished(rng, seats, people, bots, moment + timedelta(minutes=1))
        if late:
            second = finished(rng, seats, people, bots, moment + timedelta(minutes=2))
            assert match_rate(match_id=second) == RateOutcome.RATED
        executed = 0
        with connection.execute_wrapper(counting):
            began = time.perf_counter()
            assert match_rate(match_id=first) == RateOutcome.RATED
            times.append((time.perf_counter() - began) * 1000)
        queries.append(executed)
        moment += timedelta(minutes=2)
    cuts = statistics.quantiles(times, n=10)
    print(
        f"| {label} | {statistics.median(times):.1f} ms | {cuts[-1]:.1f} ms | {statistics.mean(times):.1f} ms "
        f"| {statistics.median(queries):.0f} |"
    )
    return moment


def finished(rng: random.Random, seats: int, people: list[int], bots: list[int], at: datetime) -> int:
    from games.models import Seat

    table = random_table(rng, seats, people, bots)
    match = unsaved_match("go-fox", at, table)
    match.save()
    Seat.objects.bulk_create(unsaved_seats(match, table, set()))
    return int(match.pk)


if __name__ == "__main__":
    main()
