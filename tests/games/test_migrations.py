"""Data migrations, run on rows written by the schema before them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0001_initial")]
AFTER = [("games", "0002_wide_seeds_and_keyed_generator")]


def test_matches_started_before_the_keyed_generator_keep_their_seed_and_finish_on_splitmix64() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("accounts", "User").objects.create(username="early", display_name="Early")
    old_match = old.get_model("games", "Match")
    started = old_match.objects.create(
        game="go-fox", created_by=user, seed=2**63 - 25, state={}, status="running"
    )
    waiting = old_match.objects.create(game="go-fox", created_by=user, status="open")

    executor = MigrationExecutor(connection)  # a fresh loader sees the applied state
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Match.objects.get(pk=started.pk).seed == 2**63 - 25
    assert Match.objects.get(pk=started.pk).generator == "splitmix64"
    # Not started yet: it will be dealt by the keyed generator when it fills.
    assert Match.objects.get(pk=waiting.pk).seed is None
    assert Match.objects.get(pk=waiting.pk).generator == "keyed"
