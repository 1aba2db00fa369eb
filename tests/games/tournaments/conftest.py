"""What the tournament tests share: the organiser who sets tournaments up (staff; the
admin's tests use a member of the Organisers group instead)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User


@pytest.fixture
def organiser(make_person: Callable[..., User]) -> User:
    return make_person("organiser", is_staff=True)
