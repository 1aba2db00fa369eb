"""How the word-card games show a card, and how their samplers read views back.

Every card in a view is a small dict carrying what a board needs to draw it and
read it aloud: its opaque ``id``, ``kind``, ``colour``, ``number`` and ``word``.
The three games share these helpers so that a card looks the same everywhere.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from games.engine.log import LogEntry
from games.engine.word_cards.facts import card_json, face_members, json_text
from games.engine.word_cards.word_list import WORDS, WordCard


def _face(card: WordCard) -> dict[str, Any]:
    return {"kind": "word", "colour": card.colour, "number": card.number, "word": card.word}


_FACE_MEMBERS = tuple(face_members(_face(card)) for card in WORDS.cards)
_WORDS_JSON = tuple(json_text([card.word]) for card in WORDS.cards)


def word_card_view(card: WordCard, card_id: str) -> dict[str, Any]:
    return {"id": card_id, **_face(card)}


def word_card_json(card: WordCard, card_id: str) -> str:
    """``word_card_view`` as JSON text, for log entries."""
    return card_json(card_id, _FACE_MEMBERS[card.index])


def word_json(card: WordCard) -> str:
    """``[word]`` as JSON text: the ``words`` of a log entry about one card."""
    return _WORDS_JSON[card.index]


def cards_in(data: object) -> Iterator[dict[str, Any]]:
    """Every card dict (one with an ``id`` and a ``kind``) anywhere inside a view."""
    if isinstance(data, dict):
        if "id" in data and "kind" in data:
            yield data
            return
        for value in data.values():
            yield from cards_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from cards_in(value)


def rebuild_ids(known: Mapping[str, int], count: int, rng: random.Random) -> tuple[str, ...]:
    """Per card index, the id a view showed for it, or a fresh opaque id if it showed none.

    ``known`` maps ids seen in a view to card indexes. The fresh ids are random, so a
    sampled state never repeats the hidden ids of the true one.
    """
    shown = {index: card_id for card_id, index in known.items()}
    taken = set(known)
    ids: list[str] = []
    for index in range(count):
        card_id = shown.get(index)
        ids.append(card_id if card_id is not None else _fresh_id(rng, taken))
    return tuple(ids)


def _fresh_id(rng: random.Random, taken: set[str]) -> str:
    while True:
        card_id = f"{rng.getrandbits(32):08x}"
        if card_id not in taken:
            taken.add(card_id)
            return card_id


def public_entry(viewed: Mapping[str, Any]) -> LogEntry:
    """A log entry rebuilt from how a viewer saw it, for entries with no private part."""
    facts = {key: value for key, value in viewed.items() if key not in ("event", "seat", "text")}
    return LogEntry(
        event=viewed["event"],
        seat=viewed["seat"],
        text=viewed["text"],
        public=json.dumps(facts, sort_keys=True, separators=(",", ":")),
    )


def word_card_of_view(card: Mapping[str, Any]) -> int:
    """The index of the word card a view dict shows."""
    return WORDS.card(WORDS.colour_keys.index(card["colour"]), card["number"]).index
