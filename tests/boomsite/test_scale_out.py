"""Two Daphne processes on one Redis behave as one site.

A socket on one process hears what happens on a match through the other, because
the channel layer (Redis) carries the group messages between processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.boomsite.test_run import free_port
from tests.conftest import ROOT, wait_for

pytestmark = pytest.mark.slow


@contextmanager
def daphne(port: int) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "boomsite.asgi:application"],
        cwd=ROOT, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        wait_for(lambda: process.poll() is not None or _accepts(port), timeout=60, what=f"Daphne on {port}")
        assert process.poll() is None, "Daphne exited at start"
        yield process
    finally:
        process.terminate()
        # Daphne must exit promptly on SIGTERM even with sockets open (deploys restart it).
        process.wait(timeout=20)


def _accepts(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def match_socket(port: int, match_id: int) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{port}/ws/matches/{match_id}/",
        origin=Origin(f"http://127.0.0.1:{port}"),
        open_timeout=10,
    )


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def test_a_message_through_one_daphne_reaches_a_socket_on_the_other() -> None:
    first_port, second_port = free_port(), free_port()
    with daphne(first_port), daphne(second_port), match_socket(second_port, 41) as listener:
        with match_socket(first_port, 41) as newcomer:
            # The newcomer's arrival is announced to the match group by process one...
            assert receive(listener) == {"type": "presence", "online": True, "who": "A spectator"}
            newcomer.send(json.dumps({"type": "ping"}))
            assert receive(newcomer) == {"type": "pong"}
        # ...and so is its departure.
        assert receive(listener) == {"type": "presence", "online": False, "who": "A spectator"}


def test_the_match_doorbell_reaches_sockets_on_both_processes_and_no_other_match() -> None:
    from games.channels import send_match_updated

    first_port, second_port = free_port(), free_port()
    with (
        daphne(first_port),
        daphne(second_port),
        match_socket(first_port, 42) as one,
        match_socket(second_port, 42) as two,
        match_socket(second_port, 43) as elsewhere,
    ):
        assert receive(one)["type"] == "presence"  # "two" arrived after "one"
        send_match_updated(match_id=42, ply=7)
        assert receive(one) == {"type": "updated", "ply": 7}
        assert receive(two) == {"type": "updated", "ply": 7}
        with pytest.raises(TimeoutError):
            elsewhere.recv(timeout=1)


def test_a_socket_from_a_foreign_origin_is_refused() -> None:
    port = free_port()
    with daphne(port), pytest.raises(Exception, match="403"):
        connect(f"ws://127.0.0.1:{port}/ws/matches/1/", origin=Origin("http://evil.example"), open_timeout=10)


def test_daphne_stops_promptly_on_sigterm_with_sockets_still_open() -> None:
    port = free_port()
    with daphne(port) as process, match_socket(port, 44), match_socket(port, 44):
        process.terminate()
        assert process.wait(timeout=20) == 0
