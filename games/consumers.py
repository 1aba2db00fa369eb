"""The match WebSocket: joins the match's group and relays its doorbell messages.

An async consumer, on purpose and against the Channels default: a sync consumer
blocks a worker thread in ``async_to_sync`` during ``disconnect``, and when Daphne
shuts down with sockets open its event loop is gone, so that thread waits forever
and the process never exits (seen in tests/boomsite/test_scale_out.py). Work that
takes row locks will run through ``database_sync_to_async`` and the services.
Until matches exist (issue #7) a socket hears the doorbell (``updated``) and who
comes and goes (``presence``).
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.channels import match_group


class MatchConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.group = match_group(self.scope["url_route"]["kwargs"]["match_id"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._announce(online=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self._announce(online=False)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
            return
        await self.send_json({"type": "error", "code": "unknown_message", "message": "Unknown message type."})

    # -- channel layer events (type "match.updated" is handled by match_updated) --

    async def match_updated(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "updated", "ply": event["ply"]})

    async def match_presence(self, event: dict[str, Any]) -> None:
        if event["sender"] != self.channel_name:
            await self.send_json({"type": "presence", "online": event["online"], "who": event["who"]})

    async def _announce(self, *, online: bool) -> None:
        user = self.scope.get("user")
        who = user.public_name if user is not None and user.is_authenticated else "A spectator"
        await self.channel_layer.group_send(
            self.group,
            {"type": "match.presence", "online": online, "who": who, "sender": self.channel_name},
        )
