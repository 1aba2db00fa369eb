"""How long one clock sweep takes over many running matches, and how many queries.

    createdb -h 127.0.0.1 -U postgres boomsite_bench   # once; the script migrates it
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/boomsite_bench \\
        nice -n 10 .venv/bin/python -m bench.clock_sweep --matches 100000 --due 1000

Fills the database (which must be a throwaway one: its matches are deleted first)
with ``--matches`` running two-player Go Fox! matches whose person on turn has a
one-hour clock, ``--due`` of them already run out, then times the sweeps the beat
runs (``games.tasks.sweep_clocks``, and the notification sweep when it exists) and
counts their queries. It prints a Markdown table for bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from datetime import timedelta
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--people", type=int, default=1_000)
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    if "sqlite" in str(settings.DATABASES["default"]["ENGINE"]):
        print("note: SQLite (the embedded default); set DATABASE_URL for PostgreSQL figures")
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    fill(args.matches, args.due, args.people)
    print(f"filled {args.matches:,} matches ({args.due:,} due) in {time.perf_counter() - started:.0f} s")
    rows = [measure("sweep_clocks (timeouts: the autopilot plays each due turn)", sweep_clocks_until_done)]
    rows.append(measure("notification sweep (nudges and alarms)", notify_sweep()))
    print()
    print("| sweep | matches | due | time | queries | queries per due item |")
    print("|---|--:|--:|--:|--:|--:|")
    for name, seconds, queries, acted in rows:
        per = f"{queries / acted:.1f}" if acted else "-"
        print(f"| {name} | {args.matches:,} | {acted:,} | {seconds:.2f} s | {queries:,} | {per} |")
    print()
    print(f"idle sweep (nothing due) over {args.matches:,} matches: {idle_sweep_ms():.1f} ms, median of 5")


def fill(matches: int, due: int, people: int) -> None:
    """Clone one real running match ``matches`` times: a person's clock on each."""
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games.models import Match, Move, Seat
    from games.services import SeatRequest, match_create, match_join

    Match.objects.all().delete()
    User.objects.filter(username__startswith="sweep-").delete()
    users = User.objects.bulk_create(
        [User(username=f"sweep-{n}", email=f"sweep-{n}@example.com") for n in range(people)]
    )
    model = match_create(
        creator=users[0], game_slug="go-fox", options={}, turn_limit=3600,
        seats=[SeatRequest("me"), SeatRequest("invite", username=users[1].username)],
    )  # fmt: skip
    match_join(match_id=model.pk, user=users[1])
    model.refresh_from_db()
    on_turn = model.engine.to_act(model.decoded_state())[0]
    seat_template = {seat.index: seat for seat in model.seats.all()}
    now = timezone.now()
    clone_of_model = {
        field: getattr(model, field)
        for field in (
            "game",
            "options",
            "status",
            "seed",
            "generator",
            "state",
            "ply",
            "turn_limit",
            "started_at",
        )
    }
    clone_of_model["created_by"] = users[0]
    batch = 5_000
    with transaction.atomic():
        for start in range(0, matches - 1, batch):
            count = min(batch, matches - 1 - start)
            made = Match.objects.bulk_create([Match(**clone_of_model) for _ in range(count)])
            seats = []
            for offset, match in enumerate(made):
                number = start + offset
                late = number < due  # the first clones have run out; the model match has not
                for index, template in seat_template.items():
                    person = users[(number * 2 + index) % people]
                    owes = index == on_turn
                    deadline = (
                        now - timedelta(minutes=1) if late else now + timedelta(minutes=30 + number % 600)
                    )
                    seats.append(
                        Seat(
                            match=match,
                            index=index,
                            user=person,
                            joined_at=now,
                            display_name=person.username,
                            owes_decision=owes,
                            decision_ply=template.decision_ply if owes else None,
                            decision_digest=template.decision_digest if owes else "",
                            deadline_at=deadline if owes else None,
                            alarm_at=deadline - timedelta(minutes=12) if owes else None,
                            nudge_at=now + timedelta(minutes=5 + number % 600) if owes else None,
                        )
                    )
            Seat.objects.bulk_create(seats)
    assert not Move.objects.exists()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_match; ANALYZE games_seat;")


def sweep_clocks_until_done() -> int:
    """The beat's sweeps back to back until nothing is due (one sweep stops after
    CLOCK_SWEEP_SECONDS and leaves the rest to the next)."""
    from games.tasks import sweep_clocks

    total = 0
    while acted := int(sweep_clocks()["timed_out"]):
        total += acted
    return total


def notify_sweep() -> Any:
    """The notification sweep (games/notify)."""
    from games.notify.tasks import sweep_notices

    def run() -> int:
        result = sweep_notices()
        return int(sum(result.values())) if isinstance(result, dict) else int(result)

    return run


def measure(name: str, sweep: Any) -> tuple[str, float, int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        acted = sweep()
        seconds = time.perf_counter() - started
    return name, seconds, len(queries), acted


def idle_sweep_ms() -> float:
    from games.tasks import sweep_clocks

    times = []
    for _ in range(5):
        started = time.perf_counter()
        assert sweep_clocks()["timed_out"] == 0
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    main()
