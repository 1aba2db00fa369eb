"""Log entries built from JSON text that is mostly written once.

``games.engine.log.entry`` encodes an entry's facts with ``json.dumps`` on every
call. The word-card games log a card or two on every action of every bot playout,
and that encoding was most of an action's cost, so they build the same
``LogEntry`` from pieces instead: each card's JSON is written once per card (and
per opaque id), and ``json_object`` joins pieces that are already JSON text.
The result reads back through ``log_view`` exactly like an ``entry``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence

from games.engine.log import LogEntry


def json_text(value: object) -> str:
    """Compact JSON for one value (numbers, texts, small lists)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def json_object(**members: str) -> str:
    """A JSON object from members given as JSON text; keys are plain Python names."""
    return "{" + ",".join(f'"{key}":{value}' for key, value in members.items()) + "}"


def json_list(items: Iterable[str]) -> str:
    """A JSON list from items given as JSON text."""
    return "[" + ",".join(items) + "]"


def card_json(card_id: str, members: str) -> str:
    """A card as JSON: its opaque id (a hex token, so no escaping) and its face's members."""
    return '{"id":"' + card_id + '",' + members + "}"


def face_members(face: Mapping[str, object]) -> str:
    """A card face's members as JSON text without braces, written once per card."""
    return json_text(dict(face))[1:-1]


def logged(
    event: str,
    seat: int | None,
    text: str,
    public: str = '{"words":[]}',
    private: tuple[tuple[int, str, str], ...] = (),
) -> LogEntry:
    """A log entry whose facts are already JSON text (``private``: seat, own text, own facts)."""
    return LogEntry(event=event, seat=seat, text=text, public=public, private=private)


def dealt_entry(
    dealer: int,
    text: str,
    public: str,
    hands: Sequence[Sequence[int]],
    card_json: Callable[[int], str],
    spoken: Callable[[int], str],
) -> LogEntry:
    """A deal: ``text`` for everyone, and for each seat its own hand ("You got: ..."),
    each card as ``card_json`` writes it and read aloud as ``spoken`` says it."""
    private = []
    for seat, hand in enumerate(hands):
        words = [spoken(card) for card in hand]
        private.append(
            (
                seat,
                f"{text} You got: {', '.join(words)}.",
                json_object(cards=json_list(card_json(card) for card in hand), words=json_text(words)),
            )
        )
    return logged("deal", dealer, text, public, tuple(private))


def drew_entry(seat: int, public: str, label: str, card_json: str, words_json: str) -> LogEntry:
    """A draw: everyone reads that ``seat`` drew a card, the drawer which one (``label``)."""
    return logged(
        "draw",
        seat,
        f"{{s{seat}}} drew a card.",
        public,
        ((seat, f"You drew {label}.", json_object(card=card_json, words=words_json)),),
    )
