"""Don't Go Boom on the shared engine contract (rules: docs/games/dont-go-boom.md)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.engine.actions import ActionSchemas, ChoiceField, IntField
from games.engine.base import Game
from games.engine.dont_go_boom import rounds, rules
from games.engine.dont_go_boom.cards import BOMB, DRAW_AGAIN, GRID_SIZE, KIND, PEEK, SWAP
from games.engine.dont_go_boom.sample import sample_state
from games.engine.dont_go_boom.state import CHOOSE, DECIDE, DRAW, FLIP, FROM_DECK, OVER, DontGoBoomState
from games.engine.dont_go_boom.view import build_reveal, build_view, to_act
from games.engine.options import Option, OptionValue, int_option
from games.engine.ranking import competition_ranks
from games.engine.rng import RngState

_POSITION = IntField(0, GRID_SIZE - 1)
_SEAT = IntField(0, 5)


class DontGoBoom(Game[DontGoBoomState]):
    slug = "dont-go-boom"
    name = "Don't Go Boom"
    min_players = 2
    max_players = 6
    options: ClassVar[tuple[Option, ...]] = (
        int_option("rounds", "Rounds", 3, 1, 5, help="Lowest total after this many rounds wins."),
    )
    action_schemas: ClassVar[ActionSchemas] = {
        "choose": {"position": _POSITION},
        "draw": {"from": ChoiceField(("deck", "discard"))},
        "keep": {"position": _POSITION},
        "discard": {},
        "flip": {"position": _POSITION},
        "swap": {"position": _POSITION, "target_seat": _SEAT, "target_position": _POSITION},
        "peek": {"position": _POSITION},
        "draw_again": {},
    }
    state_type = DontGoBoomState

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> DontGoBoomState:
        return rounds.new_game(players, rng_state, int(options["rounds"]))

    def players(self, state: DontGoBoomState) -> int:
        return state.players

    def to_act(self, state: DontGoBoomState) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: DontGoBoomState, seat: int) -> list[dict[str, Any]]:
        if seat not in to_act(state):
            return []
        phase = state.phase
        if phase == CHOOSE:
            return [{"type": "choose", "position": position} for position in range(GRID_SIZE)]
        if phase == DRAW:
            actions: list[dict[str, Any]] = [{"type": "draw", "from": "deck"}]
            if state.discard:
                actions.append({"type": "draw", "from": "discard"})
            return actions
        face_up = state.face_up[seat]
        if phase == FLIP:
            return [
                {"type": "flip", "position": position}
                for position in range(GRID_SIZE)
                if not face_up[position]
            ]
        assert phase == DECIDE
        actions = [{"type": "keep", "position": position} for position in range(GRID_SIZE)]
        if state.held_from != FROM_DECK:
            return actions
        kind = KIND[state.held]
        if kind == BOMB:
            return actions
        actions.append({"type": "discard"})
        if kind == SWAP:
            for target_seat in range(state.players):
                for position in range(GRID_SIZE):
                    # Swapping two of your own cards: each pair once.
                    first_target = position + 1 if target_seat == seat else 0
                    actions.extend(
                        {
                            "type": "swap",
                            "position": position,
                            "target_seat": target_seat,
                            "target_position": target_position,
                        }
                        for target_position in range(first_target, GRID_SIZE)
                    )
        elif kind == PEEK:
            actions.extend(
                {"type": "peek", "position": position}
                for position in range(GRID_SIZE)
                if not face_up[position]
            )
        elif kind == DRAW_AGAIN:
            actions.append({"type": "draw_again"})
        return actions

    def play(self, state: DontGoBoomState, seat: int, kind: str, fields: dict[str, Any]) -> DontGoBoomState:
        if kind == "draw":
            return rules.draw(state, seat, fields["from"])
        if kind == "keep":
            return rules.keep(state, seat, fields["position"])
        if kind == "discard":
            return rules.discard(state, seat)
        if kind == "flip":
            return rules.flip(state, seat, fields["position"])
        if kind == "choose":
            return rounds.choose(state, seat, fields["position"])
        if kind == "swap":
            return rules.swap(
                state, seat, fields["position"], fields["target_seat"], fields["target_position"]
            )
        if kind == "peek":
            return rules.peek(state, seat, fields["position"])
        assert kind == "draw_again"
        return rules.draw_again(state, seat)

    def view(self, state: DontGoBoomState, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def reveal(self, state: DontGoBoomState) -> dict[str, Any]:
        return build_reveal(state)

    def result(self, state: DontGoBoomState) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        totals = list(rounds.game_totals(state))
        return {"scores": totals, "ranks": competition_ranks(totals, higher_is_better=False)}

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> DontGoBoomState:
        return sample_state(view, seat, rng)
