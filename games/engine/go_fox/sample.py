"""Go Fox!'s sampler: a full state that agrees with everything one seat has seen.

Hands and the pick-up pile are re-dealt at random, and so is who drew what, under
every fact the log gave away (see word_cards/hidden.py for the model):

- a GO FOX! at time t: the asked player held no card of that number at t, so a
  card of that number in their hand now reached them by a draw after t; and the
  asker held at least one;
- a given card is the first colour of its number in the word table, so the giver
  held no earlier colour of that number; the same holds for the cards a player
  lays from their own hand;
- every card that was given or laid face up was in that player's hand from a deal
  or draw before then.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.go_fox.state import HAND_SIZE, GoFoxState, deal_entry, draw_entry, hand_order
from games.engine.word_cards import CARD_COUNT, WORDS, cards_in, rebuild_ids, word_card_of_view
from games.engine.word_cards.hidden import PILE, Fact, HiddenModel, Occurrence, Slot, Witness


def _earlier_colours(card: int) -> frozenset[int]:
    """The cards of the same number as ``card`` and an earlier colour."""
    face = WORDS.cards[card]
    return frozenset(WORDS.card(colour, face.number).index for colour in range(face.colour_index))


def _of_number(number: int) -> frozenset[int]:
    return frozenset(WORDS.card(colour, number).index for colour in range(len(WORDS.colours)))


def hidden_model(view: dict[str, Any], seat: int | None) -> HiddenModel:
    players: int = view["players"]
    log: list[dict[str, Any]] = view["log"]
    known = {card["id"]: word_card_of_view(card) for card in cards_in(view)}
    model = HiddenModel(known)
    slots, facts, witnesses = model.slots, model.facts, model.witnesses
    viewer_held: set[int] = set()  # every card the viewer was dealt or drew
    departures: list[Occurrence] = []

    for time, item in enumerate(log):
        event, actor = item["event"], item["seat"]
        if event == "deal":
            for owner in range(players):
                if owner == seat:
                    model.viewer_dealt = [known[card["id"]] for card in item["cards"]]
                    viewer_held.update(model.viewer_dealt)
                else:
                    model.deal_slots[owner] = list(range(len(slots), len(slots) + HAND_SIZE))
                    slots.extend(Slot(owner, time) for _ in range(HAND_SIZE))
        elif event == "draw":
            if actor == seat:
                viewer_held.add(known[item["card"]["id"]])
            else:
                model.draw_slot[time] = len(slots)
                slots.append(Slot(actor, time))
        elif event == "give" and actor != seat:
            given = known[item["card"]["id"]]
            departures.append(Occurrence(given, end=time, leaver=actor))
            facts.append(Fact(actor, time, _earlier_colours(given)))
        elif event == "pair" and actor != seat:
            laid = [known[card["id"]] for card in item["cards"]]
            # After a give, the first card came from the asked player (counted above).
            own = laid[1:] if item["after"] == "give" else laid
            departures.extend(Occurrence(card, end=time, leaver=actor) for card in own)
            facts.append(Fact(actor, time, _earlier_colours(laid[-1])))
        elif event == "go_fox":
            cards = _of_number(item["number"])
            if actor != seat:
                facts.append(Fact(actor, time, cards))
            if item["asker"] != seat:
                witnesses.append(Witness(item["asker"], time, cards))

    departed = {occurrence.card for occurrence in departures}
    hidden = [card for card in range(CARD_COUNT) if card not in viewer_held and card not in departed]
    model.pile_slots = list(range(len(slots), len(slots) + view["pile_size"]))
    slots.extend(Slot(PILE, len(log)) for _ in model.pile_slots)
    model.occurrences = departures + [Occurrence(card) for card in hidden]
    return model


def sample_state(view: dict[str, Any], seat: int | None, rng: random.Random) -> GoFoxState:
    players: int = view["players"]
    log: list[dict[str, Any]] = view["log"]
    model = hidden_model(view, seat)
    known = model.known
    filled = model.fill(rng)
    card_in = [model.occurrences[index].card for index in filled]

    hands: list[tuple[int, ...]] = []
    for owner in range(players):
        if owner == seat:
            hands.append(tuple(known[card["id"]] for card in view["hand"]))
        else:
            hands.append(tuple(sorted(model.held(filled, owner), key=hand_order)))
    pile = [card_in[index] for index in model.pile_slots]
    rng.shuffle(pile)

    ids = rebuild_ids(known, CARD_COUNT, rng)
    dealt = model.dealt_hands(card_in, players, seat, order=hand_order)
    entries = model.rebuilt_log(
        log,
        seat,
        card_in,
        deal=lambda item: deal_entry(dealt, ids),
        draw=lambda item, drawn: draw_entry(item["seat"], drawn, ids, item["pile_size"]),
    )
    pairs = [
        [known[card["id"]] for pair in table["pairs"] for card in pair["cards"]] for table in view["pairs"]
    ]
    return GoFoxState(
        players=players,
        rng=rng.getrandbits(64),
        ids=ids,
        hands=tuple(hands),
        pile=tuple(pile),
        pairs=tuple(tuple(cards) for cards in pairs),
        turn=-1 if view["turn"] is None else view["turn"],
        phase=view["phase"],
        log=entries,
    )
