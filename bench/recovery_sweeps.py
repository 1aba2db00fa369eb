"""What the two recovery sweeps cost when there is nothing to recover (the beat's usual case).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/boomsite_bench \\
        nice -n 10 .venv/bin/python -m bench.recovery_sweeps --matches 100000 --delivered 300000

Fills the database (a throwaway one: its matches are deleted first) with ``--matches``
running two-player matches of ``--people`` people, each with a person to move
(``bench.clock_sweep``'s filling; a bot sits at every other table), and ``--delivered``
delivered match-finished announcements of finished matches against a bot, then times
``games.tasks.sweep_bot_turns`` and ``games.tasks.resend_announcements`` (the median
of ``--runs``) and counts their queries. The beat runs each every
``RECOVERY_SWEEP_SECONDS``; the time of the worker's side of a task (the message, the
acknowledgement) comes on top. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--delivered", type=int, default=300_000)
    parser.add_argument("--people", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from bench.clock_sweep import fill
    from games.tasks import resend_announcements, sweep_bot_turns

    vendor = "SQLite" if "sqlite" in str(settings.DATABASES["default"]["ENGINE"]) else "PostgreSQL"
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    fill(args.matches, 0, args.people)
    fill_announcements(args.delivered)
    print(
        f"{vendor}: filled {args.matches:,} running matches and {args.delivered:,} delivered "
        f"announcements in {time.perf_counter() - started:.0f} s"
    )
    per_minute = 60 / settings.RECOVERY_SWEEP_SECONDS
    print()
    print("| sweep (nothing to recover) | queries | time (median) | per minute |")
    print("|---|--:|--:|--:|")
    for name, sweep in (("sweep_bot_turns", sweep_bot_turns), ("resend_announcements", resend_announcements)):
        queries, milliseconds = measure(sweep, args.runs)
        print(f"| `{name}` | {queries} | {milliseconds:.1f} ms | {milliseconds * per_minute:.0f} ms |")


def fill_announcements(count: int) -> None:
    """Bots at half the running tables (the person to move), and ``count`` delivered
    announcements, three per finished match of a person against the expert bot (as the
    subscribers leave them): the bots' seats are many, the ones owing a move none."""
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games.models import Announcement, Match, Seat

    model = Match.objects.first()
    assert model is not None
    now = timezone.now()
    person = model.created_by
    random_bot, expert = (User.objects.get(username=name) for name in ("bot-random", "bot-expert"))
    names = ["subscriber.a", "subscriber.b", "subscriber.c"]
    clone = {field: getattr(model, field) for field in ("game", "options", "seed", "state", "created_by")}
    matches = count // len(names)
    with transaction.atomic():
        every_other = list(Match.objects.filter(status=Match.Status.RUNNING).values_list("pk", flat=True))[
            ::2
        ]
        for start in range(0, len(every_other), 5_000):
            Seat.objects.filter(match__in=every_other[start : start + 5_000], owes_decision=False).update(
                user=random_bot
            )
        for start in range(0, matches, 5_000):
            made = Match.objects.bulk_create(
                [
                    Match(**clone, status=Match.Status.FINISHED, finished_at=now)
                    for _ in range(min(5_000, matches - start))
                ]
            )
            Seat.objects.bulk_create(
                Seat(match=match, index=index, user=user, joined_at=now, display_name=user.username, rank=1)
                for match in made
                for index, user in enumerate((person, expert))
            )
            Announcement.objects.bulk_create(
                Announcement(match=match, task_name=name, sent_at=now, attempts=1, delivered_at=now)
                for match in made
                for name in names
            )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "ANALYZE accounts_user; ANALYZE games_match; ANALYZE games_seat; ANALYZE games_announcement;"
            )


def measure(sweep: Callable[[], int], runs: int) -> tuple[int, float]:
    """The queries of one run and the median time of ``runs`` runs, in milliseconds."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()  # the filling's queries would fill the log, which then counts none
    with CaptureQueriesContext(connection) as queries:
        assert sweep() == 0
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        assert sweep() == 0
        times.append((time.perf_counter() - started) * 1000)
    return len(queries), statistics.median(times)


if __name__ == "__main__":
    main()
