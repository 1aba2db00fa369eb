"""Fixtures for the site's game tests: people, and matches made through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join


@pytest.fixture
def make_person(db: None) -> Callable[..., User]:
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **fields: Any) -> User:
        name = username or f"person{next(counter)}"
        return User.objects.create_user(
            username=name, email=f"{name}@example.com", password="pw-" + name, **fields
        )

    return make


@pytest.fixture
def ann(make_person: Callable[..., User]) -> User:
    return make_person("ann", display_name="Ann")


@pytest.fixture
def bob(make_person: Callable[..., User]) -> User:
    return make_person("bob", display_name="Bob")


@pytest.fixture
def two_player_match(ann: User, bob: User) -> Match:
    """A running Don't Go Boom match: Ann in seat 0, Bob in seat 1 (he was invited and accepted)."""
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    return match


@pytest.fixture
def duel(ann: User, bob: User) -> Match:
    """Go Fox! between Ann (seat 0) and Bob (seat 1), public."""
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)
