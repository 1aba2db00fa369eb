"""The broadcast to a match's sockets, and to each person's own socket, over the channel
layer: names and messages in one place, so senders and consumers agree. (Not
"channels": that is the library's name.)

The channel layer is only a doorbell: messages carry ids and ply numbers, never
game data, so hidden information cannot cross it.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def person_group(user_id: int) -> str:
    """A person's ``/ws/me/`` sockets (one per open page). Not ``accounts.sessions.user_group``,
    which every socket of theirs joins for session events, match sockets included."""
    return f"me-{user_id}"


def send_match_updated(*, match_id: int, ply: int, committed_at: float, people: Sequence[int] = ()) -> None:
    """Tell every socket on a match that it moved on to ``ply`` (each gets its own view),
    and the own sockets of each of ``people`` that a match of theirs changed (each counts
    again, from the database, the matches waiting for its person: the message says nothing
    more). One trip to the event loop for all of them, the sends made at once (a move
    rings the match and each player).

    ``ring`` names this one doorbell: the sockets of a process that it reaches share one
    read of the match for it (``games/live_fragments.py``, ``PicturesByDoorbell``).
    ``committed_at``: when the change committed (``time.time()``), for the push's latency."""
    layer = get_channel_layer()
    assert layer is not None
    doorbell = {
        "type": "match.updated",
        "match_id": match_id,
        "ply": ply,
        "ring": secrets.token_hex(8),
        "committed_at": committed_at,
    }

    async def ring() -> None:
        await asyncio.gather(
            layer.group_send(match_group(match_id), doorbell),
            *(layer.group_send(person_group(user_id), {"type": "matches.changed"}) for user_id in people),
        )

    async_to_sync(ring)()


def send_chat_posted(*, match_id: int, message_id: int) -> None:
    """Tell every socket on a match that a chat message was posted (each reads it from the database)."""
    layer = get_channel_layer()
    assert layer is not None
    async_to_sync(layer.group_send)(match_group(match_id), {"type": "match.chat", "message_id": message_id})
