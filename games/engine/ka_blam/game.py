"""Ka-Blam! (``ka-blam``): match the top card by colour or number, empty your hand first.

Rules: ../shared/rules/ka-blam.md; the rules themselves are in rules.py, the
sampler in sample.py. Actions: ``play`` a card, ``play_wild`` a Wild naming a
colour, ``draw`` when nothing can be played, ``pass`` when nothing can be drawn
either. Play is compulsory: a player holding a playable card cannot draw.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.engine.actions import ChoiceField, TokenField
from games.engine.errors import IllegalAction
from games.engine.ka_blam.cards import (
    CARD_COUNT,
    COLOURS,
    KIND,
    WILD,
    card_view,
    hand_value,
    matches,
)
from games.engine.ka_blam.rules import can_draw, draw_turn, pass_turn, play_card, start_round
from games.engine.ka_blam.sample import sample_state
from games.engine.ka_blam.state import KaBlamState
from games.engine.log import log_view
from games.engine.options import OptionValue, choice_option, int_option
from games.engine.ranking import competition_ranks
from games.engine.rng import RngState, resume
from games.engine.word_cards import WORDS
from games.engine.word_cards.game import HandAndPileGame


class KaBlam(HandAndPileGame[KaBlamState]):
    slug = "ka-blam"
    name = "Ka-Blam!"
    min_players = 2
    max_players = 6
    options = (
        choice_option(
            "length",
            "Game length",
            "long",
            ("long", "short"),
            help="Long: rounds until someone reaches the target. Short: one round, its winner wins.",
        ),
        int_option(
            "target",
            "Points to win (long game)",
            100,
            10,
            300,
            help="A long game ends when a round's winner reaches this many points.",
        ),
    )
    action_schemas: ClassVar = {
        "play": {"card": TokenField()},
        "play_wild": {"card": TokenField(), "colour": ChoiceField(COLOURS)},
        "draw": {},
        "pass": {},
    }
    state_type = KaBlamState

    # -- setup and turns -----------------------------------------------------

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> KaBlamState:
        rng = resume(rng_state)
        ids = rng.unique_tokens(CARD_COUNT)
        length, target = options["length"], options["target"]
        assert isinstance(length, str) and isinstance(target, int)
        return start_round(players, length, target, rng, ids, (0,) * players, 1, 0, ())

    def turn_actions(self, state: KaBlamState, seat: int) -> list[dict[str, Any]]:
        top, colour, ids = state.discard[0], state.colour, state.ids
        actions: list[dict[str, Any]] = []
        for card in state.hands[seat]:
            if matches(card, top, colour):
                if KIND[card] == WILD:
                    actions.extend(
                        {"type": "play_wild", "card": ids[card], "colour": named} for named in COLOURS
                    )
                else:
                    actions.append({"type": "play", "card": ids[card]})
        if actions:
            return actions
        return [{"type": "draw"}] if can_draw(state) else [{"type": "pass"}]

    def play(self, state: KaBlamState, seat: int, kind: str, fields: dict[str, Any]) -> KaBlamState:
        hand = state.hands[seat]
        top, colour = state.discard[0], state.colour
        if kind in ("draw", "pass"):
            if any(matches(card, top, colour) for card in hand):
                raise IllegalAction("must_play", "You hold a card that can be played, so you must play one.")
            if kind == "draw":
                if not can_draw(state):
                    raise IllegalAction("nothing_to_draw", "There is nothing left to draw: pass.")
                return draw_turn(state, seat)
            if can_draw(state):
                raise IllegalAction("must_draw", "You cannot play, so draw a card.")
            return pass_turn(state, seat)
        card = next((held for held in hand if state.ids[held] == fields["card"]), None)
        if card is None:
            raise IllegalAction("no_such_card", "You do not hold that card.")
        if kind == "play" and KIND[card] == WILD:
            raise IllegalAction(
                "name_a_colour", "Name the colour to follow when you play a Wild (play_wild)."
            )
        if kind == "play_wild" and KIND[card] != WILD:
            raise IllegalAction("not_a_wild", "Only a Wild names a colour: play this card with play.")
        if not matches(card, top, colour):
            raise IllegalAction(
                "does_not_match", "That card does not match the top of the discard pile by colour or number."
            )
        named = COLOURS.index(fields["colour"]) if kind == "play_wild" else -1
        return play_card(state, seat, card, named)

    # -- results -------------------------------------------------------------

    def result(self, state: KaBlamState) -> dict[str, Any] | None:
        if state.turn >= 0:
            return None
        if state.length == "short":
            winner = state.rounds[-1].winner
            return {
                "scores": list(state.scores),
                "ranks": [1 if seat == winner else 2 for seat in range(state.players)],
            }
        return {"scores": list(state.scores), "ranks": competition_ranks(state.scores)}

    # -- views and sampling --------------------------------------------------

    def view(self, state: KaBlamState, seat: int | None) -> dict[str, Any]:
        ids = state.ids
        over = state.turn < 0
        return {
            "game": self.slug,
            "players": state.players,
            "seat": seat,
            "phase": "over" if over else "play",
            "length": state.length,
            "target": state.target,
            "round": state.round,
            "dealer": state.dealer,
            "turn": None if over else state.turn,
            "to_act": self.to_act(state),
            "direction": state.direction,
            "hand": None if seat is None else [card_view(card, ids) for card in state.hands[seat]],
            "hand_sizes": [len(hand) for hand in state.hands],
            "exploded": None if state.exploded < 0 else state.exploded,
            "pile_size": len(state.pile),
            "discard": [card_view(card, ids) for card in state.discard],
            "top": card_view(state.discard[0], ids),
            "colour": COLOURS[state.colour],
            "passes": state.passes,
            "scores": list(state.scores),
            "rounds": [
                {
                    "round": done.round,
                    "dealer": done.dealer,
                    "winner": done.winner,
                    "reason": done.reason,
                    "points": done.points,
                    "exploded": None if done.exploded < 0 else done.exploded,
                    "hands": [[card_view(card, ids) for card in hand] for hand in done.hands],
                    "values": [hand_value(hand) for hand in done.hands],
                }
                for done in state.rounds
            ],
            "colours": WORDS.legend(),
            "result": self.result(state),
            "log": log_view(state.log, seat),
        }

    def card_view(self, card: int, ids: tuple[str, ...]) -> dict[str, Any]:
        return card_view(card, ids)

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> KaBlamState:
        return sample_state(view, seat, rng)
