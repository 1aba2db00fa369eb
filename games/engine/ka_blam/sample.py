"""Ka-Blam!'s sampler: a full state that agrees with everything one seat has seen.

Only the current round matters (each round is dealt afresh). Its log tells, in
public, every card played, every draw, every reshuffle; the hands and the pile are
re-dealt at random under every fact it gave away (see word_cards/hidden.py):

- a player who drew because they could not play, or passed, held no card that
  matched the top of the discard pile then (play is compulsory);
- a card played face up was in that player's hand, dealt or drawn before, and
  after a reshuffle it came from that reshuffle's cards;
- the pile after a reshuffle holds only cards of that reshuffle;
- the action cards turned over at the start, and the Exploding card, were in the
  pick-up pile at the deal, so no one was dealt them; no one drew the Exploding
  card in secret, so until someone explodes it is still in the pile.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.ka_blam.cards import (
    CARD_COUNT,
    COLOUR,
    COLOURS,
    EXPLODING_CARD,
    FIRST_WILD,
    WILD_CARDS,
    card_of_view,
    playable_on,
)
from games.engine.ka_blam.state import HAND_SIZE, NO_PLAY, KaBlamState, RoundResult, deal_entry, draw_entry
from games.engine.word_cards import cards_in, rebuild_ids
from games.engine.word_cards.hidden import PILE, Fact, HiddenModel, Occurrence, Slot

_IN_HANDS = frozenset(range(CARD_COUNT)) - {EXPLODING_CARD}


def known_cards(view: dict[str, Any]) -> dict[str, int]:
    """Every id in the view and its card; the four identical Wilds get one card each."""
    known: dict[str, int] = {}
    wilds = iter(WILD_CARDS)
    for shown in cards_in(view):
        if shown["id"] not in known:
            card = card_of_view(shown)
            known[shown["id"]] = next(wilds) if card == FIRST_WILD else card
    return known


def hidden_model(view: dict[str, Any], seat: int | None) -> HiddenModel:
    players: int = view["players"]
    model = HiddenModel(known_cards(view))
    known, slots, facts = model.known, model.slots, model.facts
    # Each card still out of sight, and the shuffle of the pile it went hidden in.
    hidden_since: dict[int, int] = dict.fromkeys(range(CARD_COUNT), 0)
    epoch = 0
    discard: list[int] = []
    colour = 0
    turned: set[int] = set()
    holders: dict[int, int] = {}  # revealed when the round is scored
    departures: list[Occurrence] = []
    deal_time = 0

    for time, item in enumerate(view["log"]):
        event, actor = item["event"], item["seat"]
        if event == "deal":
            deal_time = time
            for owner in range(players):
                if owner == seat:
                    model.viewer_dealt = [known[card["id"]] for card in item["cards"]]
                    for card in model.viewer_dealt:
                        del hidden_since[card]
                else:
                    model.deal_slots[owner] = list(range(len(slots), len(slots) + HAND_SIZE))
                    slots.extend(Slot(owner, time) for _ in range(HAND_SIZE))
        elif event == "start":
            turned = {known[card["id"]] for card in item["turned"]}
            start = known[item["card"]["id"]]
            del hidden_since[start]
            discard = [start]
            colour = COLOUR[start]
        elif event == "play":
            card = known[item["card"]["id"]]
            if actor != seat:
                departures.append(Occurrence(card, hidden_since[card], end=time, leaver=actor))
            hidden_since.pop(card, None)
            discard.insert(0, card)
            colour = COLOURS.index(item["colour"])
        elif event == "draw":
            if actor == seat:
                del hidden_since[known[item["card"]["id"]]]
            else:
                model.draw_slot[time] = len(slots)
                slots.append(Slot(actor, time, epoch, _IN_HANDS))
                if item["reason"] == NO_PLAY:
                    facts.append(Fact(actor, time, playable_on(discard[0], colour)))
        elif event == "pass" and actor != seat:
            facts.append(Fact(actor, time, playable_on(discard[0], colour)))
        elif event == "explode":
            del hidden_since[EXPLODING_CARD]
            if item["reason"] == NO_PLAY and actor != seat:
                facts.append(Fact(actor, time, playable_on(discard[0], colour)))
        elif event == "reshuffle":
            epoch += 1
            for card in discard[1:]:
                hidden_since[card] = epoch
            discard = discard[:1]
        elif event == "round_end":
            holders = {known[card["id"]]: owner for owner, hand in enumerate(item["hands"]) for card in hand}

    dealt_allowed = _IN_HANDS - turned
    for owner_slots in model.deal_slots.values():
        for index in owner_slots:
            slots[index] = Slot(slots[index].owner, deal_time, 0, dealt_allowed)
    model.pile_slots = list(range(len(slots), len(slots) + view["pile_size"]))
    slots.extend(Slot(PILE, len(view["log"]), epoch) for _ in model.pile_slots)
    model.occurrences = departures + [
        Occurrence(card, since, holder=holders.get(card)) for card, since in hidden_since.items()
    ]
    return model


def sample_state(view: dict[str, Any], seat: int | None, rng: random.Random) -> KaBlamState:
    players: int = view["players"]
    model = hidden_model(view, seat)
    known = model.known
    filled = model.fill(rng)
    card_in = [model.occurrences[index].card for index in filled]
    exploded = -1 if view["exploded"] is None else view["exploded"]

    hands: list[tuple[int, ...]] = []
    for owner in range(players):
        if owner == seat:
            hands.append(tuple(known[card["id"]] for card in view["hand"]))
            continue
        held = model.held(filled, owner)
        if owner == exploded:
            held.append(EXPLODING_CARD)
        hands.append(tuple(sorted(held)))
    pile = [card_in[index] for index in model.pile_slots]
    rng.shuffle(pile)

    ids = rebuild_ids(known, CARD_COUNT, rng)
    dealt = model.dealt_hands(card_in, players, seat)
    entries = model.rebuilt_log(
        view["log"],
        seat,
        card_in,
        deal=lambda item: deal_entry(item["round"], item["seat"], dealt, ids),
        draw=lambda item, drawn: draw_entry(item["seat"], drawn, ids, item["reason"], item["pile_size"]),
    )
    return KaBlamState(
        players=players,
        length=view["length"],
        target=view["target"],
        rng=rng.getrandbits(64),
        ids=ids,
        scores=tuple(view["scores"]),
        round=view["round"],
        dealer=view["dealer"],
        hands=tuple(hands),
        pile=tuple(pile),
        discard=tuple(known[card["id"]] for card in view["discard"]),
        colour=COLOURS.index(view["colour"]),
        exploded=exploded,
        turn=-1 if view["turn"] is None else view["turn"],
        direction=view["direction"],
        passes=view["passes"],
        log=entries,
        rounds=tuple(
            RoundResult(
                round=done["round"],
                dealer=done["dealer"],
                winner=done["winner"],
                reason=done["reason"],
                points=done["points"],
                hands=tuple(tuple(known[card["id"]] for card in hand) for hand in done["hands"]),
                exploded=-1 if done["exploded"] is None else done["exploded"],
            )
            for done in view["rounds"]
        ),
    )
