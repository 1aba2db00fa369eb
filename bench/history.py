"""How fast History pages are for a player with many finished matches, and their queries.

    createdb -h 127.0.0.1 -U postgres boomsite_bench_history   # once; the script migrates it
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/boomsite_bench_history \\
    REDIS_URL=redis://127.0.0.1:6379/0 SECRET_KEY=bench \\
        nice -n 10 .venv/bin/python -m bench.history --matches 10000 --others 20000

Fills the database (a throwaway one: its name must contain "bench", and its matches
are deleted first) by bulk inserts: one player with ``--matches`` finished matches of
every game (two to four seats, bots at about a third of the tables, ties, cooperative
wins and losses, resignations before and after a move of one's own, a tenth private),
``--moves`` moves each, and ``--others`` finished matches of other people around them.
Then it requests each page ``--requests`` times through the Django test client, signed
in as that player (the whole stack: middleware, session, selectors, templates), and
prints p50/p95 in ms and the queries per page as a Markdown table, then PostgreSQL's
plan (EXPLAIN ANALYZE) of the query that picks the rows of the first page, the filtered
page and the opponent search.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import timedelta
from typing import Any

PLAYER = "bench-player"
FILTERED = "game=go-fox&result=won&bots=without"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=10_000, help="the player's finished matches")
    parser.add_argument("--others", type=int, default=20_000, help="finished matches of other people")
    parser.add_argument("--moves", type=int, default=20, help="moves per match")
    parser.add_argument("--requests", type=int, default=50, help="timed requests per page")
    parser.add_argument("--no-fill", action="store_true", help="measure the data of an earlier run")
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    database = settings.DATABASES["default"]
    if "bench" not in str(database["NAME"]):
        raise SystemExit(f"refusing to fill {database['NAME']!r}: use a throwaway database named *bench*")
    if "sqlite" in str(database["ENGINE"]):
        print("note: SQLite; set DATABASE_URL for PostgreSQL figures")
    call_command("migrate", verbosity=0)
    if not args.no_fill:
        started = time.perf_counter()
        fill(args.matches, args.others, args.moves)
        print(f"filled in {time.perf_counter() - started:.0f} s")
    measure(args.requests)
    explain()


def fill(matches: int, others: int, moves_per_match: int) -> None:
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games import replays
    from games.engine import get
    from games.models import Match, Move, ResignReason, Seat

    rng = random.Random(23)
    Match.objects.all().delete()
    User.objects.filter(username__startswith="bench-").delete()
    player = User.objects.create_user(username=PLAYER, email="bench-player@example.com", password="bench")
    people = User.objects.bulk_create(
        User(username=f"bench-person-{n}", display_name=f"Person {n}", email=f"bench-{n}@example.com")
        for n in range(300)
    )
    bots = list(User.objects.filter(is_bot=True))
    games = ["go-fox", "dont-go-boom", "ka-blam", "boom-box", "read-and-grab", "booby-trap", "its-a-bomb"]
    now = timezone.now()

    def table(mine: bool) -> list[User]:
        size = rng.choice([2, 2, 2, 3, 4])
        seated = rng.sample(people, size - 1 if mine else size)
        if mine:
            seated.insert(rng.randrange(size), player)
        if rng.random() < 0.3:  # a bot in a seat that is not the player's
            spot = rng.choice([index for index, user in enumerate(seated) if user != player])
            seated[spot] = rng.choice(bots)
        return seated

    def one(number: int, mine: bool) -> tuple[Match, list[Seat], dict[int, bool]]:
        game = get(games[number % len(games)])
        seated = table(mine)
        finished_at = now - timedelta(hours=2.6 * number, minutes=rng.random() * 60)
        if game.is_cooperative:
            ranks = [1] * len(seated)
            result: dict[str, Any] = {"won": rng.random() < 0.6, "scores": [1] * len(seated), "ranks": ranks}
        else:
            order = list(range(1, len(seated) + 1))
            rng.shuffle(order)
            ranks = [1 if rank == 2 and rng.random() < 0.1 else rank for rank in order]  # some shared firsts
            result = {"scores": [float(10 - rank) for rank in ranks], "ranks": ranks}
        resigned: dict[int, bool] = {}
        if rng.random() < 0.05:  # a resignation, half of them before a move of one's own
            resigned[rng.randrange(len(seated))] = rng.random() < 0.5
            result["resigned"] = sorted(resigned)
        match = Match(
            game=game.slug,
            options={},
            status=Match.Status.FINISHED,
            visibility=Match.Visibility.PRIVATE if rng.random() < 0.1 else Match.Visibility.PUBLIC,
            seed=12345,
            seed_salt="salt",
            seed_commitment=replays.commitment(12345, "salt"),
            created_by=seated[0],
            started_at=finished_at - timedelta(hours=1),
            finished_at=finished_at,
            result=result,
            ply=moves_per_match,
        )
        seats = [
            Seat(
                index=index,
                user=user,
                joined_at=finished_at - timedelta(hours=1),
                display_name=user.public_name,
                rank=ranks[index],
                score=result["scores"][index],
                resigned_at=finished_at - timedelta(minutes=5) if index in resigned else None,
                resigned_reason=ResignReason.RESIGNED if index in resigned else "",
            )
            for index, user in enumerate(seated)
        ]
        return match, seats, resigned

    batch = 2_000
    with transaction.atomic():
        for mine, count in ((True, matches), (False, others)):
            for start in range(0, count, batch):
                made = [one(number, mine) for number in range(start, min(count, start + batch))]
                Match.objects.bulk_create([match for match, _, _ in made])
                seats, moves = [], []
                for match, table_seats, resigned in made:
                    for seat in table_seats:
                        seat.match = match
                    seats += table_seats
                    for ply in range(moves_per_match):
                        seat = table_seats[ply % len(table_seats)]
                        # A player out before their own first move leaves every move to the autopilot.
                        by_autopilot = seat.index in resigned and (
                            not resigned[seat.index] or ply >= len(table_seats)
                        )
                        moves.append(
                            Move(
                                match=match,
                                ply=ply,
                                seat=seat.index,
                                user=None if by_autopilot else seat.user,
                                action={"type": "pass"},
                            )
                        )
                Seat.objects.bulk_create(seats)
                Move.objects.bulk_create(moves, batch_size=10_000)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "ANALYZE games_match; ANALYZE games_seat; ANALYZE games_move; ANALYZE accounts_user;"
            )


def pages() -> list[tuple[str, str]]:
    """(what, address) of the pages measured; the deep one starts 40 pages in."""
    from accounts.models import User
    from games.history import cursors
    from games.history.selectors import history_page

    player = User.objects.get(username=PLAYER)
    after = None
    for _ in range(40):
        after = history_page(player=player, viewer=player, after=after).next_cursor
    assert after is not None, "fewer than 41 pages of matches"
    return [
        ("first page", "/history/"),
        (f"filtered page (`{FILTERED}`)", f"/history/?{FILTERED}"),
        ("opponent search (`opponent=person 17`)", "/history/?opponent=person+17"),
        ("opponent search that finds nothing (`opponent=zzz`)", "/history/?opponent=zzz"),
        ("rated only (`rated=yes`)", "/history/?rated=yes"),
        ("page 41 (cursor)", f"/history/?after={cursors.encode(after)}"),
        ("the player's page seen by someone else", f"/history/players/{PLAYER}/"),
        ("API first page", "/api/history"),
    ]


def measure(requests: int) -> None:
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from accounts.services import api_token_create
    from games import api

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    # The manifest storage needs collectstatic, a deploy step; the pages' links are not measured.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    api.API_REQUESTS_PER_WINDOW = 10**9  # one token asking many times in a row, on purpose
    player = User.objects.get(username=PLAYER)
    mine, stranger, program = Client(), Client(), Client()  # a program has its token, no session
    mine.force_login(player)
    stranger.force_login(User.objects.get(username="bench-person-1"))
    token = api_token_create(user=player, name="bench")[1]
    rows = []
    for what, address in pages():
        client = stranger if "someone else" in what else program if address.startswith("/api/") else mine
        headers = {"Authorization": f"Bearer {token}"} if client is program else {}

        def get(client: Client = client, address: str = address, headers: dict[str, str] = headers) -> Any:
            response = client.get(address, secure=True, headers=headers)
            assert response.status_code == 200, (address, response.status_code, response.content[:300])
            return response

        for _ in range(5):  # warm up
            get()
        times = []
        for _ in range(requests):
            started = time.perf_counter()
            get()
            times.append((time.perf_counter() - started) * 1000)
        with CaptureQueriesContext(connection) as queries:
            get()
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
        rows.append((what, statistics.median(times), p95, len(queries)))
    print()
    print(f"| page | p50 ms | p95 ms | queries |  ({requests} requests each)")
    print("|---|--:|--:|--:|")
    for what, p50, p95, count in rows:
        print(f"| {what} | {p50:.1f} | {p95:.1f} | {count} |")


def explain() -> None:
    from django.db import connection

    from accounts.models import User
    from games.history.selectors import PAGE_SIZE, HistoryFilters, history_rows

    if connection.vendor != "postgresql":
        return
    player = User.objects.get(username=PLAYER)
    for what, filters in (
        ("first page", HistoryFilters()),
        (FILTERED, HistoryFilters(game="go-fox", outcome="won", bots="without")),
        ("opponent=zzz", HistoryFilters(opponent="zzz")),
    ):
        print(f"\nEXPLAIN ANALYZE, {what}:")
        print(
            history_rows(player, player, filters, None)[: PAGE_SIZE + 1].explain(analyze=True, buffers=True)
        )


if __name__ == "__main__":
    main()
