"""The programs' streams on a real Daphne (tests/processes.py): what the in-process tests
cannot show, a stream held open as the server stops."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from accounts.models import User
from accounts.services import api_token_create
from games.models import Match
from tests.processes import daphne, free_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_daphne_stops_promptly_on_sigterm_with_streams_open(
    site_env: dict[str, str], duel: Match, ann: User
) -> None:
    """A stream never ends by itself: stopping the server cuts it at once (systemd would
    kill a Daphne still running after 20 s), and the process exits cleanly."""
    token = api_token_create(user=ann, name="bot")[1]
    port = free_port()
    with daphne(site_env, port) as (_, process):
        connections = []
        for path in (f"/api/matches/{duel.pk}/stream", "/api/stream/events"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
            connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
            answer = connection.getresponse()
            assert answer.status == 200
            assert json.loads(answer.readline())["type"] in ("state", "match_started")
            connections.append((connection, answer))
        stopping = time.monotonic()
        process.terminate()
        assert process.wait(timeout=20) == 0
        assert time.monotonic() - stopping < 10
        for connection, answer in connections:
            # Cut off with the server, without a last line (docs/api.md: reconnect).
            with pytest.raises(http.client.IncompleteRead):
                answer.read()
            connection.close()
