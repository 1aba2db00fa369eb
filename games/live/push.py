"""What the live part does once a change to a match committed (``games/effects.py``
sends ``MATCH_CHANGED`` and ``CHAT_POSTED``; ``games/apps.py`` connects these).

A move's boards are drawn here, where the move was stored (the socket's thread, a
view's, a Celery worker's bot turn), from the match, seats and state its service
holds: once for each kind of viewer that has the match open (``presence.watching``),
none for a kind nobody is looking as, and each sent to its kind's group only
(``broadcast.send_move_pushed``). No socket reads the match for a move.

Any other change (a seat taken, left or declined, an invitation, the start, a
resignation, a clock's forfeit) rings the doorbell instead, and every socket reads the
match again: these are the changes that can change who a viewer is at the table, so
each socket decides its kind afresh, and changes group, before it shows a board
(``consumers.py``). A move never changes a viewer's kind.
"""

from __future__ import annotations

import time
from typing import Any

from boomsite import metrics
from games.effects import Played
from games.live import presence
from games.live.broadcast import Board, send_chat_posted, send_match_updated, send_move_pushed
from games.live.fragments import access_for_kind, live_html, online_for


def boards_for_watching(played: Played) -> dict[str, Board]:
    """The live part of ``played`` for each kind of viewer that has its match open now,
    drawn once per kind (one read of Redis for who is looking)."""
    kinds, present = presence.watching(played.match.pk)
    boards: dict[str, Board] = {}
    for kind in sorted(kinds):
        access = access_for_kind(played.match, played.seats, kind)
        if access is None:
            continue  # a seat left since its socket said so: that socket reads again
        online = online_for(access, present)
        boards[kind] = Board(live_html(access, online=online, state=played.state), sorted(online))
    return boards


def match_changed(
    sender: Any, *, match_id: int, ply: int, people: list[int], committed_at: float, played: Played | None,
    **kwargs: Any,
) -> None:  # fmt: skip
    if played is None:
        send_match_updated(match_id=match_id, ply=ply, people=people, committed_at=committed_at)
        return
    started = time.perf_counter()
    boards = boards_for_watching(played)
    metrics.observe_push_render(time.perf_counter() - started, len(boards))
    send_move_pushed(match_id=match_id, ply=ply, boards=boards, people=people, committed_at=committed_at)


def chat_posted(sender: Any, *, match_id: int, message_id: int, **kwargs: Any) -> None:
    send_chat_posted(match_id=match_id, message_id=message_id)
