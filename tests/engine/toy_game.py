"""A tiny game built on the shared engine core, for testing the core and the suite.

"Toy High Card": eight cards worth 1..8 with opaque ids. Everyone is dealt a hidden
hand; first all seats say "ready" at once (a simultaneous step, as in several real
games); then, in turn, a player plays a card face up or draws one (only they learn
what they drew). The game ends when every hand is empty; the sum of one's played
cards is the score (highest wins, or lowest with ``scoring="low"``).

It is small on purpose, but has what the conformance suite must handle: hidden
hands and deck, private log facts, opaque ids, options of every kind and a step
that several seats owe at once. The suite's self-tests derive broken games from it
to show that each conformance check can fail.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from games.engine import Game, IllegalAction
from games.engine.actions import TokenField
from games.engine.cards import draw, replace_at
from games.engine.log import LogEntry, entry, log_reveal, log_view
from games.engine.options import OptionValue, bool_option, choice_option, int_option
from games.engine.ranking import competition_ranks
from games.engine.rng import RngState, resume
from games.engine.seats import next_seat

CARD_VALUES = tuple(range(1, 9))
MAX_HAND = 3


@dataclass(frozen=True, slots=True)
class ToyState:
    players: int
    rng: RngState
    scoring: str
    can_draw: bool
    values: tuple[tuple[str, int], ...]  # (card id, value) for every card, sorted by id
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    played: tuple[tuple[str, ...], ...]
    ready: tuple[bool, ...]
    turn: int
    log: tuple[LogEntry, ...]


class ToyHighCard(Game[ToyState]):
    slug = "toy-high-card"
    name = "Toy High Card"
    min_players = 2
    max_players = 4
    options = (
        int_option("hand_size", "Cards dealt", default=2, minimum=1, maximum=2),
        choice_option("scoring", "Scoring", default="high", choices=("high", "low")),
        bool_option("can_draw", "Drawing allowed", default=True),
    )
    action_schemas = {"ready": {}, "play": {"card": TokenField()}, "draw": {}}
    state_type = ToyState

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> ToyState:
        rng = resume(rng_state)
        ids = rng.unique_tokens(len(CARD_VALUES))
        deck = rng.shuffled(ids)
        hand_size = int(options["hand_size"])
        return ToyState(
            players=players,
            rng=rng.state,
            scoring=str(options["scoring"]),
            can_draw=bool(options["can_draw"]),
            values=tuple(sorted(zip(ids, CARD_VALUES, strict=True))),
            deck=deck[players * hand_size :],
            hands=tuple(deck[seat * hand_size : (seat + 1) * hand_size] for seat in range(players)),
            played=((),) * players,
            ready=(False,) * players,
            turn=0,
            log=(),
        )

    def players(self, state: ToyState) -> int:
        return state.players

    def to_act(self, state: ToyState) -> list[int]:
        if not all(state.ready):
            return [seat for seat in range(state.players) if not state.ready[seat]]
        if not any(state.hands):
            return []
        return [state.turn]

    def legal_actions(self, state: ToyState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        if not all(state.ready):
            return [{"type": "ready"}]
        actions: list[dict[str, Any]] = [{"type": "play", "card": card} for card in state.hands[seat]]
        if self._can_draw(state, seat):
            actions.append({"type": "draw"})
        return actions

    def _can_draw(self, state: ToyState, seat: int) -> bool:
        return state.can_draw and bool(state.deck) and len(state.hands[seat]) < MAX_HAND

    def play(self, state: ToyState, seat: int, kind: str, fields: dict[str, Any]) -> ToyState:
        if kind == "ready":
            if all(state.ready):
                raise IllegalAction("wrong_phase", "Everyone is ready already.")
            note = entry("ready", seat, f"{{s{seat}}} is ready")
            return replace(state, ready=replace_at(state.ready, seat, True), log=(*state.log, note))
        if not all(state.ready):
            raise IllegalAction("wrong_phase", "Say you are ready first.")
        hand = state.hands[seat]
        if kind == "play":
            card = fields["card"]
            if card not in hand:
                raise IllegalAction("no_such_card", "You hold no such card.")
            value = dict(state.values)[card]
            note = entry("play", seat, f"{{s{seat}}} played the {value}", {"card": card, "value": value})
            return self._after_turn(
                state,
                seat,
                hands=replace_at(state.hands, seat, tuple(c for c in hand if c != card)),
                played=replace_at(state.played, seat, (*state.played[seat], card)),
                log=(*state.log, note),
            )
        if not self._can_draw(state, seat):
            raise IllegalAction("cannot_draw", "You cannot draw now.")
        (card,), deck = draw(state.deck)
        note = draw_entry(seat, card, dict(state.values)[card])
        return self._after_turn(
            state, seat, deck=deck, hands=replace_at(state.hands, seat, (*hand, card)), log=(*state.log, note)
        )

    def _after_turn(self, state: ToyState, seat: int, **changes: Any) -> ToyState:
        moved = replace(state, **changes)
        turn = next_seat(seat, state.players)
        while any(moved.hands) and not moved.hands[turn]:
            turn = next_seat(turn, state.players)
        return replace(moved, turn=turn)

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        values = dict(state.values)
        own = state.hands[seat] if seat is not None else ()
        return {
            "players": state.players,
            "scoring": state.scoring,
            "can_draw": state.can_draw,
            "to_act": self.to_act(state),
            "ready": list(state.ready),
            "deck_size": len(state.deck),
            "hands": [
                [{"id": card, "value": values[card] if card in own else None} for card in hand]
                for hand in state.hands
            ],
            "played": [[{"id": card, "value": values[card]} for card in pile] for pile in state.played],
            "scores": self._scores(state),
            "log": log_view(state.log, seat),
        }

    def reveal(self, state: ToyState) -> dict[str, Any]:
        """A spectator's view with every hand shown and the deck in order (top first)."""
        values = dict(state.values)
        shown = self.view(state, None)
        shown["hands"] = [[{"id": card, "value": values[card]} for card in hand] for hand in state.hands]
        shown["deck"] = [{"id": card, "value": values[card]} for card in state.deck]
        shown["log"] = log_reveal(state.log)
        shown["revealed"] = True
        # Nothing at the top level depends on who looks.
        shown["as_seen_by"] = {str(seat): {} for seat in range(state.players)}
        return shown

    def _scores(self, state: ToyState) -> list[int]:
        values = dict(state.values)
        return [sum(values[card] for card in pile) for pile in state.played]

    def result(self, state: ToyState) -> dict[str, Any] | None:
        if self.to_act(state):
            return None
        scores = self._scores(state)
        return {
            "scores": scores,
            "ranks": competition_ranks(scores, higher_is_better=state.scoring == "high"),
        }

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> ToyState:
        shown = {card["id"]: card["value"] for pile in view["hands"] + view["played"] for card in pile}
        unknown_values = [value for value in CARD_VALUES if value not in shown.values()]
        rng.shuffle(unknown_values)
        deck_ids: list[str] = []
        while len(deck_ids) < view["deck_size"]:
            token = f"{rng.getrandbits(32):08x}"
            if token not in shown and token not in deck_ids:
                deck_ids.append(token)
        hidden_ids = [card for card, value in shown.items() if value is None] + deck_ids
        values = {card: value for card, value in shown.items() if value is not None}
        values.update(zip(hidden_ids, unknown_values, strict=True))
        ready = tuple(view["ready"])
        to_act = view["to_act"]
        return ToyState(
            players=view["players"],
            rng=rng.getrandbits(64),
            scoring=view["scoring"],
            can_draw=view["can_draw"],
            values=tuple(sorted(values.items())),
            deck=tuple(deck_ids),
            hands=tuple(tuple(card["id"] for card in hand) for hand in view["hands"]),
            played=tuple(tuple(card["id"] for card in pile) for pile in view["played"]),
            ready=ready,
            turn=to_act[0] if all(ready) and to_act else 0,
            log=tuple(_entry_from_view(item, values) for item in view["log"]),
        )


def draw_entry(seat: int, card: str, value: int) -> LogEntry:
    return entry(
        "draw",
        seat,
        f"{{s{seat}}} drew a card",
        {"card": card},
        {seat: (f"You drew the {value}", {"value": value})},
    )


def _entry_from_view(shown: dict[str, Any], values: dict[str, int]) -> LogEntry:
    """Rebuild a log entry; a draw's private part is re-made from the sampled value."""
    if shown["event"] == "draw":
        return draw_entry(shown["seat"], shown["card"], values[shown["card"]])
    facts = {key: value for key, value in shown.items() if key not in ("event", "seat", "text")}
    return entry(shown["event"], shown["seat"], shown["text"], facts)
