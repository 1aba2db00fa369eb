"""Go Fox!: ask the next player for a number you hold, lay pairs, draw, most pairs wins.

Rules: ../shared/rules/ka-blam.md. A turn is ``ask`` (a number you hold); if the
next player has one, they give it (the first colour in the word table's order)
and you lay the pair (with your own first colour of that number), then draw. If
they say GO FOX!, you may ``lay`` one pair you hold, then you ``draw``. With an
empty hand you just ``draw``. The game ends when a draw empties the pick-up pile.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

from games.engine.actions import IntField
from games.engine.cards import deal
from games.engine.errors import IllegalAction
from games.engine.go_fox.sample import sample_state
from games.engine.go_fox.state import HAND_SIZE, NUMBER_OF, GoFoxState, deal_entry, draw_entry, hand_order
from games.engine.log import LogEntry, log_view
from games.engine.options import OptionValue
from games.engine.ranking import competition_ranks
from games.engine.rng import RngState, resume
from games.engine.seats import next_seat
from games.engine.word_cards import CARD_COUNT, NUMBERS, WORDS, word_card_json, word_card_view, word_json
from games.engine.word_cards.facts import json_list, json_object, json_text, logged
from games.engine.word_cards.game import HandAndPileGame


class GoFox(HandAndPileGame[GoFoxState]):
    slug = "go-fox"
    name = "Go Fox!"
    min_players = 2
    max_players = 6
    action_schemas: ClassVar = {
        "ask": {"number": IntField(NUMBERS[0], NUMBERS[-1])},
        "lay": {"number": IntField(NUMBERS[0], NUMBERS[-1])},
        "draw": {},
    }
    state_type = GoFoxState

    # -- setup and turns -----------------------------------------------------

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> GoFoxState:
        rng = resume(rng_state)
        ids = rng.unique_tokens(CARD_COUNT)
        dealt, pile = deal(rng.shuffled(range(CARD_COUNT)), players, HAND_SIZE)
        hands = tuple(tuple(sorted(hand, key=hand_order)) for hand in dealt)
        first = next_seat(0, players)
        return GoFoxState(
            players=players,
            rng=rng.state,
            ids=ids,
            hands=hands,
            pile=pile,
            pairs=tuple(() for _ in range(players)),
            turn=first,
            phase="ask",
            log=(deal_entry(hands, ids),),
        )

    def turn_actions(self, state: GoFoxState, seat: int) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        numbers = sorted({_number(card) for card in hand})
        if state.phase == "ask":
            if not hand:
                return [{"type": "draw"}]
            return [{"type": "ask", "number": number} for number in numbers]
        return [{"type": "draw"}] + [
            {"type": "lay", "number": number} for number in numbers if len(_of_number(hand, number)) >= 2
        ]

    def play(self, state: GoFoxState, seat: int, kind: str, fields: dict[str, Any]) -> GoFoxState:
        hand = state.hands[seat]
        if state.phase == "ask":
            if kind == "ask":
                if not _of_number(hand, fields["number"]):
                    raise IllegalAction("not_in_hand", "You can only ask for a number you hold.")
                return _ask(state, seat, fields["number"])
            if hand:
                raise IllegalAction("ask_first", "Ask the next player for a number you hold first.")
            if kind == "lay":
                raise IllegalAction("ask_first", "Your hand is empty: draw a card.")
            return _draw(state, seat)
        if kind == "ask":
            raise IllegalAction("already_asked", "You have asked this turn: lay a pair or draw.")
        if kind == "lay":
            if len(_of_number(hand, fields["number"])) < 2:
                raise IllegalAction("no_pair", f"You do not hold a pair of {fields['number']}s.")
            return _draw(_lay(state, seat, fields["number"]), seat)
        return _draw(state, seat)

    # -- results -------------------------------------------------------------

    def result(self, state: GoFoxState) -> dict[str, Any] | None:
        if state.turn >= 0:
            return None
        scores = [len(cards) // 2 for cards in state.pairs]
        return {"scores": scores, "ranks": competition_ranks(scores)}

    # -- views and sampling --------------------------------------------------

    def view(self, state: GoFoxState, seat: int | None) -> dict[str, Any]:
        ids = state.ids
        over = state.turn < 0
        return {
            "game": self.slug,
            "players": state.players,
            "seat": seat,
            "phase": state.phase,
            "turn": None if over else state.turn,
            "asks": None if over else next_seat(state.turn, state.players),
            "to_act": self.to_act(state),
            "hand": None if seat is None else [_card_view(card, ids) for card in state.hands[seat]],
            "hand_sizes": [len(hand) for hand in state.hands],
            "pile_size": len(state.pile),
            "pairs": [
                {
                    "seat": owner,
                    "pairs": [
                        {
                            "number": _number(cards[index]),
                            "cards": [_card_view(cards[index], ids), _card_view(cards[index + 1], ids)],
                        }
                        for index in range(0, len(cards), 2)
                    ],
                    "count": len(cards) // 2,
                }
                for owner, cards in enumerate(state.pairs)
            ],
            "scores": [len(cards) // 2 for cards in state.pairs],
            "colours": WORDS.legend(),
            "result": self.result(state),
            "log": log_view(state.log, seat),
        }

    def card_view(self, card: int, ids: tuple[str, ...]) -> dict[str, Any]:
        return _card_view(card, ids)

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> GoFoxState:
        return sample_state(view, seat, rng)


# -- the rules, as functions of the state ---------------------------------------


def _number(card: int) -> int:
    return NUMBER_OF[card]


def _card_view(card: int, ids: tuple[str, ...]) -> dict[str, Any]:
    return word_card_view(WORDS.cards[card], ids[card])


def _of_number(hand: tuple[int, ...], number: int) -> list[int]:
    """The cards of ``number`` in a hand, first colour first (hands are sorted)."""
    return [card for card in hand if NUMBER_OF[card] == number]


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def _replace_seat(items: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*items[:seat], value, *items[seat + 1 :])


def _pair_entry(seat: int, cards: tuple[int, int], ids: tuple[str, ...], after: str) -> LogEntry:
    first, second = (WORDS.cards[card] for card in cards)
    return logged(
        "pair",
        seat,
        f"{{s{seat}}} laid a pair of {first.number}s: {first.label} and {second.label}.",
        json_object(
            number=str(first.number),
            cards=json_list(
                (word_card_json(first, ids[first.index]), word_card_json(second, ids[second.index]))
            ),
            words=json_text([first.word, second.word]),
            after=f'"{after}"',
        ),
    )


def _ask(state: GoFoxState, seat: int, number: int) -> GoFoxState:
    asked = next_seat(seat, state.players)
    log = (
        *state.log,
        logged(
            "ask",
            seat,
            f"{{s{seat}}} asked {{s{asked}}} for {'an' if number in (8, 11) else 'a'} {number}.",
            json_object(asked=str(asked), number=str(number), words="[]"),
        ),
    )
    theirs = _of_number(state.hands[asked], number)
    if not theirs:
        said = logged(
            "go_fox",
            asked,
            f"{{s{asked}}} said GO FOX!",
            json_object(asker=str(seat), number=str(number), words="[]"),
        )
        return replace(state, phase="go_fox", log=(*log, said))
    given = theirs[0]
    own = _of_number(state.hands[seat], number)[0]
    face = WORDS.cards[given]
    gave = logged(
        "give",
        asked,
        f"{{s{asked}}} gave {{s{seat}}} {face.label}.",
        json_object(to=str(seat), card=word_card_json(face, state.ids[given]), words=word_json(face)),
    )
    hands = _replace_seat(state.hands, asked, _without(state.hands[asked], given))
    hands = _replace_seat(hands, seat, _without(hands[seat], own))
    pairs = _replace_seat(state.pairs, seat, (*state.pairs[seat], given, own))
    laid = _pair_entry(seat, (given, own), state.ids, "give")
    return _draw(replace(state, hands=hands, pairs=pairs, log=(*log, gave, laid)), seat)


def _lay(state: GoFoxState, seat: int, number: int) -> GoFoxState:
    first, second = _of_number(state.hands[seat], number)[:2]
    hand = _without(_without(state.hands[seat], first), second)
    return replace(
        state,
        hands=_replace_seat(state.hands, seat, hand),
        pairs=_replace_seat(state.pairs, seat, (*state.pairs[seat], first, second)),
        log=(*state.log, _pair_entry(seat, (first, second), state.ids, "go_fox")),
    )


def _draw(state: GoFoxState, seat: int) -> GoFoxState:
    card, pile = state.pile[0], state.pile[1:]
    hand = tuple(sorted((*state.hands[seat], card), key=hand_order))
    log = (*state.log, draw_entry(seat, card, state.ids, len(pile)))
    if pile:
        turn, phase = next_seat(seat, state.players), "ask"
    else:
        turn, phase = -1, "over"
        log = (*log, logged("end", None, "The pick-up pile is empty: the game is over."))
    return replace(
        state,
        hands=_replace_seat(state.hands, seat, hand),
        pile=pile,
        turn=turn,
        phase=phase,
        log=log,
    )
