"""Issue 35, item 4: API tokens with scopes (play, read, export), chosen when a token is
made; each endpoint needs one (a missing one is ``403 missing_scope``, named, and changes
nothing); the exports take a token with the export scope."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import DEFAULT_API_SCOPES, ApiToken, User
from accounts.services import TokenError, api_token_create
from games.models import ChatMessage, Match, Move, Seat
from games.services import SeatRequest, match_create
from tests.games.helpers import api, logged_in
from tests.games.history.helpers import finished

pytestmark = pytest.mark.django_db


def token_with(user: User, *scopes: str) -> str:
    return api_token_create(user=user, name="scoped", scopes=scopes)[1]


def test_a_token_made_without_a_choice_plays_and_reads_as_every_token_before_scopes(ann: User) -> None:
    token, _ = api_token_create(user=ann, name="old-style")
    assert DEFAULT_API_SCOPES == ("play", "read")
    assert token.scope_names == ["play", "read"]
    # The migration gave the tokens made before it the same: the column's default.
    assert ApiToken._meta.get_field("scopes").default == "play read"
    migration = importlib.import_module("accounts.migrations.0007_api_token_scopes_bot_accounts")
    added = next(op for op in migration.Migration.operations if getattr(op, "name", "") == "scopes")
    assert added.field.default == "play read"


def test_scopes_are_checked_when_a_token_is_made(ann: User) -> None:
    with pytest.raises(TokenError, match="There is no scope 'admin'"):
        api_token_create(user=ann, name="x", scopes=["read", "admin"])
    with pytest.raises(TokenError, match="at least one scope"):
        api_token_create(user=ann, name="x", scopes=[])
    assert not ApiToken.objects.exists()
    token, _ = api_token_create(user=ann, name="x", scopes=["read", "export", "read"])
    assert token.scopes == "export read"


def test_the_account_page_offers_the_scopes_and_shows_each_tokens(ann: User) -> None:
    client = logged_in(ann)
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="scopes" value="play" checked' in page and 'name="scopes" value="read" checked' in page
    assert 'name="scopes" value="export">' in page  # asked for, not given
    client.post("/accounts/settings/tokens/new", {"name": "exporter", "scopes": ["export"]})
    assert ApiToken.objects.get(user=ann).scopes == "export"
    assert "may export" in client.get("/accounts/settings/").content.decode()
    # None ticked: refused, said so, nothing made.
    page = client.post("/accounts/settings/tokens/new", {"name": "nothing"}, follow=True).content.decode()
    assert "at least one scope" in page and ApiToken.objects.count() == 1


def everything() -> tuple[int, int, int, int, int]:
    return (Match.objects.count(), Seat.objects.exclude(joined_at=None).count(), Move.objects.count(),
            ChatMessage.objects.count(), Seat.objects.exclude(resigned_at=None).count())  # fmt: skip


def endpoints(match: Match, open_match: Match) -> list[tuple[str, str, Any, str]]:
    """(method, path, body, scope needed) of every API endpoint."""
    return [
        ("GET", f"/api/matches/{match.pk}", None, "read"),
        ("POST", f"/api/matches/{match.pk}/actions", {"action": {"type": "pass"}, "ply": 0}, "play"),
        ("GET", "/api/matches", None, "read"),
        ("POST", "/api/matches", {"game": "go-fox"}, "play"),
        ("GET", "/api/games", None, "read"),
        ("GET", "/api/lobby", None, "read"),
        ("POST", f"/api/matches/{open_match.pk}/join", None, "play"),
        ("POST", f"/api/matches/{open_match.pk}/leave", None, "play"),
        ("POST", f"/api/matches/{match.pk}/resign", None, "play"),
        ("POST", f"/api/matches/{match.pk}/chat", {"text": "hi"}, "play"),
        ("GET", "/api/history", None, "read"),
        ("GET", "/api/challenges", None, "read"),
        ("POST", "/api/challenges", {"username": "bob", "game": "go-fox"}, "play"),
        ("POST", f"/api/challenges/{open_match.pk}/accept", None, "play"),
        ("POST", f"/api/challenges/{open_match.pk}/decline", None, "play"),
    ]


def test_every_endpoint_refuses_a_token_without_its_scope_and_changes_nothing(
    two_player_match: Match, ann: User, bob: User
) -> None:
    open_match = match_create(
        creator=bob,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="ann")],
    )
    tokens = {"play": token_with(ann, "play", "export"), "read": token_with(ann, "read", "export")}
    before = everything()
    for method, path, body, scope in endpoints(two_player_match, open_match):
        other = "read" if scope == "play" else "play"
        refused = api(method, path, tokens[other], body)
        assert refused.status_code == 403, (path, refused.content)
        error = refused.json()["error"]
        assert error["code"] == "missing_scope", path
        assert f'lacks the "{scope}" scope' in error["message"] and "account page" in error["message"]
        assert refused["RateLimit-Remaining"]  # counted: a request like any other
    assert everything() == before
    # With the scope, the reads answer.
    for method, path, _, scope in endpoints(two_player_match, open_match):
        if scope == "read":
            assert api(method, path, tokens["read"]).status_code == 200, path


def test_the_exports_take_a_token_with_the_export_scope(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    private = finished([ann, bob], visibility=Match.Visibility.PRIVATE)
    one = f"/matches/{private.pk}/export.json"
    every = "/history/export.jsonl"
    exporter = token_with(ann, "export")
    answer = api("GET", one, exporter)
    assert answer.status_code == 200 and json.loads(answer.content)["id"] == private.pk
    assert answer["RateLimit-Limit"] == "60"  # a request by token counts as any API request
    lines = b"".join(api("GET", every, exporter).streaming_content).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [private.pk]
    # Another person's token sees only what that person may see: a private match is none.
    stranger = token_with(make_person(), "export")
    assert api("GET", one, stranger).status_code == 404
    assert b"".join(api("GET", every, stranger).streaming_content) == b""
    # Without the scope, a bad token, and a token that is sent beside a session: judged by the token.
    for path in (one, every):
        refused = api("GET", path, token_with(ann, "play", "read"))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "missing_scope"
        assert '"export"' in refused.json()["error"]["message"]
        bad = api("GET", path, "bst_not-a-token")
        assert bad.status_code == 401 and bad.json()["error"]["code"] == "unauthorised"
        assert bad["WWW-Authenticate"].startswith("Bearer")
        client = logged_in(ann)
        assert client.get(path, headers={"Authorization": "Bearer bst_nope"}).status_code == 401
        assert client.get(path).status_code == 200  # the session alone, as before
    # Without a session or a token: the login page for the list, 404 for a private match.
    assert Client().get(every).status_code == 302
    assert Client().get(one).status_code == 404


def test_the_scopes_api_for_other_endpoints(ann: User) -> None:
    """What a Channels consumer calls (docs/api.md, "Scopes", for the site's own code):
    ``games.api.authorise`` with the Authorization header's value and the scope."""
    from games.api import Caller, Refusal, authorise

    secret = token_with(ann, "read")
    caller = authorise(f"Bearer {secret}", "read")
    assert isinstance(caller, Caller) and caller.user == ann and caller.verdict.remaining == 59
    refused = authorise(f"Bearer {secret}", "play")
    assert isinstance(refused, Refusal) and (refused.code, refused.status) == ("missing_scope", 403)
    assert refused.headers["RateLimit-Remaining"] == "58"
    nobody = authorise("Bearer bst_wrong", "read")
    assert isinstance(nobody, Refusal) and nobody.status == 401 and "WWW-Authenticate" in nobody.headers
