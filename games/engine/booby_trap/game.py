"""Booby-Trap on the shared engine contract (rules: docs/games/booby-trap.md)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.engine.actions import ActionSchemas, TokenField
from games.engine.base import Game
from games.engine.errors import IllegalAction
from games.engine.options import Option, OptionValue, choice_option
from games.engine.rng import RngState

from . import rules
from .sample import sample_state
from .state import NO_PASS, REGULAR, SIZE_ORDER, SOLITAIRE, VALUE_SCHEMES, VARIANTS, BoobyTrapState
from .view import build_reveal, build_view

_PIECE = TokenField()


class BoobyTrap(Game[BoobyTrapState]):
    slug = "booby-trap"
    name = "Booby-Trap"
    min_players = 1
    max_players = 10
    options: ClassVar[tuple[Option, ...]] = (
        choice_option(
            "variant",
            "Variant",
            REGULAR,
            VARIANTS,
            help="One player always plays solitaire; size-order and no-pass need two or more.",
        ),
        choice_option(
            "values",
            "Piece values",
            "5-10-20",
            tuple(VALUE_SCHEMES),
            help="Points for a small, medium and large piece; a trip costs the large value.",
        ),
    )
    action_schemas: ClassVar[ActionSchemas] = {
        "touch": {"piece": _PIECE},
        "pass": {},
        "take": {"piece": _PIECE},
    }
    state_type = BoobyTrapState

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> BoobyTrapState:
        variant = str(options["variant"])
        if players == 1:
            if variant in (SIZE_ORDER, NO_PASS):
                raise IllegalAction("bad_option", f"The {variant} variant needs at least two players.")
            variant = SOLITAIRE
        elif variant == SOLITAIRE:
            raise IllegalAction("bad_option", "Solitaire is played by one player.")
        return rules.new_game(players, rng_state, variant, VALUE_SCHEMES[str(options["values"])])

    def players(self, state: BoobyTrapState) -> int:
        return state.players

    def to_act(self, state: BoobyTrapState) -> list[int]:
        return [] if state.is_over else [state.turn]

    def legal_actions(self, state: BoobyTrapState, seat: int) -> list[dict[str, Any]]:
        if state.is_over or seat != state.turn:
            return []
        if state.touched is not None:
            actions: list[dict[str, Any]] = [{"type": "take", "piece": state.pieces[state.touched].id}]
            if rules.can_pass(state):
                actions.append({"type": "pass"})
            return actions
        kind = "take" if state.variant == NO_PASS else "touch"
        return [{"type": kind, "piece": state.pieces[index].id} for index in rules.touchable(state)]

    def play(self, state: BoobyTrapState, seat: int, kind: str, fields: dict[str, Any]) -> BoobyTrapState:
        if kind == "touch":
            return rules.touch(state, seat, fields["piece"])
        if kind == "pass":
            return rules.pass_turn(state, seat)
        assert kind == "take"
        return rules.take(state, seat, fields["piece"])

    def view(self, state: BoobyTrapState, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def reveal(self, state: BoobyTrapState) -> dict[str, Any]:
        return build_reveal(state)

    def result(self, state: BoobyTrapState) -> dict[str, Any] | None:
        return rules.result(state)

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> BoobyTrapState:
        return sample_state(view, seat, rng)
