"""A turn of Don't Go Boom: draw, then keep, discard and flip, or use an action card.

Every function takes a state and returns a new one (``state.evolve``, copying only
what changes). The caller (``game.DontGoBoom``) has already checked that the action
is well formed and that ``seat`` owes a decision; ``rounds.end_turn`` ends the turn.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import replace_at, reshuffle_under_top
from games.engine.dont_go_boom.cards import (
    ACTION_NAMES,
    BOMB,
    DRAW_AGAIN,
    KIND,
    PEEK,
    POSITION_WORDS,
    SWAP,
    card_data,
    card_label,
    the_card,
)
from games.engine.dont_go_boom.rounds import card_facts, end_turn, wrong_phase
from games.engine.dont_go_boom.state import (
    DECIDE,
    DRAW,
    FLIP,
    FROM_DECK,
    FROM_DISCARD,
    NO_CARD,
    DontGoBoomState,
    evolve,
)
from games.engine.errors import IllegalAction
from games.engine.log import LogEntry, entry
from games.engine.rng import resume

# -- a turn ----------------------------------------------------------------------


def draw(state: DontGoBoomState, seat: int, source: str) -> DontGoBoomState:
    if state.phase != DRAW:
        raise wrong_phase(state)
    if source == FROM_DISCARD:
        if not state.discard:
            raise IllegalAction("discard_pile_empty", "The discard pile is empty: draw from the deck.")
        card = state.discard[0]
        note = entry(
            "took_discard",
            seat,
            f"{{s{seat}}} took {the_card(card)} from the discard pile.",
            {"card": card_facts(state, card)},
        )
        return evolve(
            state,
            discard=state.discard[1:],
            phase=DECIDE,
            held=card,
            held_from=FROM_DISCARD,
            log=(*state.log, note),
        )
    state = _reshuffle_if_empty(state)
    note = LogEntry("drew", seat, f"{{s{seat}}} drew a card from the deck.")
    return evolve(
        state,
        deck=state.deck[1:],
        phase=DECIDE,
        held=state.deck[0],
        held_from=FROM_DECK,
        log=(*state.log, note),
    )


def _reshuffle_if_empty(state: DontGoBoomState) -> DontGoBoomState:
    """Ruling: an empty deck is rebuilt from the discard pile, its top card staying."""
    if state.deck:
        return state
    rng = resume(state.rng)
    deck, discard = reshuffle_under_top(state.discard, rng)
    note = entry(
        "reshuffled",
        None,
        f"The deck ran out: {len(deck)} cards of the discard pile (all but its top card) "
        "are shuffled into a new deck.",
        {"cards": len(deck)},
    )
    # Everyone saw those cards in the discard pile, so the deck's contents are public.
    return evolve(
        state,
        rng=rng.state,
        deck=deck,
        discard=discard,
        public_deck=tuple(sorted(deck)),
        log=(*state.log, note),
    )


def keep(state: DontGoBoomState, seat: int, position: int) -> DontGoBoomState:
    """Put the held card face up at ``position``; the card it replaces is shown and discarded."""
    if state.phase != DECIDE:
        raise wrong_phase(state)
    card = state.held
    old = state.grids[seat][position]
    was_face_up = state.face_up[seat][position]
    grids = replace_at(state.grids, seat, replace_at(state.grids[seat], position, card))
    face_up = state.face_up
    if not was_face_up:
        face_up = replace_at(face_up, seat, replace_at(face_up[seat], position, True))
    where = POSITION_WORDS[position]
    if KIND[card] == BOMB:
        text = f"{{s{seat}}} drew a Big Bad Bomb and had to place it in {where}"
    else:
        text = f"{{s{seat}}} kept {the_card(card)} in {where}"
    old_text = "the face-down" if not was_face_up else "the"
    if KIND[old] == BOMB:
        # A replaced bomb leaves the game instead of going to the discard pile.
        text += f", replacing {old_text} Big Bad Bomb, which leaves the game."
        removed, discard = (*state.removed, old), state.discard
    else:
        text += f", discarding {old_text} {card_label(old)}."
        removed, discard = state.removed, (old, *state.discard)
    note = entry(
        "kept",
        seat,
        text,
        {
            "position": position,
            "card": card_facts(state, card),
            "replaced": card_facts(state, old),
            "replaced_was_face_up": was_face_up,
            "from": state.held_from,
        },
    )
    return end_turn(
        state,
        grids=grids,
        face_up=face_up,
        peeked=_forget(state.peeked, old),
        discard=discard,
        removed=removed,
        public_deck=_without(state.public_deck, card),
        log=(*state.log, note),
    )


def discard(state: DontGoBoomState, seat: int) -> DontGoBoomState:
    """Discard the card drawn from the deck; a face-down card is then turned up."""
    if state.phase != DECIDE:
        raise wrong_phase(state)
    card = state.held
    if state.held_from == FROM_DISCARD:
        raise IllegalAction(
            "discard_pile_card_must_be_kept",
            "A card taken from the discard pile must be kept in your minefield.",
        )
    if KIND[card] == BOMB:
        raise IllegalAction(
            "bomb_must_be_kept",
            "A Big Bad Bomb drawn from the deck cannot be discarded: it must replace one of your cards.",
        )
    note = entry(
        "discarded", seat, f"{{s{seat}}} discarded {the_card(card)}.", {"card": card_facts(state, card)}
    )
    changes: dict[str, Any] = {
        "discard": (card, *state.discard),
        "public_deck": _without(state.public_deck, card),
        "held": NO_CARD,
        "held_from": "",
        "log": (*state.log, note),
    }
    if all(state.face_up[seat]):
        return end_turn(state, **changes)
    return evolve(state, phase=FLIP, **changes)


def flip(state: DontGoBoomState, seat: int, position: int) -> DontGoBoomState:
    if state.phase != FLIP:
        raise wrong_phase(state)
    if state.face_up[seat][position]:
        raise _already_face_up(position)
    card = state.grids[seat][position]
    note = entry(
        "flipped",
        seat,
        f"{{s{seat}}} turned up {the_card(card)} in {POSITION_WORDS[position]}.",
        {"position": position, "card": card_facts(state, card)},
    )
    return end_turn(
        state,
        face_up=replace_at(state.face_up, seat, replace_at(state.face_up[seat], position, True)),
        peeked=_forget(state.peeked, card),
        log=(*state.log, note),
    )


def swap(
    state: DontGoBoomState, seat: int, position: int, target_seat: int, target_position: int
) -> DontGoBoomState:
    """Use a Swap: with another player's card, or between two of your own cards."""
    _check_action(state, SWAP)
    if target_seat >= state.players:
        raise IllegalAction("no_such_seat", f"There is no seat {target_seat} in this game.")
    mine = state.grids[seat]
    my_card = mine[position]
    if target_seat == seat:
        if position == target_position:
            raise IllegalAction("same_position", "Choose two different cards of your minefield to swap.")
        # Each card keeps its face state as it moves: face up stays up, face down stays down.
        my_face_up = state.face_up[seat]
        other_card = mine[target_position]
        grid = replace_at(replace_at(mine, position, other_card), target_position, my_card)
        face = replace_at(
            replace_at(my_face_up, position, my_face_up[target_position]),
            target_position,
            my_face_up[position],
        )
        grids = replace_at(state.grids, seat, grid)
        face_up = replace_at(state.face_up, seat, face)
        peeked = state.peeked
        text = (
            f"{{s{seat}}} used a Swap to exchange their cards in "
            f"{POSITION_WORDS[position]} and {POSITION_WORDS[target_position]}."
        )
        facts: dict[str, Any] = {
            "position": position,
            "target_seat": seat,
            "target_position": target_position,
        }
    else:
        # Ruling: the card received keeps its face state; the card given turns face up.
        theirs = state.grids[target_seat]
        their_card = theirs[target_position]
        received_face_up = state.face_up[target_seat][target_position]
        grids = replace_at(state.grids, seat, replace_at(mine, position, their_card))
        grids = replace_at(grids, target_seat, replace_at(theirs, target_position, my_card))
        face_up = replace_at(state.face_up, seat, replace_at(state.face_up[seat], position, received_face_up))
        face_up = replace_at(face_up, target_seat, replace_at(face_up[target_seat], target_position, True))
        peeked = _forget(state.peeked, my_card)
        received = the_card(their_card) if received_face_up else "a face-down card"
        text = (
            f"{{s{seat}}} used a Swap: they take {received} from {{s{target_seat}}}'s "
            f"{POSITION_WORDS[target_position]} and give their {POSITION_WORDS[position]}, "
            f"which turns face up: {card_label(my_card)}."
        )
        facts = {
            "position": position,
            "target_seat": target_seat,
            "target_position": target_position,
            "given": card_facts(state, my_card),
            "received": card_facts(state, their_card) if received_face_up else {"id": state.ids[their_card]},
        }
    facts["card"] = card_facts(state, state.held)
    note = entry("swapped", seat, text, facts)
    return end_turn(
        state, grids=grids, face_up=face_up, peeked=peeked, **_spend_held(state), log=(*state.log, note)
    )


def peek(state: DontGoBoomState, seat: int, position: int) -> DontGoBoomState:
    """Use a Peek: only this seat learns the face-down card, which stays face down."""
    _check_action(state, PEEK)
    if state.face_up[seat][position]:
        raise _already_face_up(position)
    card = state.grids[seat][position]
    note = peek_entry(seat, position, state.ids[card], card, state.round)
    known = state.peeked[seat]
    if card not in known:
        known = tuple(sorted((*known, card)))
    return end_turn(
        state, peeked=replace_at(state.peeked, seat, known), **_spend_held(state), log=(*state.log, note)
    )


def peek_entry(seat: int, position: int, card_id: str, card: int | None, round_number: int) -> LogEntry:
    """The log entry of a Peek; the card is named only to the seat that peeked."""
    where = POSITION_WORDS[position]
    public = {"position": position, "peeked_id": card_id, "round": round_number}
    own: tuple[str, dict[str, Any]]
    if card is None:
        own = (f"You peeked at the face-down card in {where}.", {})
    else:
        own = (
            f"You peeked at the face-down card in {where}: {the_card(card)}.",
            {"peeked": card_data(card, card_id)},
        )
    return entry("peeked", seat, peek_public_text(seat, position), public, {seat: own})


def peek_public_text(seat: int, position: int) -> str:
    return f"{{s{seat}}} used a Peek on their face-down card in {POSITION_WORDS[position]}."


def draw_again(state: DontGoBoomState, seat: int) -> DontGoBoomState:
    """Use a Draw Again: discard it and draw a fresh card from the deck."""
    _check_action(state, DRAW_AGAIN)
    note = entry(
        "drew_again",
        seat,
        f"{{s{seat}}} used a Draw Again and draws another card from the deck.",
        {"card": card_facts(state, state.held)},
    )
    state = _reshuffle_if_empty(evolve(state, **_spend_held(state), log=(*state.log, note)))
    return evolve(state, deck=state.deck[1:], phase=DECIDE, held=state.deck[0], held_from=FROM_DECK)


def _check_action(state: DontGoBoomState, kind: str) -> None:
    if state.phase != DECIDE:
        raise wrong_phase(state)
    if KIND[state.held] != kind:
        raise IllegalAction("not_that_action", f"The card you hold is not a {ACTION_NAMES[kind]} card.")
    if state.held_from == FROM_DISCARD:
        raise IllegalAction(
            "action_card_from_discard",
            "A card taken from the discard pile is only a number: its action cannot be used.",
        )


def _spend_held(state: DontGoBoomState) -> dict[str, Any]:
    """The fields that change when the held action card goes to the discard pile."""
    return {
        "discard": (state.held, *state.discard),
        "public_deck": _without(state.public_deck, state.held),
        "held": NO_CARD,
        "held_from": "",
    }


# -- small helpers ---------------------------------------------------------------


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    if card not in cards:
        return cards
    return tuple(other for other in cards if other != card)


def _forget(peeked: tuple[tuple[int, ...], ...], card: int) -> tuple[tuple[int, ...], ...]:
    """Peek knowledge of a card that everyone now sees is no longer private."""
    if not any(card in known for known in peeked):
        return peeked
    return tuple(_without(known, card) for known in peeked)


def _already_face_up(position: int) -> IllegalAction:
    return IllegalAction("card_face_up", f"The card in {POSITION_WORDS[position]} is already face up.")
