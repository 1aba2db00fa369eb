"""The event log every game keeps in its state, redacted per seat by ``view``.

An entry holds what everyone may know (``public``) and, per seat, what only that
seat may know (``private``). Facts are stored as canonical JSON text: immutable,
cheap to copy with the state, and encoded as they are. Texts name players as
``{s0}``, ``{s1}``, ... so the site can put display names in (``render_text``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_SEAT_MARK = re.compile(r"\{s(\d+)\}")


@dataclass(frozen=True, slots=True)
class LogEntry:
    event: str
    seat: int | None
    text: str
    public: str = "{}"  # JSON object of facts everyone may know
    # (seat, that seat's own text, JSON object of facts only it may know)
    private: tuple[tuple[int, str, str], ...] = ()


def _facts(facts: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(facts or {}), sort_keys=True, separators=(",", ":"))


def entry(
    event: str,
    seat: int | None,
    text: str,
    public: Mapping[str, Any] | None = None,
    private: Mapping[int, tuple[str, Mapping[str, Any]]] | None = None,
) -> LogEntry:
    """Build an entry; ``private`` maps a seat to (its own text, its own facts)."""
    return LogEntry(
        event=event,
        seat=seat,
        text=text,
        public=_facts(public),
        private=tuple(
            (owner, own_text, _facts(facts)) for owner, (own_text, facts) in sorted((private or {}).items())
        ),
    )


def entry_view(item: LogEntry, seat: int | None) -> dict[str, Any]:
    """One entry as ``seat`` may see it (``None``: a spectator, public facts only)."""
    shown: dict[str, Any] = {"event": item.event, "seat": item.seat, "text": item.text}
    shown.update(json.loads(item.public))
    if seat is not None:
        for owner, own_text, facts in item.private:
            if owner == seat:
                shown["text"] = own_text
                shown.update(json.loads(facts))
    return shown


def log_view(log: Sequence[LogEntry], seat: int | None) -> list[dict[str, Any]]:
    return [entry_view(item, seat) for item in log]


def render_text(text: str, names: Sequence[str]) -> str:
    """Replace ``{sN}`` seat marks with display names (unknown seats read "Seat N+1")."""

    def name_for(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else f"Seat {index + 1}"

    return _SEAT_MARK.sub(name_for, text)
