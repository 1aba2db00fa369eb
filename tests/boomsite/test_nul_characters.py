"""A NUL character in a request's address, query, cookies or form fields is a 400 before
any view runs (boomsite/nul_characters.py): PostgreSQL stores no NUL, and one that
reached a query answered 500. Checked on every database by recording the queries."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from accounts.models import ApiToken, User
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db


@contextmanager
def queries_with_nul() -> Iterator[list[str]]:
    """The SQL of every query given a parameter holding a NUL (PostgreSQL's driver refuses those)."""
    seen: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        values = [value for group in params for value in group] if many and params else list(params or [])
        if any(isinstance(value, str) and "\x00" in value for value in values):
            seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


@pytest.mark.parametrize(
    "path", ["/players/a%00b/", "/history/players/a%00b/", "/matches/?game=dont-go-boom%00", "/?a%00=1"]
)
def test_an_address_or_query_with_nul_is_refused_before_the_database(ann: User, path: str) -> None:
    for client in (Client(), logged_in(ann)):
        with queries_with_nul() as seen:
            response = client.get(path)
        assert response.status_code == 400 and b"NUL" in response.content
        assert seen == []


def test_a_form_field_with_nul_is_refused_and_nothing_is_written(ann: User) -> None:
    client = logged_in(ann)
    with queries_with_nul() as seen:
        response = client.post("/accounts/settings/tokens/new", {"name": "my\x00bot"})
    assert response.status_code == 400 and seen == []
    assert not ApiToken.objects.filter(user=ann).exists()
    # The same form without the NUL goes through.
    assert client.post("/accounts/settings/tokens/new", {"name": "my bot", "scopes": "read"}).status_code in (
        200,
        302,
    )
    assert ApiToken.objects.filter(user=ann, name="my bot").exists()


def test_a_cookie_with_nul_is_refused_before_the_session_is_looked_up() -> None:
    with queries_with_nul() as seen:
        # A quoted cookie's octal escape is a NUL once Django parses it.
        response = Client().get("/", HTTP_COOKIE='sessionid="abcdefgh\\000"')
    assert response.status_code == 400 and seen == []


def test_the_api_is_answered_in_its_own_error_format() -> None:
    response = Client().get("/api/matches/?game=a%00")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_text"
