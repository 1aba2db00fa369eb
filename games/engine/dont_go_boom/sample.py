"""A full state consistent with one seat's view, hidden cards re-dealt at random.

What a viewer knows: every face-up card, the discard pile, the removed bombs, the
cards publicly known to be in the deck, the cards it peeked at and the card it
holds. Everything else (the other face-down cards, the rest of the deck, a card
someone else drew from the deck) is dealt at random from the cards the viewer has
not seen. Face-down cards and the unknown part of the deck come from the same pool,
since every face-down card is one nobody but a peeker has ever seen.
"""

from __future__ import annotations

import marshal
import random
from functools import lru_cache
from typing import Any

from games.engine.dont_go_boom.cards import CARD_COUNT, indices_by_type
from games.engine.dont_go_boom.rules import peek_entry
from games.engine.dont_go_boom.state import CHOOSE, NO_CARD, NO_SEAT, DontGoBoomState
from games.engine.log import LogEntry, entry

_ENTRY_KEYS = ("event", "seat", "text")
_BY_TYPE = indices_by_type()


def sample_state(view: dict[str, Any], seat: int | None, rng: random.Random) -> DontGoBoomState:
    players: int = view["players"]
    free_by_type = {group: indices.copy() for group, indices in _BY_TYPE.items()}
    index_of: dict[str, int] = {}

    def claim(card: dict[str, Any]) -> None:
        if card["id"] not in index_of:
            index_of[card["id"]] = free_by_type[(card["value"], card["kind"])].pop()

    hidden_ids: list[str] = []
    for minefield in view["minefields"]:
        for card in minefield["cards"]:
            if card["face_up"]:
                claim(card)
            elif card["peeked"] is not None:
                claim(card["peeked"])
            else:
                hidden_ids.append(card["id"])
    for card in (*view["discard"], *view["removed"], *view["deck"]["known_cards"]):
        claim(card)
    held = view["held"]
    held_card = held["card"] if held is not None else None
    if held_card is not None:
        claim(held_card)

    pool = [index for indices in free_by_type.values() for index in indices]
    rng.shuffle(pool)
    for card_id in hidden_ids:
        index_of[card_id] = pool.pop()

    # The deck (plus a card someone else drew from it and still holds) is the cards
    # publicly known to be there, topped up from the unseen pool, in random order.
    known_in_deck = [index_of[card["id"]] for card in view["deck"]["known_cards"]]
    if held_card is not None:
        known_in_deck = [index for index in known_in_deck if index != index_of[held_card["id"]]]
    is_held_hidden = held is not None and held_card is None
    unknown_count = view["deck"]["size"] + (1 if is_held_hidden else 0) - len(known_in_deck)
    pile = known_in_deck + [pool.pop() for _ in range(unknown_count)]
    if pool:
        raise ValueError("the view does not account for every card")
    rng.shuffle(pile)
    held_index = NO_CARD
    if held_card is not None:
        held_index = index_of[held_card["id"]]
    elif is_held_hidden:
        held_index = pile.pop(0)

    ids = _ids(index_of, rng)
    grids = tuple(
        tuple(index_of[card["id"]] for card in minefield["cards"]) for minefield in view["minefields"]
    )
    known: list[list[int]] = [[] for _ in range(players)]
    for minefield in view["minefields"]:
        for card in minefield["cards"]:
            if not card["face_up"] and card["known_by"]:
                for owner in range(players):
                    if owner in card["known_by"]:
                        known[owner].append(index_of[card["id"]])
    peeked = tuple(tuple(sorted(cards)) for cards in known)
    final_lap = view["final_lap"]
    return DontGoBoomState(
        players=players,
        rounds=view["rounds"],
        round=view["round"],
        rng=rng.getrandbits(64),
        ids=ids,
        grids=grids,
        face_up=tuple(
            tuple(card["face_up"] for card in minefield["cards"]) for minefield in view["minefields"]
        ),
        peeked=peeked,
        deck=tuple(pile),
        discard=tuple(index_of[card["id"]] for card in view["discard"]),
        removed=tuple(index_of[card["id"]] for card in view["removed"]),
        public_deck=tuple(sorted(index_of[card["id"]] for card in view["deck"]["known_cards"])),
        phase=view["phase"],
        chosen=_chosen(view, seat, rng),
        turn=NO_SEAT if view["turn"] is None else view["turn"],
        held=held_index,
        held_from="" if held is None else held["from"],
        turns_taken=view["turns_taken"],
        final_lap_trigger=NO_SEAT if final_lap["triggered_by"] is None else final_lap["triggered_by"],
        final_lap=tuple(final_lap["remaining"]),
        round_scores=tuple(tuple(scores) for scores in view["round_scores"]),
        log=_log(view, seat, index_of),
    )


def _ids(index_of: dict[str, int], rng: random.Random) -> tuple[str, ...]:
    """Seen ids where the viewer saw them; fresh opaque ids for cards it never saw."""
    ids: list[str | None] = [None] * CARD_COUNT
    for card_id, index in index_of.items():
        ids[index] = card_id
    used = set(index_of)
    getrandbits = rng.getrandbits
    for index in range(CARD_COUNT):
        if ids[index] is None:
            token = f"{getrandbits(32):08x}"
            while token in used:
                token = f"{getrandbits(32):08x}"
            used.add(token)
            ids[index] = token
    return tuple(map(str, ids))


def _chosen(view: dict[str, Any], seat: int | None, rng: random.Random) -> tuple[int, ...]:
    """During the first flip, others' secret choices are guessed at random."""
    if view["phase"] != CHOOSE:
        return ()
    chosen = []
    for minefield in view["minefields"]:
        owner = minefield["seat"]
        if not minefield["has_chosen"]:
            chosen.append(NO_CARD)
        elif owner == seat:
            chosen.append(view["my_choice"])
        else:
            chosen.append(rng.randrange(len(minefield["cards"])))
    return tuple(chosen)


def _log(view: dict[str, Any], seat: int | None, index_of: dict[str, int]) -> tuple[LogEntry, ...]:
    """The log rebuilt from its redacted view; others' Peeks name the sampled card."""
    try:
        # A bot samples the same view again and again: the rebuilt entries are cached
        # by the log's exact content (equal marshal bytes mean equal data, types
        # included; equal data may marshal differently, which only misses the cache)
        # and only others' Peeks are filled in anew.
        key: tuple[Any, ...] | None = (seat, view["round"], marshal.dumps(view["log"]))
    except ValueError:  # not plain JSON data: rebuilt every time
        key = None
    cached = _LOGS.get(key) if key is not None else None
    if cached is None:
        cached = _rebuild(view, seat)
        if key is not None:
            if len(_LOGS) >= _LOGS_LIMIT:
                _LOGS.clear()
            _LOGS[key] = cached
    rebuilt, peeks = cached
    if not peeks:
        return rebuilt
    filled = list(rebuilt)
    for index, peeker, position, card_id, round_number in peeks:
        if card_id in index_of:
            filled[index] = _peek_entry(peeker, position, card_id, index_of[card_id], round_number)
    return tuple(filled)


# (the rebuilt log with others' Peeks of this round naming no card, and those Peeks:
# (index in the log, peeker, position, card id, round)), by (seat, round, marshalled log)
_Rebuilt = tuple[tuple[LogEntry, ...], tuple[tuple[int, int, int, str, int], ...]]
_LOGS: dict[tuple[Any, ...], _Rebuilt] = {}
_LOGS_LIMIT = 64
# Entries are immutable, so equal Peeks can share one.
_peek_entry = lru_cache(maxsize=4096, typed=True)(peek_entry)


def _rebuild(view: dict[str, Any], seat: int | None) -> _Rebuilt:
    rebuilt = []
    peeks = []
    for shown in view["log"]:
        facts = {key: value for key, value in shown.items() if key not in _ENTRY_KEYS}
        if shown["event"] != "peeked":
            rebuilt.append(entry(shown["event"], shown["seat"], shown["text"], facts))
            continue
        peeker = shown["seat"]
        note = peek_entry(peeker, facts["position"], facts["peeked_id"], None, facts["round"])
        if peeker == seat:
            private = {"peeked": facts["peeked"]} if "peeked" in facts else {}
            note = entry(note.event, peeker, note.text, _public(facts), {peeker: (shown["text"], private)})
        elif facts["round"] == view["round"]:
            # Named only if the card is still in play (sample_state gave it an index).
            peeks.append((len(rebuilt), peeker, facts["position"], facts["peeked_id"], facts["round"]))
        # A Peek of an earlier round by someone else: its card is not re-dealt, so
        # that seat's own line only says where it looked.
        rebuilt.append(note)
    return tuple(rebuilt), tuple(peeks)


def _public(facts: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in facts.items() if key != "peeked"}
