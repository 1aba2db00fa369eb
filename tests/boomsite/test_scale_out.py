"""Two Daphne processes on one Redis behave as one site.

A socket on one process hears what happens on a match through the other, because
the channel layer (Redis) carries the group messages between processes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import User
from games.services import SeatRequest, match_create, match_join
from tests.processes import daphne, free_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(site_env: dict[str, str]) -> dict[str, str]:
    return site_env


@pytest.fixture
def public_matches() -> Callable[[int], list[int]]:
    """Public matches waiting for players (anyone may watch them), by id."""

    def make(count: int) -> list[int]:
        owner = User.objects.create_user(username=f"owner{User.objects.count()}", password="x")
        return [
            match_create(
                creator=owner, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
            ).pk
            for _ in range(count)
        ]

    return make


def match_socket(port: int, match_id: int) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{port}/ws/matches/{match_id}/",
        origin=Origin(f"http://127.0.0.1:{port}"),
        open_timeout=10,
    )


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def receive_kind(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = receive(ws)
        if message["type"] == kind:
            return message


def test_a_message_through_one_daphne_reaches_a_socket_on_the_other(
    site: dict[str, str], public_matches: Any
) -> None:
    (match_id,) = public_matches(1)
    first_port, second_port = free_port(), free_port()
    with daphne(site, first_port), daphne(site, second_port), match_socket(second_port, match_id) as listener:
        assert receive(listener)["type"] == "board"  # every socket gets its board on arrival
        with match_socket(first_port, match_id) as newcomer:
            # The newcomer's arrival is announced to the match group by process one...
            assert receive(listener) == {"type": "presence", "online": True, "who": "A spectator"}
            newcomer.send(json.dumps({"type": "ping"}))
            assert receive_kind(newcomer, "pong") == {"type": "pong"}
        # ...and so is its departure.
        assert receive(listener) == {"type": "presence", "online": False, "who": "A spectator"}


def test_a_move_through_one_daphne_is_pushed_to_sockets_on_both_and_no_other_match(
    site: dict[str, str], public_matches: Any
) -> None:
    first, other = public_matches(2)
    bob = User.objects.create_user(username="bob", password="x")
    first_port, second_port = free_port(), free_port()
    with (
        daphne(site, first_port),
        daphne(site, second_port),
        match_socket(first_port, first) as one,
        match_socket(second_port, first) as two,
        match_socket(second_port, other) as elsewhere,
    ):
        for ws in (one, two, elsewhere):
            assert receive_kind(ws, "board")["ply"] == 0
        match_join(match_id=first, user=bob)  # the match starts: its doorbell rings on Redis
        for ws in (one, two):
            pushed = receive_kind(ws, "board")
            assert 'data-status="running"' in pushed["html"]
        with pytest.raises(TimeoutError):
            receive_kind(elsewhere, "board")  # presence notes may come; no board in 10 s
        # Idle for 10 s, the socket still hears its own match (a 5 s Redis read
        # timeout once killed every idle socket: see CHANNEL_LAYERS in settings).
        match_join(match_id=other, user=User.objects.create_user(username="carl", password="x"))
        assert 'data-status="running"' in receive_kind(elsewhere, "board")["html"]


def test_a_socket_from_a_foreign_origin_is_refused(site: dict[str, str]) -> None:
    port = free_port()
    with daphne(site, port), pytest.raises(Exception, match="403"):
        connect(f"ws://127.0.0.1:{port}/ws/matches/1/", origin=Origin("http://evil.example"), open_timeout=10)


def test_daphne_stops_promptly_on_sigterm_with_sockets_still_open(
    site: dict[str, str], public_matches: Any
) -> None:
    (match_id,) = public_matches(1)
    port = free_port()
    with daphne(site, port) as (_, process), match_socket(port, match_id), match_socket(port, match_id):
        process.terminate()
        assert process.wait(timeout=20) == 0
