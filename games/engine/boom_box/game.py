"""Bouldertroll Boom Box on the shared engine: ``BoomBox`` ties rules, view and sampler together."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.engine.actions import ChoiceField, TokenField
from games.engine.base import Game
from games.engine.boom_box import rules
from games.engine.boom_box.state import CLAIMS, BoomBoxState
from games.engine.boom_box.view import build_reveal, build_view, sample_state
from games.engine.errors import IllegalAction
from games.engine.options import OptionValue
from games.engine.rng import RngState
from games.engine.seats import check_seat


class BoomBox(Game[BoomBoxState]):
    slug: ClassVar[str] = "boom-box"
    name: ClassVar[str] = "Bouldertroll Boom Box"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    state_type: ClassVar[type] = BoomBoxState
    action_schemas = {
        "set_aside": {"box": TokenField()},
        "pass": {"box": TokenField(), "claim": ChoiceField(CLAIMS)},
        "open": {"box": TokenField()},
        "done": {},
        "remove": {"box": TokenField()},
    }

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> BoomBoxState:
        return rules.new_state(players, rng_state)

    def players(self, state: BoomBoxState) -> int:
        return state.players

    def to_act(self, state: BoomBoxState) -> list[int]:
        return rules.to_act(state)

    def legal_actions(self, state: BoomBoxState, seat: int) -> list[dict[str, Any]]:
        if seat not in rules.to_act(state):
            return []
        if state.phase == "setup":
            return [
                {"type": "set_aside", "box": box_id}
                for box_id in rules.boxes_of(state, seat)
                if box_id not in state.set_aside[seat]
            ]
        if state.loss_chooser is not None:
            return [{"type": "remove", "box": box_id} for box_id in rules.losable_boxes(state)]
        actions: list[dict[str, Any]] = [
            {"type": "pass", "box": box_id, "claim": claim}
            for box_id in rules.passable_boxes(state, seat)
            for claim in CLAIMS
        ]
        actions.extend({"type": "open", "box": box_id} for box_id in rules.openable_boxes(state, seat))
        if rules.can_end_turn(state):
            actions.append({"type": "done"})
        return actions

    def play(self, state: BoomBoxState, seat: int, kind: str, fields: dict[str, Any]) -> BoomBoxState:
        if state.phase == "setup":
            if kind != "set_aside":
                raise IllegalAction(
                    "choose_start_line", "First set aside two boxes: the other four are your Start Line."
                )
            return rules.set_aside_box(state, seat, fields["box"])
        if kind == "set_aside":
            raise IllegalAction("wrong_phase", "The Start Lines are already laid out.")
        if state.loss_chooser is not None:
            if kind != "remove":
                raise IllegalAction(
                    "must_choose_loss", "First choose which box the opener of your Boom loses."
                )
            return rules.remove_box(state, seat, fields["box"])
        if kind == "remove":
            raise IllegalAction("no_loss_pending", "No one is losing a box right now.")
        if kind == "pass":
            return rules.pass_box(state, seat, fields["box"], fields["claim"])
        if kind == "open":
            return rules.open_box(state, seat, fields["box"])
        return rules.end_turn(state, seat)

    def view(self, state: BoomBoxState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            check_seat(seat, state.players)
        return build_view(state, seat)

    def reveal(self, state: BoomBoxState) -> dict[str, Any]:
        return build_reveal(state)

    def result(self, state: BoomBoxState) -> dict[str, Any] | None:
        return rules.result(state)

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> BoomBoxState:
        return sample_state(view, seat, rng)
