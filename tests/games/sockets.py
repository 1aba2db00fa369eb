"""Helpers for tests that open sockets in process (the real ASGI stack and the
real Redis channel layer): a browser's session, a socket, reading its messages."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from accounts.models import User
from boomsite.asgi import application
from boomsite.origins import origin_of
from games.engine import get
from games.live.socket_db import close_connections
from games.models import Match

# The page's own origin, as a browser on the site sends it (boomsite/origins.py).
ORIGIN = (b"origin", origin_of(settings.SITE_URL).encode())


class Viewer:
    """Someone's browser: a session cookie made up front (logging in touches the database)."""

    def __init__(self, user: User | None):
        self.cookie: list[tuple[bytes, bytes]] = []
        if user is not None:
            client = Client()
            client.force_login(user)
            self.cookie = [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


def socket(
    match_id: int, viewer: Viewer, origin: tuple[bytes, bytes] = ORIGIN, path_suffix: str = ""
) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/matches/{match_id}/{path_suffix}", headers=[origin, *viewer.cookie]
    )


def me_socket(viewer: Viewer, origin: tuple[bytes, bytes] = ORIGIN) -> WebsocketCommunicator:
    """The per-person socket every page of a signed-in person opens (the badge's count)."""
    return WebsocketCommunicator(application, "/ws/me/", headers=[origin, *viewer.cookie])


async def next_of(ws: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    """The next message of type ``kind`` (presence notes and such are skipped)."""
    while True:
        message: dict[str, Any] = await ws.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async scenario, then close the database connections its sync calls opened.

    Sync code called from the event loop runs in asgiref's one thread for
    thread-sensitive code (``database_sync_to_async``), or on the sockets' own threads
    (the consumers', ``games/live/socket_db.py``), and their connections outlive the
    scenario (``CONN_MAX_AGE``, the sockets' threads keep theirs): left open, the test
    database could not be dropped at the end of the run. Closing runs in those threads.
    """

    async def scenario_then_close() -> None:
        try:
            await scenario()
        finally:
            await database_sync_to_async(connections.close_all)()
            await close_connections()

    asyncio.run(scenario_then_close())


def to_act(match: Match) -> tuple[int, dict[str, Any]]:
    match.refresh_from_db()
    game = get(match.game)
    state = match.decoded_state()
    seat = game.to_act(state)[0]
    return seat, game.legal_actions(state, seat)[0]
