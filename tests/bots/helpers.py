"""Shared pieces of the bot tests: canonical action keys, the states of a random game,
and a Go Fox! position whose log makes one ask sure."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from games.engine import Game
from games.engine.go_fox import GoFox, GoFoxState
from games.engine.go_fox.state import hand_order
from games.engine.word_cards import WORDS

S = TypeVar("S")


def key(action: dict[str, Any]) -> str:
    """An action as canonical text, for comparing sets of actions."""
    return json.dumps(action, sort_keys=True)


def random_game_states(
    game: Game[S], players: int, seed: int, options: dict[str, Any] | None = None
) -> list[S]:
    """Every state of one seeded random game (the first waiting seat acts each time)."""
    rng = random.Random(seed)
    state = game.new(players, seed, options)
    seen = [state]
    while game.to_act(state):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        seen.append(state)
    return seen


def finish_basic_against_random(
    game: Game[S],
    state: S,
    basic_seat: int,
    basic: Callable[[Game[S], dict[str, Any], int, random.Random], dict[str, Any]],
    rng: random.Random,
) -> S:
    """Play ``state`` to the end: ``basic`` in ``basic_seat``, random legal actions elsewhere."""
    while waiting := game.to_act(state):
        seat = waiting[0]
        if seat == basic_seat:
            action = basic(game, game.view(state, seat), seat, rng)
        else:
            action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
    return state


GO_FOX = GoFox()


def go_fox_seven_shown_by_seat_1() -> GoFoxState:
    """Seat 1 asked seat 0 for a 7 and heard GO FOX!; seat 0, to ask, holds a 7 too."""
    sevens = [card.index for card in WORDS.cards if card.number == 7]
    others = [card.index for card in WORDS.cards if card.number not in (3, 7)]
    three = WORDS.card(0, 3).index
    hands = (
        tuple(sorted([three, *others[:4]], key=hand_order)),
        tuple(sorted([sevens[0], *others[4:8]], key=hand_order)),
    )
    state = replace(GO_FOX.new(2, 5), hands=hands)
    state = GO_FOX.apply(state, 1, {"type": "ask", "number": 7})
    state = GO_FOX.apply(state, 1, {"type": "draw"})
    return replace(state, hands=(tuple(sorted([*state.hands[0], sevens[1]], key=hand_order)), state.hands[1]))
