"""The programs' streams (docs/api.md, "Streams"), in process with the real ASGI stack and
the real Redis channel layer: the match stream (``/api/matches/<id>/stream``) and the
event stream (``/api/stream/events``), their refusals, keep-alives and limits."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import ApiToken, User
from accounts.services import api_token_revoke
from games.live.socket_limits import REGISTRY, STREAMS_PER_TOKEN
from games.live.stream_events import Told, read_mine
from games.models import Match
from games.selectors import access, api_view
from games.services import (
    SeatRequest,
    chat_post,
    match_create,
    match_decline,
    match_join,
    match_leave,
    match_resign,
)
from games.social import services as social_services
from tests.games.helpers import on_turn, play, token_for, until_turn_passes
from tests.games.sockets import run
from tests.games.streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)


def as_api(match: Match, user: User) -> dict[str, Any]:
    """``GET /api/matches/<id>`` for ``user``, as its JSON decodes."""
    data: dict[str, Any] = json.loads(json.dumps(api_view(access(match.pk, user))))
    return data


def match_stream(match: Match, token: str | None) -> Stream:
    return Stream(f"/api/matches/{match.pk}/stream", token)


# -- the match stream ------------------------------------------------------------------


def test_a_match_stream_sends_the_state_then_each_move_chat_and_the_end(
    duel: Match, ann: User, bob: User
) -> None:
    tokens = {ann.pk: token_for(ann), bob.pk: token_for(bob)}
    players = {0: ann, 1: bob}

    async def scenario() -> None:
        stream = match_stream(duel, tokens[ann.pk])
        assert await stream.open() == 200
        assert stream.headers["content-type"] == "application/x-ndjson; charset=utf-8"
        assert stream.headers["x-accel-buffering"] == "no"
        assert stream.headers["cache-control"] == "private, no-store"
        first = await stream.line()
        assert first == {"type": "state", **await database_sync_to_async(as_api)(duel, ann)}
        assert first["seat"] == 0 and first["ply"] == 0

        # The other player moves (Go Fox! may keep the turn: until it passes to Ann).
        if await database_sync_to_async(on_turn)(duel) == 0:
            await database_sync_to_async(until_turn_passes)(duel)
            await stream.lines_until_quiet()
        mover = await database_sync_to_async(on_turn)(duel)
        await database_sync_to_async(play)(duel, mover)
        moved = await stream.next_of("state")
        now = await database_sync_to_async(as_api)(duel, ann)
        assert moved == {"type": "state", **now} and moved["ply"] == now["ply"]
        if 0 in moved["to_act"]:
            assert moved["legal_actions"], "Ann's turn: her legal actions come with it"

        await database_sync_to_async(chat_post)(match_id=duel.pk, user=bob, text="good luck")
        chat = await stream.next_of("chat")
        assert chat["seat"] == 1 and chat["name"] == "Bob" and chat["text"] == "good luck"
        assert set(chat) == {"type", "id", "seat", "name", "text", "at"}

        await database_sync_to_async(match_resign)(match_id=duel.pk, user=players[1])
        last = await stream.next_of("state")
        assert last["status"] == "finished" and last["result"] is not None
        end = await stream.line()
        assert end == {"type": "end", "status": "finished", "result": last["result"]}
        assert await stream.line() is None and stream.finished, "the stream ends with the match"
        await stream.close()

    run(scenario)


def test_a_stream_says_nothing_twice_and_a_reconnect_gets_the_current_state_first(
    duel: Match, ann: User, bob: User
) -> None:
    token = token_for(bob)

    async def scenario() -> None:
        stream = match_stream(duel, token)
        await stream.open()
        await stream.line()
        await stream.close()
        # Moves while the program is away.
        for _ in range(3):
            await database_sync_to_async(play)(duel, await database_sync_to_async(on_turn)(duel))
        again = match_stream(duel, token)
        await again.open()
        assert await again.line() == {"type": "state", **await database_sync_to_async(as_api)(duel, bob)}
        # A chat line is no change of state: no state line again for it.
        await database_sync_to_async(chat_post)(match_id=duel.pk, user=ann, text="hi")
        assert [line["type"] for line in await again.lines_until_quiet()] == ["chat"]
        await again.close()

    run(scenario)


def test_a_finished_match_streams_its_state_and_end_and_closes(duel: Match, ann: User) -> None:
    match_resign(match_id=duel.pk, user=ann)
    token = token_for(ann)

    async def scenario() -> None:
        stream = match_stream(duel, token)
        assert await stream.open() == 200
        lines = [await stream.line(), await stream.line()]
        assert [line["type"] for line in lines if line] == ["state", "end"]
        assert await stream.line() is None
        await stream.close()
        assert not REGISTRY.streams_per_token, "an ended stream is counted out"

    run(scenario)


def test_a_stream_ends_when_its_person_may_no_longer_see_the_match(ann: User, bob: User) -> None:
    """Bob, invited to Ann's private match, declines: it is none of his business any more."""
    private = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility="private",
        seats=[SeatRequest("me"), SeatRequest("invite", username=bob.username)],
    )  # fmt: skip
    token = token_for(bob)

    async def scenario() -> None:
        stream = match_stream(private, token)
        assert await stream.open() == 200
        first = await stream.line()
        assert first is not None and (first["status"], first["seat"], first["view"]) == ("open", None, None)
        await database_sync_to_async(match_decline)(match_id=private.pk, user=bob)
        last = await stream.line()
        assert last is not None and (last["type"], last["code"]) == ("error", "no_such_match")
        assert await stream.line() is None
        await stream.close()

    run(scenario)


def test_stream_refusals_are_the_apis_json_errors(
    duel: Match, ann: User, bob: User, make_person: Any
) -> None:
    private = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility="private",
        seats=[SeatRequest("me"), SeatRequest("invite", username=bob.username)],
    )  # fmt: skip
    stranger = token_for(make_person("carl"))

    async def refused(
        path: str, token: str | None, method: str = "GET"
    ) -> tuple[int, dict[str, Any], Stream]:
        stream = Stream(path, token, method=method)
        status = await stream.open()
        body = json.loads(await stream.body())
        await stream.close()
        return status, body["error"], stream

    async def scenario() -> None:
        status, error, stream = await refused(f"/api/matches/{private.pk}/stream", stranger)
        assert (status, error["code"]) == (404, "no_such_match")
        assert stream.headers["content-type"] == "application/json"
        status, error, _ = await refused(f"/api/matches/{private.pk + 1000}/stream", stranger)
        assert (status, error["code"]) == (404, "no_such_match")
        status, error, stream = await refused(f"/api/matches/{duel.pk}/stream", None)
        assert (status, error["code"]) == (401, "unauthorised")
        assert stream.headers["www-authenticate"] == 'Bearer realm="boomsite"'
        status, error, _ = await refused("/api/stream/events", "bst_not-a-token")
        assert (status, error["code"]) == (401, "unauthorised")
        status, error, _ = await refused("/api/stream/events", stranger, method="POST")
        assert (status, error["code"]) == (405, "method_not_allowed")
        # A public match streams to anyone with a token, as the public view.
        watcher = match_stream(duel, stranger)
        assert await watcher.open() == 200
        line = await watcher.line()
        assert line is not None and line["seat"] is None and line["legal_actions"] == []
        await watcher.close()

    run(scenario)


def test_the_session_cookie_opens_no_stream(duel: Match, ann: User) -> None:
    """A web page elsewhere cannot have a browser open one: a token only (the API's rule)."""
    client = Client()
    client.force_login(ann)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def scenario() -> None:
        stream = Stream(f"/api/matches/{duel.pk}/stream", None)
        stream.app.scope["headers"].append((b"cookie", cookie.encode()))
        assert await stream.open() == 401
        await stream.body()
        await stream.close()

    run(scenario)


def test_keep_alives_come_as_empty_lines(duel: Match, ann: User, settings: Any) -> None:
    settings.API_STREAM_KEEPALIVE_SECONDS = 0.05
    token = token_for(ann)

    async def scenario() -> None:
        for path in (f"/api/matches/{duel.pk}/stream", "/api/stream/events"):
            stream = Stream(path, token)
            await stream.open()
            seen = [await stream.raw_line(timeout=2) for _ in range(6)]
            assert seen.count(b"") >= 3, seen
            await stream.close()

    run(scenario)


def test_a_revoked_token_ends_its_streams_at_once(duel: Match, ann: User) -> None:
    token = token_for(ann)

    async def scenario() -> None:
        streams = [match_stream(duel, token), Stream("/api/stream/events", token)]
        for stream in streams:
            await stream.open()
        await streams[0].line()
        await streams[1].lines_until_quiet(0.3)
        mine = await database_sync_to_async(ApiToken.objects.get)(user=ann)
        await database_sync_to_async(api_token_revoke)(user=ann, token_id=mine.pk)
        for stream in streams:
            last = await stream.next_of("error")
            assert last["code"] == "unauthorised"
            assert await stream.line() is None
            await stream.close()

    run(scenario)


def test_open_streams_per_token_are_limited(duel: Match, ann: User) -> None:
    token = token_for(ann)
    other = token_for(ann)

    async def scenario() -> None:
        limit = STREAMS_PER_TOKEN["events"]
        streams = [Stream("/api/stream/events", token) for _ in range(limit)]
        for stream in streams:
            assert await stream.open() == 200
        over = Stream("/api/stream/events", token)
        assert await over.open() == 429
        body = json.loads(await over.body())
        assert body["error"]["code"] == "too_many_streams"
        assert f"at most {limit} open event streams per token" in body["error"]["message"]
        await over.close()
        # Another token, and the other kind of stream, have their own counts.
        elsewhere = [Stream("/api/stream/events", other), match_stream(duel, token)]
        for stream in elsewhere:
            assert await stream.open() == 200
            await stream.close()
        # A stream closed makes room for one more.
        await streams[0].close()
        again = Stream("/api/stream/events", token)
        assert await again.open() == 200
        for stream in [*streams[1:], again]:
            await stream.close()
        assert not REGISTRY.streams_per_token

    run(scenario)


# -- the event stream --------------------------------------------------------------------


def types(lines: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Each line's type and match id."""
    return [(line["type"], line["match"]["id"] if "match" in line else line["id"]) for line in lines]


def test_the_event_stream_says_what_waits_then_each_change_once(
    duel: Match, ann: User, bob: User, make_person: Any
) -> None:
    carl, dan = make_person("carl"), make_person("dan")
    token = token_for(ann)
    sync = database_sync_to_async

    async def scenario() -> None:
        stream = Stream("/api/stream/events", token)
        assert await stream.open() == 200
        assert stream.headers["content-type"] == "application/x-ndjson; charset=utf-8"
        first = await stream.lines_until_quiet()
        expected = [("match_started", duel.pk)]
        if await sync(on_turn)(duel) == 0:
            expected.append(("your_turn", duel.pk))
        assert types(first) == expected
        started = first[0]["match"]
        assert started["seat"] == 0 and started["status"] == "running" and started["game"] == "go-fox"
        assert started["stream"].endswith(f"/api/matches/{duel.pk}/stream")
        assert [p["username"] for p in started["players"]] == ["ann", "bob"]

        # A challenge to Ann.
        challenge = await sync(social_services.challenge)(
            challenger=bob, challenged=ann, game_slug="go-fox", options={}, turn_limit=3600
        )
        [invitation] = await stream.lines_until_quiet()
        assert types([invitation]) == [("invitation", challenge.pk)]
        assert invitation["match"]["challenge"] is True and invitation["match"]["from"] == "bob"
        # Accepted: the match starts; the invitation is not said to close (Ann took it).
        await sync(match_join)(match_id=challenge.pk, user=ann)
        lines = await stream.lines_until_quiet()
        assert types(lines)[0] == ("match_started", challenge.pk)
        assert set(types(lines)) <= {("match_started", challenge.pk), ("your_turn", challenge.pk)}
        for line in lines:
            if line["type"] == "your_turn":
                assert line["deadline"] is not None  # an hour per turn

        # Ann's turn in the duel, at each ply it comes back to her; nothing while it is Bob's.
        if await sync(on_turn)(duel) == 0:
            await sync(until_turn_passes)(duel)
            assert not [line for line in await stream.lines_until_quiet() if line["type"] == "your_turn"]
        await sync(until_turn_passes)(duel)
        [turn] = await stream.lines_until_quiet()
        duel_now = await sync(Match.objects.get)(pk=duel.pk)
        assert types([turn]) == [("your_turn", duel.pk)] and turn["match"]["ply"] == duel_now.ply
        assert turn["deadline"] is None  # the duel has no time limit

        # Someone else's match is none of Ann's business.
        others = await sync(match_create)(
            creator=carl, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username=dan.username)],
        )  # fmt: skip
        await sync(match_join)(match_id=others.pk, user=dan)
        await sync(play)(others, await sync(on_turn)(others))
        assert await stream.lines_until_quiet() == []

        # The duel ends.
        await sync(match_resign)(match_id=duel.pk, user=bob)
        [finished] = await stream.lines_until_quiet()
        assert types([finished]) == [("match_finished", duel.pk)]
        assert finished["match"]["status"] == "finished" and finished["match"]["result"]["resigned"] == [1]

        # An invitation withdrawn; a challenge of Ann's declined.
        table = await sync(match_create)(
            creator=carl, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username=ann.username)],
        )  # fmt: skip
        assert types(await stream.lines_until_quiet()) == [("invitation", table.pk)]
        await sync(match_leave)(match_id=table.pk, user=carl)
        assert await stream.lines_until_quiet() == [{"type": "invitation_closed", "id": table.pk}]
        mine = await sync(social_services.challenge)(
            challenger=ann, challenged=dan, game_slug="go-fox", options={}, turn_limit=None
        )
        assert await stream.lines_until_quiet() == [], "Ann's own challenge waits for Dan, not for her"
        await sync(match_decline)(match_id=mine.pk, user=dan)
        [declined] = await stream.lines_until_quiet()
        assert types([declined]) == [("invitation_declined", mine.pk)] and declined["username"] == "dan"
        await stream.close()

        # Reconnecting: what waits now, first.
        again = Stream("/api/stream/events", token)
        await again.open()
        now = await again.lines_until_quiet()
        assert ("match_started", challenge.pk) in types(now)
        assert all(match_id == challenge.pk for _, match_id in types(now))
        await again.close()

    run(scenario)


def test_an_event_streams_read_is_two_queries_however_many_matches(
    ann: User, bob: User, make_person: Any, django_assert_num_queries: Any
) -> None:
    """Every ring of a person's doorbell costs each of their event streams one read: a
    fixed number of queries, whatever the number of their matches (no query per match)."""
    for name in ("carl", "dan", "eve"):
        other = make_person(name)
        running = match_create(
            creator=ann, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username=other.username)],
        )  # fmt: skip
        match_join(match_id=running.pk, user=other)
        social_services.challenge(
            challenger=other, challenged=ann, game_slug="go-fox", options={}, turn_limit=None
        )
    told = Told()
    with django_assert_num_queries(2):
        first = told.news(read_mine(ann, told.following()))
    assert {line["type"] for line in first} >= {"match_started", "invitation"} and len(first) >= 6
    with django_assert_num_queries(2):
        assert told.news(read_mine(ann, told.following())) == []
