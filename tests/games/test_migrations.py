"""Data migrations, run on rows written by the schema before them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import ChatMessage, Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)

# The accounts app as it was when these games migrations were written: rows made in
# an old state must fit the tables of that state (later user fields are NOT NULL).
ACCOUNTS_THEN = ("accounts", "0003_apitoken")
BEFORE = [("games", "0001_initial"), ACCOUNTS_THEN]
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


def test_started_matches_get_their_seat_names_from_their_players_current_names() -> None:
    before = [("games", "0002_wide_seeds_and_keyed_generator"), ACCOUNTS_THEN]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    old_user = old.get_model("accounts", "User")
    ann = old_user.objects.create(username="ann", display_name="Ann")
    bob = old_user.objects.create(username="bob")  # no display name: his username is shown
    old_match, old_seat = old.get_model("games", "Match"), old.get_model("games", "Seat")
    old_chat = old.get_model("games", "ChatMessage")
    matches = {
        status: old_match.objects.create(game="go-fox", created_by=ann, status=status)
        for status in ("running", "finished", "open")
    }
    for match in matches.values():
        old_seat.objects.create(match=match, index=0, user=ann)
        old_seat.objects.create(match=match, index=1, user=bob if match.status != "open" else None)
        old_chat.objects.create(match=match, user=ann, text="hi")

    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0003_seat_display_name")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    def names(status: str) -> list[str]:
        return list(Seat.objects.filter(match_id=matches[status].pk).values_list("display_name", flat=True))

    assert names("running") == names("finished") == ["Ann", "bob"]
    assert names("open") == ["", ""]  # named when it starts
    assert set(ChatMessage.objects.values_list("author_name", flat=True)) == {"Ann"}
