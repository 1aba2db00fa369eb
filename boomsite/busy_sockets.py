"""A socket that cannot get a database connection in time: closed with 4503, not a 500.

HTTP answers a wait for one of the pool's connections that ran out of time with a 503
(``boomsite/views.py`` ``server_error``), and an open socket's message with an error
``busy`` (``games/live/consumers.py``). A socket's handshake needs the database too (the
session, before any consumer runs), and an exception there made Daphne refuse the
handshake as a server error. This middleware accepts such a socket and closes it at
once with 4503, "busy: try again later" (WebSocket's own 1013 says so, but a server
may send only 1000 or 3000-4999 here; 4xxx are the site's, as 4404 and 4401), which
the page takes as any dropped socket, only waiting longer before it connects again
(``static/js/match.js``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.db import OperationalError

from games.errors import is_pool_exhausted

TRY_AGAIN_LATER = 4503

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class BusySocketMiddleware:
    def __init__(self, inner: Callable[..., Awaitable[None]]) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        state = {"accepted": False, "closed": False}

        async def watched_send(message: dict[str, Any]) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] == "websocket.close":
                state["closed"] = True
            await send(message)

        try:
            await self.inner(scope, receive, watched_send)
        except OperationalError as error:
            if not is_pool_exhausted(error) or state["closed"]:
                raise
            if not state["accepted"]:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
