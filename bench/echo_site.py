"""The baseline of ``bench/ws_load.py``: a bare Channels consumer on the site's channel layer.

    python -m daphne -b 127.0.0.1 -p 8100 bench.echo_site:application

Served by a Daphne of its own with the site's settings (so the same Redis, the same
channel layer and prefix), it does the least a live two-player page can do: a socket
on ``/ws/echo/<pair>/`` joins that pair's group; an ``act`` it receives is sent to the
group (both sockets of the pair get it back as a ``board`` of the next ply) and
answered ``acted``, in the order the site's consumer answers (the doorbell rings inside
the move's call, then ``acted`` goes back). No session, no database, no rendering: what
the site spends above this is the cost of its move path.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
get_asgi_application()  # Django set up (the channel layer reads its settings) before Channels loads

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

ECHO_PATH = "ws/echo/{pair}/"


def echo_group(pair: int) -> str:
    """Named apart from the site's groups (``match-<id>``), which share the layer's prefix."""
    return f"bench-echo-{pair}"


class EchoConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.group = echo_group(int(self.scope["url_route"]["kwargs"]["pair"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        ply = content.get("ply") if kind == "act" else None
        if type(ply) is not int:
            await self.send_json(
                {"type": "error", "code": "unknown_message", "message": "Send act with a ply."}
            )
            return
        await self.channel_layer.group_send(self.group, {"type": "echo.move", "ply": ply + 1})
        await self.send_json(
            {"type": "acted", "ply": ply + 1, "action_id": content.get("action_id"), "duplicate": False}
        )

    async def echo_move(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "board", "ply": event["ply"], "html": ""})


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path(ECHO_PATH.format(pair="<int:pair>"), EchoConsumer.as_asgi())])}
)
