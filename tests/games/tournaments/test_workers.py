"""Tournaments run by real Celery workers: each format to its end with bots, a round
advanced twice at the same time, and a worker killed in the middle of building a round.

Every test here has its own worker (``tests/processes.py``), started after the test's
data is committed and the broker purged, so that only the tasks a test sends are run.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from boomsite.celery import app
from games.models import Match
from games.services import BOT_USERNAMES
from games.tournaments import formats, services
from games.tournaments.models import Entry, Round, Table, Tournament
from games.tournaments.selectors import format_state
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.tournaments.helpers import enter, finish_table, make_tournament, tables_of
from tests.processes import celery_worker, frozen_once

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ADVANCE = services.MATCH_FINISHED_TASK


def bot_entries(tournament: Tournament, level: str, count: int) -> None:
    bot = User.objects.get(username=BOT_USERNAMES[level])
    Entry.objects.bulk_create(
        Entry(tournament=tournament, user=bot, bot_number=number, display_name=f"{bot.public_name} {number}")
        for number in range(1, count + 1)
    )


def check_every_round(tournament: Tournament) -> None:
    """Everyone still in is seated once or has the bye, every round; nobody out is seated."""
    for round_ in tournament.rounds.order_by("number"):
        seated = Counter(entry for table in round_.tables.all() for entry in table.entries)
        assert all(count == 1 for count in seated.values()), (round_.number, seated)
        assert not set(seated) & set(round_.byes)
        for table in round_.tables.all():
            assert table.places is not None and table.match.status == Match.Status.FINISHED
            assert 2 <= len(table.entries) <= tournament.table_size


@pytest.mark.parametrize(
    "fields",
    [
        {"format": Tournament.Format.SINGLE_ELIMINATION, "table_size": 2},
        {"format": Tournament.Format.SWISS, "table_size": 2, "swiss_rounds": 4},
        {"format": Tournament.Format.ROUND_ROBIN, "table_size": 4},
    ],
    ids=["single-elimination", "swiss", "round-robin-tables-of-4"],
)
def test_a_tournament_of_sixteen_bots_runs_to_its_end(
    site_env: dict[str, str], fields: dict[str, object]
) -> None:
    ensure_bot_accounts()
    organiser = User.objects.create_user(username="organiser", password="x", is_staff=True)
    # Bouldertroll Boom Box: the shortest of the games between bots (about 25 moves for two).
    tournament = make_tournament(organiser, game="boom-box", max_entrants=16, **fields)
    bot_entries(tournament, "random", 16)
    app.control.purge()
    services.tournament_start(tournament_id=tournament.pk)
    with celery_worker(site_env, pool="prefork", concurrency=2, prefix="tournament"):
        wait_for(
            lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED,
            timeout=600,
            interval=0.5,
            what=f"the {tournament.format} tournament to finish",
        )
    tournament.refresh_from_db()
    check_every_round(tournament)
    standings = formats.standings(format_state(tournament))
    assert sorted(standing.entrant for standing in standings) == sorted(
        tournament.entries.values_list("pk", flat=True)
    )
    assert standings[0].place == 1
    if tournament.format == Tournament.Format.SINGLE_ELIMINATION:
        final = tables_of(tournament, tournament.rounds.count())[0]
        assert len(final.entries) == 2 and standings[0].entrant == min(
            final.entries, key=lambda entry: final.place_of(entry) or 99
        )
        assert tournament.rounds.count() == 4


def test_a_round_advanced_twice_at_the_same_time_is_built_once(
    site_env: dict[str, str], make_person: Callable[..., User]
) -> None:
    organiser = make_person("organiser", is_staff=True)
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    enter(tournament, [make_person(f"player{number}") for number in range(16)])
    services.tournament_start(tournament_id=tournament.pk)
    tables = tables_of(tournament, 1)
    for table in tables:
        finish_table(table)
    app.control.purge()  # the core's own announcements: these tests send their own
    with celery_worker(site_env, pool="prefork", concurrency=2, prefix="advance") as (name, _process):
        for table in tables[-2:]:
            app.send_task(ADVANCE, args=[table.match_id])
            app.send_task(ADVANCE, args=[table.match_id])
        wait_for(
            lambda: Round.objects.filter(tournament=tournament, number=2).exists(), timeout=60, what="round 2"
        )
        wait_for(
            lambda: not (app.control.inspect([name]).active() or {}).get(name), timeout=60, what="the tasks"
        )
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 8
    assert Match.objects.count() == 16


def building_a_round() -> bool:
    """Whether another connection is inside a transaction that is writing matches: on
    PostgreSQL, a lock for inserting into the match table; on SQLite, the write lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks JOIN pg_class ON pg_locks.relation = pg_class.oid "
                "WHERE pg_class.relname = 'games_match' AND pg_locks.mode = 'RowExclusiveLock' "
                "AND pg_locks.pid <> pg_backend_pid()"
            )
            return bool(cursor.fetchone()[0])
    probe = sqlite3.connect(str(connection.settings_dict["NAME"]), timeout=0)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:  # "database is locked": a writer is inside
        return True
    finally:
        probe.close()


def test_a_worker_killed_while_building_a_round_leaves_nothing_and_the_round_is_built_once(
    site_env: dict[str, str], make_person: Callable[..., User]
) -> None:
    organiser = make_person("organiser", is_staff=True)
    tournament = make_tournament(organiser, format=Tournament.Format.SWISS, swiss_rounds=3, max_entrants=128)
    enter(tournament, [make_person(f"player{number}") for number in range(128)])
    services.tournament_start(tournament_id=tournament.pk)
    for table in tables_of(tournament, 1):
        finish_table(table)
    matches_before = Match.objects.count()
    app.control.purge()
    # A solo worker: the task runs in the process that is frozen and killed.
    with celery_worker(site_env, prefix="killed") as (_name, process):
        app.send_task(ADVANCE, args=[tables_of(tournament, 1)[-1].match_id])
        wait_for(
            lambda: frozen_once(process, building_a_round), timeout=60, interval=0, what="the round's build"
        )
        process.kill()  # SIGKILL, frozen inside the transaction that seats round 2
        process.wait()
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert Match.objects.count() == matches_before
    # The next run (the announcement's resend, the sweep, or the admin's re-run) builds it, once.
    assert services.tournaments_sweep()["advanced"] == 1
    assert services.tournament_advance(tournament_id=tournament.pk) == services.AdvanceOutcome.WAITING
    assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 64
    assert Match.objects.count() == matches_before + 64
    assert timezone.now() - Round.objects.get(tournament=tournament, number=2).created_at < timedelta(
        minutes=5
    )
