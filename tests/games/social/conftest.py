"""Fixtures of the friends tests: a third person, and who is online starting empty."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.live import presence


@pytest.fixture(autouse=True)
def nobody_seen_yet() -> None:
    """The cache's Redis is emptied per test (tests/conftest.py); this process's memory of
    whom the middleware marked seen goes with it."""
    presence.forget_seen_writes()


@pytest.fixture
def cat(make_person: Callable[..., User]) -> User:
    return make_person("cat", display_name="Cat")
