"""The broadcast to a match's sockets over the channel layer: names and messages in one
place, so senders and consumers agree. (Not "channels": that is the library's name.)

The channel layer is only a doorbell: messages carry ids and ply numbers, never
game data, so hidden information cannot cross it.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def send_match_updated(*, match_id: int, ply: int) -> None:
    """Tell every socket on a match that it moved on to ``ply`` (each refetches its own view)."""
    layer = get_channel_layer()
    assert layer is not None
    async_to_sync(layer.group_send)(
        match_group(match_id), {"type": "match.updated", "match_id": match_id, "ply": ply}
    )


def send_chat_posted(*, match_id: int, message_id: int) -> None:
    """Tell every socket on a match that a chat message was posted (each reads it from the database)."""
    layer = get_channel_layer()
    assert layer is not None
    async_to_sync(layer.group_send)(match_group(match_id), {"type": "match.chat", "message_id": message_id})
