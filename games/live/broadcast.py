"""The broadcast to a match's sockets, and to each person's own socket, over the channel
layer: names and messages in one place, so senders and consumers agree. (Not
"channels": that is the library's name.)

A move's boards cross it, each drawn for one kind of viewer and sent only to the
group of that kind's sockets on the match (``viewer_group``); a socket also checks that
a board's kind is its own before it shows it (``consumers.py``). Every other message is
a doorbell: ids and ply numbers, after which each socket reads for itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from channels.layers import get_channel_layer

from boomsite.channel_layer import SiteChannelLayer, run_sends


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def viewer_group(match_id: int, kind: str) -> str:
    """The sockets on a match that show it to one kind of viewer (``fragments.viewer_kind``)."""
    return f"match-{match_id}-{kind}"


def stream_group(match_id: int) -> str:
    """The programs' streams of a match (``/api/matches/<id>/stream``: ``streams.py``). Each
    change and chat line rings them with ids and a ply only; each stream reads its own
    seat's view from the database, so nothing drawn for another viewer reaches one."""
    return f"streams-match-{match_id}"


def person_group(user_id: int) -> str:
    """A person's ``/ws/me/`` sockets (one per open page). Not ``accounts.sessions.user_group``,
    which every socket of theirs joins for session events, match sockets included."""
    return f"me-{user_id}"


def send_match_updated(*, match_id: int, ply: int, committed_at: float, people: Sequence[int] = ()) -> None:
    """Tell every socket on a match that it moved on to ``ply`` (each gets its own view),
    and the own sockets of each of ``people`` that a match of theirs changed (each counts
    again, from the database, the matches waiting for its person: the message says nothing
    more). One trip to Redis for all of them (``_send_all``).

    ``ring`` names this one doorbell: the sockets of a process that it reaches share one
    read of the match for it (``games/live/fragments.py``, ``PicturesByDoorbell``).
    ``committed_at``: when the change committed (``time.time()``), for the push's latency."""
    doorbell = {
        "type": "match.updated",
        "match_id": match_id,
        "ply": ply,
        "ring": secrets.token_hex(8),
        "committed_at": committed_at,
    }
    _send_all([(match_group(match_id), doorbell), _stream_doorbell(match_id, ply), *_badges(people)])


@dataclass(frozen=True)
class Board:
    """A move's live part for one kind of viewer, and the seats it shows online."""

    html: str
    online: list[int]


def send_move_pushed(
    *, match_id: int, ply: int, boards: dict[str, Board], committed_at: float, people: Sequence[int] = ()
) -> None:
    """Send each kind of viewer's board of a move to that kind's sockets on the match,
    and tell the own sockets of each of ``people`` that a match of theirs changed (as
    ``send_match_updated`` does): one trip to Redis for all of them (``_send_all``)."""
    boards_sent = [
        (
            viewer_group(match_id, kind),
            {
                "type": "match.pushed",
                "kind": kind,
                "ply": ply,
                "html": board.html,
                "online": board.online,
                "committed_at": committed_at,
            },
        )
        for kind, board in boards.items()
    ]
    _send_all([*boards_sent, _stream_doorbell(match_id, ply), *_badges(people)])


def _stream_doorbell(match_id: int, ply: int) -> tuple[str, dict[str, Any]]:
    """The programs' streams of the match read it again (one more group in the same round
    trips to Redis: nothing more when no stream is open)."""
    return stream_group(match_id), {"type": "stream.match", "ply": ply}


def _badges(people: Sequence[int]) -> list[tuple[str, dict[str, Any]]]:
    return [(person_group(user_id), {"type": "matches.changed"}) for user_id in people]


def _send_all(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, message)``, in two round trips to Redis for all of them (the
    site's layer: ``boomsite/channel_layer.py``)."""
    layer = get_channel_layer()
    assert isinstance(layer, SiteChannelLayer), "settings.CHANNEL_LAYERS names the site's layer"

    async def send() -> None:
        await layer.group_send_many(sends)

    run_sends(send)


def ring(group: str, message_type: str) -> None:
    """A doorbell for a feature's own sockets (a tournament's page): ``{"type":
    message_type}`` to ``group``, nothing else; each socket reads for itself. Safe from
    any thread, with or without an event loop (``run_sends``)."""
    _send_all([(group, {"type": message_type})])


def send_chat_posted(*, match_id: int, message_id: int) -> None:
    """Tell every socket and stream on a match that a chat message was posted (each reads
    it from the database)."""
    _send_all(
        [
            (match_group(match_id), {"type": "match.chat", "message_id": message_id}),
            (stream_group(match_id), {"type": "stream.chat", "message_id": message_id}),
        ]
    )
