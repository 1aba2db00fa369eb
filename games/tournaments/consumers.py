"""The tournament page's socket (``/ws/tournaments/<id>/``): a doorbell, nothing more.

The services ring the tournament's group after each commit that changes what its page
shows (``effects.tournament_changed``: a table finished, a round seated, someone
registered or left, the status changed); this socket passes ``{"type": "changed"}``
on to the page, and ``static/js/tournament.js`` fetches the page's live part again
over HTTP, as its viewer (so a change never carries anything across the channel
layer, and the fragment is the same one the page was drawn with).

Anyone may watch a published tournament; one being set up only staff (as its page).
It reuses the site's socket base (``games.live.consumers.SiteSocket``: the rate limit and
the checks on each message). Nothing on it depends on who is signed in, so it does not
follow the session as the match socket does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from channels.db import database_sync_to_async

from games.errors import ErrorCode
from games.live.consumers import CLOSE_NOT_FOUND, CLOSE_TOO_MANY, SiteSocket
from games.tournaments import pages
from games.tournaments.effects import group_name

# **Decision**: tabs of a few tournaments at once are plenty; each socket costs a page
# fetch on every change, so one client may not hold hundreds (per process, as the
# match sockets' caps: games/live/socket_limits.py).
SOCKETS_PER_CLIENT = 20
_open_per_client: Counter[str] = Counter()


class TournamentConsumer(SiteSocket):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.user = self.scope.get("user")
        self._start_limits()
        if not await database_sync_to_async(self._may_watch)():
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.client = self._client_key()
        if _open_per_client[self.client] >= SOCKETS_PER_CLIENT:
            await self.accept()
            await self._error(
                ErrorCode.TOO_MANY_SOCKETS,
                f"Too many open connections: at most {SOCKETS_PER_CLIENT} tournament pages from one client.",
            )
            await self.close(code=CLOSE_TOO_MANY)
            return
        _open_per_client[self.client] += 1
        self.counted = True
        self.group = group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            _open_per_client[self.client] -= 1
            if _open_per_client[self.client] <= 0:
                del _open_per_client[self.client]
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def _may_watch(self) -> bool:
        try:
            pages.shown_tournament(self.tournament_id, self.user)
        except pages.NotShown:
            return False
        return True

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self._error(ErrorCode.UNKNOWN_MESSAGE, "Unknown message type: this socket takes ping.")

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})
