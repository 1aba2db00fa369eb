"""games/history/export.py and the export views: a finished match as JSON that replays
and checks out elsewhere, who may download it, and all of one's matches streamed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.http import StreamingHttpResponse
from django.test import AsyncClient, Client

from accounts.models import User
from games.engine import get
from games.history.export import FORMAT, SCHEMA_VERSION
from games.history.selectors import EXPORT_CHUNK
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_resign
from tests.games.helpers import logged_in
from tests.games.history.helpers import bot, finished, play_to_the_end

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def test_an_exported_match_replays_from_its_seed_and_its_deal_checks_out(
    duel: Match, ann: User, bob: User
) -> None:
    match = play_to_the_end(duel, {0: ann, 1: bob})
    response = logged_in(ann).get(f"/matches/{match.pk}/export.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="boomsite-match-{match.pk}.json"'
    data = json.loads(response.content)
    assert (data["format"], data["schema_version"], data["id"], data["game"]) == (
        FORMAT,
        SCHEMA_VERSION,
        match.pk,
        "go-fox",
    )
    assert [(p["seat"], p["name"], p["is_bot"], p["bot_level"]) for p in data["players"]] == [
        (0, "Ann", False, None),
        (1, "Bob", False, None),
    ]
    # What anyone can check with the file alone: the commitment, then every move.
    assert hashlib.sha256(f"{data['seed']}:{data['salt']}".encode()).hexdigest() == data["commitment"]
    game = get(data["game"])
    state = game.new(len(data["players"]), int(data["seed"]), data["options"], generator=data["generator"])
    assert [move["ply"] for move in data["moves"]] == list(range(match.ply))
    for move in data["moves"]:
        state = game.apply(state, move["seat"], move["action"])
        assert datetime.fromisoformat(move["at"]).tzinfo is not None
    replayed = game.result(state)
    assert replayed is not None and replayed["ranks"] == data["result"]["ranks"] == [
        p["rank"] for p in data["players"]
    ]


def test_the_export_names_bots_by_seat_with_their_level_and_who_resigned(ann: User) -> None:
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )
    match_resign(match_id=match.pk, user=ann)
    data = json.loads(logged_in(ann).get(f"/matches/{match.pk}/export.json").content)
    assert [(p["name"], p["is_bot"], p["bot_level"], p["out"]) for p in data["players"]] == [
        ("Ann", False, None, "resigned"),
        ("Random Bot", True, "random", None),
    ]
    assert data["result"]["resigned"] == [0]


def test_only_a_finished_match_the_viewer_may_see_is_exported(
    duel: Match, ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl")
    private = finished([ann, bob], visibility=Match.Visibility.PRIVATE)
    public = finished([ann, bob])
    assert Client().get(f"/matches/{public.pk}/export.json").status_code == 200  # as its page is
    assert logged_in(bob).get(f"/matches/{private.pk}/export.json").status_code == 200
    for client in (Client(), logged_in(carl)):
        refused = client.get(f"/matches/{private.pk}/export.json")
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "no_such_match"
    running = logged_in(ann).get(f"/matches/{duel.pk}/export.json")
    assert running.status_code == 409 and running.json()["error"]["code"] == "not_finished"
    assert str(duel.seed) not in running.content.decode()
    assert logged_in(ann).get("/matches/999999/export.json").status_code == 404
    assert logged_in(ann).post(f"/matches/{public.pk}/export.json").status_code == 405


def lines_of(content: bytes) -> list[dict[str, Any]]:
    assert content.endswith(b"\n")
    return [json.loads(line) for line in content.decode().splitlines()]


def download(client: Client, path: str) -> bytes:
    """The whole body of a streamed answer (the test client's WSGI side: synchronous chunks)."""
    response: Any = client.get(path)
    assert response.status_code == 200 and response.streaming
    return b"".join(response.streaming_content)


def test_all_my_matches_stream_as_json_lines_a_chunk_of_queries_at_a_time(
    ann: User, bob: User, make_person: Callable[..., User], django_assert_num_queries: Any
) -> None:
    carl = make_person("carl")
    mine = [
        finished([ann, bob], finished_at=NOON - timedelta(minutes=n)) for n in range(2 * EXPORT_CHUNK + 5)
    ]
    finished([bob, carl])  # not mine
    response = logged_in(ann).get("/history/export.jsonl")
    assert isinstance(response, StreamingHttpResponse) and response.streaming
    assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="boomsite-matches-ann.jsonl"'
    chunks = iter(response.streaming_content)
    received = []
    # Nothing is read before the first chunk is asked for; then each costs the same three
    # queries (the page, its tables, its moves), however many matches there are.
    for _ in range(3):
        with django_assert_num_queries(3):
            received.append(next(chunks))
    assert next(chunks, None) is None
    documents = lines_of(b"".join(received))
    assert [document["id"] for document in documents] == [match.pk for match in mine]
    assert {document["format"] for document in documents} == {FORMAT}


def test_the_stream_takes_the_history_filters_and_refuses_bad_ones(ann: User, bob: User) -> None:
    with_bot = finished([ann, bot("random")])
    finished([ann, bob])
    client = logged_in(ann)
    documents = lines_of(download(client, "/history/export.jsonl?bots=with"))
    assert [document["id"] for document in documents] == [with_bot.pk]
    refused = client.get("/history/export.jsonl?since=soon")
    assert refused.status_code == 400 and refused.json()["error"] == {
        "code": "bad_filter",
        "message": "since: Enter a valid date.",
    }


def test_the_stream_asks_to_log_in(client: Client) -> None:
    response = client.get("/history/export.jsonl")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_under_asgi_the_stream_is_asynchronous_so_nothing_is_gathered_in_memory(ann: User, bob: User) -> None:
    # Daphne serves the site through ASGI, where a synchronous iterator would be read
    # whole before the first byte went out.
    mine = [finished([ann, bob], finished_at=NOON - timedelta(minutes=n)) for n in range(EXPORT_CHUNK + 1)]
    client = AsyncClient()
    client.force_login(ann)

    async def stream() -> tuple[StreamingHttpResponse, list[bytes]]:
        response = await client.get("/history/export.jsonl")
        assert isinstance(response, StreamingHttpResponse) and response.is_async
        return response, [chunk async for chunk in response.streaming_content]

    response, chunks = async_to_sync(stream)()
    assert response.status_code == 200 and len(chunks) == 2
    assert [document["id"] for document in lines_of(b"".join(chunks))] == [match.pk for match in mine]


def test_an_empty_history_streams_an_empty_file(ann: User) -> None:
    assert download(logged_in(ann), "/history/export.jsonl") == b""


def test_a_real_match_streams_as_it_exports(duel: Match, ann: User, bob: User) -> None:
    match = play_to_the_end(duel, {0: ann, 1: bob})
    client = logged_in(bob)
    single = client.get(f"/matches/{match.pk}/export.json").json()
    (streamed,) = lines_of(download(client, "/history/export.jsonl"))
    assert streamed == single


def test_a_match_joined_but_not_finished_is_not_in_the_stream(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    assert download(logged_in(ann), "/history/export.jsonl") == b""
