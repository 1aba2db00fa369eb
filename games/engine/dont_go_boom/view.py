"""What one seat may know, as JSON-ready data, and a score estimate bots can use."""

from __future__ import annotations

import json
import marshal
from typing import Any

from games.engine.dont_go_boom.cards import (
    ACTION_KINDS,
    BOMB,
    BOMB_VALUE,
    CARD_COUNT,
    KIND,
    LINES,
    POSITION_NAMES,
    TOTAL_VALUE,
    VALUE,
    card_data,
    card_label,
)
from games.engine.dont_go_boom.state import (
    CHOOSE,
    FROM_DECK,
    FROM_DISCARD,
    NO_CARD,
    NO_SEAT,
    OVER,
    TURNS_PER_PLAYER_CAP,
    DontGoBoomState,
)
from games.engine.log import log_reveal, log_view

SLUG = "dont-go-boom"


def to_act(state: DontGoBoomState) -> list[int]:
    if state.phase == OVER:
        return []
    if state.phase == CHOOSE:
        return [seat for seat, position in enumerate(state.chosen) if position == NO_CARD]
    return [state.turn]


def build_view(state: DontGoBoomState, seat: int | None) -> dict[str, Any]:
    ids = state.ids
    known_by: dict[int, list[int]] = {}
    for owner, peeked_cards in enumerate(state.peeked):
        for card in peeked_cards:
            known_by.setdefault(card, []).append(owner)
    own_knowledge = set(state.peeked[seat]) if seat is not None else set()

    minefields = []
    for owner in range(state.players):
        grid, face_up = state.grids[owner], state.face_up[owner]
        cards = []
        for position, card in enumerate(grid):
            shown: dict[str, Any] = {"position": position, "name": POSITION_NAMES[position], "id": ids[card]}
            if face_up[position]:
                shown.update(face_up=True, value=VALUE[card], kind=KIND[card], label=card_label(card))
                shown.update(peeked=None, known_by=[])
            else:
                shown.update(face_up=False, value=None, kind=None, label=None)
                shown["peeked"] = card_data(card, ids[card]) if card in own_knowledge else None
                shown["known_by"] = known_by.get(card, [])
            cards.append(shown)
        face_up_count = sum(face_up)
        minefields.append(
            {
                "seat": owner,
                "cards": cards,
                "face_up_count": face_up_count,
                "face_down_count": len(grid) - face_up_count,
                "all_face_up": face_up_count == len(grid),
                "has_chosen": state.chosen[owner] != NO_CARD if state.phase == CHOOSE else None,
            }
        )

    totals = [sum(scores[owner] for scores in state.round_scores) for owner in range(state.players)]
    return {
        "game": SLUG,
        "players": state.players,
        "seat": seat,
        "round": state.round,
        "rounds": state.rounds,
        "phase": state.phase,
        "to_act": to_act(state),
        "turn": None if state.turn == NO_SEAT else state.turn,
        "my_choice": _my_choice(state, seat),
        "turns_taken": state.turns_taken,
        "turn_limit": TURNS_PER_PLAYER_CAP * state.players,
        "final_lap": {
            "active": state.final_lap_trigger != NO_SEAT,
            "triggered_by": None if state.final_lap_trigger == NO_SEAT else state.final_lap_trigger,
            "remaining": list(state.final_lap),
        },
        "minefields": minefields,
        "deck": {
            "size": len(state.deck),
            # Sorted by id, so the list says nothing about the deck's order.
            "known_cards": sorted((card_data(card, ids[card]) for card in state.public_deck), key=_by_id),
        },
        "discard": [card_data(card, ids[card]) for card in state.discard],
        "removed": [card_data(card, ids[card]) for card in state.removed],
        "held": _held(state, seat),
        "round_scores": [list(scores) for scores in state.round_scores],
        "totals": totals,
        "last_round": _last_round(state),
        "log": log_view(state.log, seat),
    }


def build_reveal(state: DontGoBoomState) -> dict[str, Any]:
    """Everything revealed (``Game.reveal``, finished matches only): a spectator's view
    with every face-down card's face, the held card as its holder sees it, the deck in
    order (``deck.cards``, top first) and every seat's private log facts."""
    shown = build_view(state, None)
    ids = state.ids
    for owner, minefield in enumerate(shown["minefields"]):
        for card, place in zip(state.grids[owner], minefield["cards"], strict=True):
            if place["face_up"]:
                continue
            # Still face down (``face_up`` stays the truth), but its face is shown.
            place.update(value=VALUE[card], kind=KIND[card], label=card_label(card))
            if place["known_by"]:
                # What the seats in ``known_by`` saw with their Peek, as their views show it.
                place["peeked"] = card_data(card, ids[card])
    if state.held != NO_CARD:
        shown["held"] = _held(state, state.turn)
    shown["deck"]["cards"] = [card_data(card, ids[card]) for card in state.deck]
    shown["log"] = log_reveal(state.log)
    shown["revealed"] = True
    shown["as_seen_by"] = {
        str(owner): {"seat": owner, "my_choice": _my_choice(state, owner)} for owner in range(state.players)
    }
    return shown


def _held(state: DontGoBoomState, seat: int | None) -> dict[str, Any] | None:
    if state.held == NO_CARD:
        return None
    card = state.held
    holder = state.turn
    # A card taken from the discard pile was public; one drawn from the deck is
    # seen only by the player holding it.
    visible = state.held_from == FROM_DISCARD or seat == holder
    held: dict[str, Any] = {
        "seat": holder,
        "from": state.held_from,
        "card": card_data(card, state.ids[card]) if visible else None,
    }
    if seat == holder:
        from_deck = state.held_from == FROM_DECK
        held["must_keep"] = not from_deck or KIND[card] == BOMB
        held["action"] = KIND[card] if from_deck and KIND[card] in ACTION_KINDS else None
    return held


def _my_choice(state: DontGoBoomState, seat: int | None) -> int | None:
    if seat is None or state.phase != CHOOSE or state.chosen[seat] == NO_CARD:
        return None
    return state.chosen[seat]


def _by_id(card: dict[str, Any]) -> str:
    return str(card["id"])


def _last_round(state: DontGoBoomState) -> dict[str, Any] | None:
    """The revealed minefields and scores of the latest finished round, from its log entry."""
    for item in reversed(state.log):
        if item.event == "round_end":
            # Parsed once per entry, then copied (marshal: a fast exact copy of JSON data).
            frozen = _ROUND_ENDS.get(item.public)
            if frozen is None:
                facts: dict[str, Any] = json.loads(item.public)
                if len(_ROUND_ENDS) >= _ROUND_ENDS_LIMIT:
                    _ROUND_ENDS.clear()
                frozen = _ROUND_ENDS[item.public] = marshal.dumps(facts)
            shown: dict[str, Any] = marshal.loads(frozen)
            return shown
    return None


# A round_end entry's facts, marshalled, by their JSON text.
_ROUND_ENDS: dict[str, bytes] = {}
_ROUND_ENDS_LIMIT = 256


# -- a heuristic for bots ----------------------------------------------------------


def estimate_score(view: dict[str, Any], seat: int) -> float:
    """The expected round score of ``seat``'s minefield, from what ``view`` shows.

    Face-up cards and cards the viewer peeked at count their value; every other
    face-down card counts the average of the cards the viewer has not seen. A line
    of three equal known numbers counts 0. Pure and cheap: no sampling.
    """
    seen_total = 0
    seen_count = 0
    for card in _seen_cards(view):
        seen_total += card["value"]
        seen_count += 1
    unseen_count = CARD_COUNT - seen_count
    unseen_average = (TOTAL_VALUE - seen_total) / unseen_count if unseen_count else 0.0

    values: list[int | None] = []
    for card in view["minefields"][seat]["cards"]:
        if card["face_up"]:
            values.append(card["value"])
        elif card["peeked"] is not None:
            values.append(card["peeked"]["value"])
        else:
            values.append(None)
    defused: set[int] = set()
    for line in LINES:
        a, b, c = (values[position] for position in line)
        if a is not None and a == b == c and a != BOMB_VALUE:
            defused.update(line)
    estimate = 0.0
    for position, value in enumerate(values):
        if position in defused:
            continue
        estimate += unseen_average if value is None else value
    return estimate


def _seen_cards(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every card whose value the viewer knows, each once."""
    by_id: dict[str, dict[str, Any]] = {}
    for minefield in view["minefields"]:
        for card in minefield["cards"]:
            if card["face_up"]:
                by_id[card["id"]] = card
            elif card["peeked"] is not None:
                by_id[card["id"]] = card["peeked"]
    for card in (*view["discard"], *view["removed"], *view["deck"]["known_cards"]):
        by_id[card["id"]] = card
    held = view["held"]
    if held is not None and held["card"] is not None:
        by_id[held["card"]["id"]] = held["card"]
    return list(by_id.values())
