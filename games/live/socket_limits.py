"""How many match sockets one Daphne process holds, and how often it announces them.

Sockets are cheap to open and each one once cost a board render on every move (now
a render per kind of viewer and process, games/live/fragments.py, but still a socket
to push to), so a single client could open hundreds on one match (the security test
opened 150) and twenty anonymous ones drove 177 renders a second. The counts live in the process
(a socket lives in exactly one process, and a process that dies takes its sockets
and its counts with it, so nothing is ever left counted): with N processes behind
a proxy the caps are per process.

The per-person socket (``/ws/me/``: the badge of matches waiting for someone) opens
on every page of the site, so it has a cap of its own per client, counted apart
from the match sockets: a person with many tabs keeps their match sockets.

The programs' streams (``/api/stream/events``, ``/api/matches/<id>/stream``:
``streams.py``) are counted per token and kind of stream, as the sockets are per
client: a program that opens one stream too many is refused ``429 too_many_streams``
before it streams anything.

Presence ("Ann opened the match") is announced only when a person's first socket
on a match opens or their last one closes, and at most ``PRESENCE_BURST`` times
then one per ``PRESENCE_SECONDS`` per match: 200 open/close cycles once pushed 225
presence frames to a player.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# **Decision**: a person may well keep a match open in a few tabs and devices; a
# spectator's page needs one. A popular public match may have many watchers.
SOCKETS_PER_CLIENT_PER_MATCH = 6
SOCKETS_PER_CLIENT = 40
SOCKETS_PER_MATCH = 300
# One per open tab of the site; past it a tab's badge stays as the page drew it.
PERSONAL_SOCKETS_PER_CLIENT = 20
# **Decision**: a program needs one event stream; a few more let a second copy of it (a
# restart overlapping the old one, a test run beside the bot) connect. A bot plays
# several matches at once, each with its own stream.
STREAMS_PER_TOKEN = {"events": 4, "match": 16}
PRESENCE_BURST = 5
PRESENCE_SECONDS = 2.0


@dataclass
class SocketRegistry:
    per_client_match: Counter[tuple[str, int]] = field(default_factory=Counter)
    per_client: Counter[str] = field(default_factory=Counter)
    per_match: Counter[int] = field(default_factory=Counter)
    per_viewer: Counter[tuple[str, int]] = field(default_factory=Counter)
    personal_per_client: Counter[str] = field(default_factory=Counter)
    presence_tokens: dict[int, tuple[float, float]] = field(default_factory=dict)
    streams_per_token: Counter[tuple[str, str]] = field(default_factory=Counter)

    def open(self, *, client: str, match_id: int) -> str | None:
        """Count a socket in, or say why it may not open."""
        if self.per_client_match[(client, match_id)] >= SOCKETS_PER_CLIENT_PER_MATCH:
            return f"at most {SOCKETS_PER_CLIENT_PER_MATCH} open sockets on one match from one client"
        if self.per_client[client] >= SOCKETS_PER_CLIENT:
            return f"at most {SOCKETS_PER_CLIENT} open match sockets from one client"
        if self.per_match[match_id] >= SOCKETS_PER_MATCH:
            return f"at most {SOCKETS_PER_MATCH} open sockets on one match"
        self.per_client_match[(client, match_id)] += 1
        self.per_client[client] += 1
        self.per_match[match_id] += 1
        return None

    def close(self, *, client: str, match_id: int) -> None:
        _decrement(self.per_client_match, (client, match_id))
        _decrement(self.per_client, client)
        _decrement(self.per_match, match_id)
        if match_id not in self.per_match:
            self.presence_tokens.pop(match_id, None)

    def sockets_on(self, match_id: int) -> int:
        """How many sockets of this process are on the match."""
        return self.per_match.get(match_id, 0)

    def open_personal(self, *, client: str) -> str | None:
        """Count a per-person socket (``/ws/me/``) in, or say why it may not open."""
        if self.personal_per_client[client] >= PERSONAL_SOCKETS_PER_CLIENT:
            return f"at most {PERSONAL_SOCKETS_PER_CLIENT} open pages with live counts from one client"
        self.personal_per_client[client] += 1
        return None

    def close_personal(self, *, client: str) -> None:
        _decrement(self.personal_per_client, client)

    def open_stream(self, *, token: str, kind: str) -> str | None:
        """Count a program's stream in (``token``: the token's hash; ``kind``: ``events`` or
        ``match``), or say why it may not open."""
        limit = STREAMS_PER_TOKEN[kind]
        if self.streams_per_token[(token, kind)] >= limit:
            noun = "event streams" if kind == "events" else "match streams"
            return f"at most {limit} open {noun} per token: close one first"
        self.streams_per_token[(token, kind)] += 1
        return None

    def close_stream(self, *, token: str, kind: str) -> None:
        _decrement(self.streams_per_token, (token, kind))

    def clear(self) -> None:
        """Forget every count, as a fresh process starts (tests begin each case so)."""
        for counter in (
            self.per_client_match,
            self.per_client,
            self.per_match,
            self.per_viewer,
            self.personal_per_client,
            self.streams_per_token,
        ):
            counter.clear()
        self.presence_tokens.clear()

    def viewer_arrived(self, *, viewer: str, match_id: int) -> bool:
        """True when this is the viewer's first socket on the match (worth announcing)."""
        self.per_viewer[(viewer, match_id)] += 1
        return self.per_viewer[(viewer, match_id)] == 1 and self._may_announce(match_id)

    def viewer_left(self, *, viewer: str, match_id: int) -> bool:
        """True when the viewer's last socket on the match closed (worth announcing)."""
        key = (viewer, match_id)
        self.per_viewer[key] -= 1
        if self.per_viewer[key] > 0:
            return False
        del self.per_viewer[key]
        return self._may_announce(match_id)

    def _may_announce(self, match_id: int) -> bool:
        """A token bucket per match: a few announcements at once, then one every so often."""
        now = time.monotonic()
        tokens, stamp = self.presence_tokens.get(match_id, (float(PRESENCE_BURST), now))
        tokens = min(float(PRESENCE_BURST), tokens + (now - stamp) / PRESENCE_SECONDS)
        if tokens < 1:
            self.presence_tokens[match_id] = (tokens, now)
            return False
        self.presence_tokens[match_id] = (tokens - 1, now)
        return True


def _decrement(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


# The process's own: every MatchConsumer of this process counts here (one event loop,
# so no lock is needed).
REGISTRY = SocketRegistry()
