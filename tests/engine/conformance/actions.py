"""Legal actions apply; everything else (junk, near misses, wrong seats, bad setups) raises IllegalAction."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.engine import Game
from tests.engine import junk
from tests.engine.conformance.common import (
    assert_fields_unchanged,
    assert_no_legal_actions,
    assert_refused,
    check_refusal_is_readable,
    fields_of,
    hypothesis_settings,
    is_json_ready,
    refusal,
    short,
    try_canonical,
)
from tests.engine.playouts import Playout, canonical


def check_legal_actions_apply(playout: Playout, steps: list[int]) -> None:
    """Every legal action of every waiting seat applies (also after a JSON round trip,
    as it comes from a WebSocket); other seats have none and are refused."""
    game = playout.game
    for step in steps:
        state = playout.states[step]
        label = playout.describe(step)
        waiting = game.to_act(state)
        some_action: dict[str, Any] | None = None
        for seat in waiting:
            legal = game.legal_actions(state, seat)
            assert isinstance(legal, list), f"{label}: legal_actions({seat}) is a {type(legal).__name__}"
            assert legal, f"{label}: seat {seat} waits with no legal action"
            assert is_json_ready(legal), (
                f"{label}: seat {seat}'s legal actions are not JSON-ready: {short(legal)}"
            )
            texts = [canonical(action) for action in legal]
            assert len(set(texts)) == len(texts), (
                f"{label}: seat {seat}'s legal actions repeat one: {short(legal)}"
            )
            for action in legal:
                assert isinstance(action, dict), f"{label}: legal action {short(action)} is not a dict"
                assert isinstance(action.get("type"), str), (
                    f"{label}: legal action {short(action)} has no type"
                )
                # As it comes from a WebSocket (is_json_ready above makes it the same action).
                sent = json.loads(canonical(action))
                error = refusal(game.apply, state, seat, sent)
                assert error is None, f"{label}: seat {seat}'s legal action {action} was refused: {error!r}"
            some_action = legal[0]
        for seat in range(game.players(state)):
            if seat in waiting:
                continue
            assert_no_legal_actions(game, state, seat, {"not_your_turn", "game_over"}, label)
            if some_action is not None:
                assert_refused(game, state, seat, some_action, {"not_your_turn"}, label)


def check_junk_actions(game: Game[Any], pool: list[Any], examples: int) -> None:
    """Anything that is not a legal action raises IllegalAction (a snake_case code and a
    short message) and leaves the state as it was; legal ones apply."""
    entries = []
    for state in pool:
        waiting = game.to_act(state)
        legal = {seat: game.legal_actions(state, seat) for seat in waiting}
        entries.append((state, game.players(state), waiting, legal))
    before = [canonical(game.encode(state)) for state in pool]
    tokens = sorted(
        {
            value
            for _, _, _, legal in entries
            for actions in legal.values()
            for action in actions
            for key, value in action.items()
            if key != "type" and isinstance(value, str)
        }
    )
    kinds = sorted(game.action_schemas)
    field_names = sorted({name for schema in game.action_schemas.values() for name in schema})
    parts = {id(state): fields_of(state) for state in pool}

    @hypothesis_settings(examples)
    @given(data=st.data())
    def apply_junk(data: st.DataObject) -> None:
        # An index, not the state: Hypothesis would hash the whole state on every draw.
        state, players, waiting, legal = entries[data.draw(st.integers(0, len(entries) - 1), label="state")]
        seat = data.draw(junk.seats(players, waiting), label="seat")
        all_legal = [action for actions in legal.values() for action in actions]
        action = data.draw(junk.actions(kinds, field_names, tokens, all_legal), label="action")
        own_legal = legal.get(seat, []) if type(seat) is int else []
        is_legal = try_canonical(action) in {canonical(candidate) for candidate in own_legal}
        error = refusal(game.apply, state, seat, action)
        if is_legal:
            assert error is None, f"seat {seat} was refused its legal action {action}: {error!r}"
        else:
            assert error is not None, (
                f"seat {seat!r} was allowed {short(action)}, which is not a legal action"
            )
            check_refusal_is_readable(error)
        assert_fields_unchanged(state, parts[id(state)], f"{short(action)} by {seat!r}")

    apply_junk()
    # Encoding every state for every example would be slow; a change would still be there now.
    for number, state in enumerate(pool):
        assert canonical(game.encode(state)) == before[number], f"pool state {number}: junk changed the state"


def check_mutated_legal_actions(game: Game[Any], pool: list[Any], per_seat: int) -> None:
    """Each of a fixed catalogue of mutations of legal actions (a field dropped, added,
    re-typed, nudged, swapped for another id or for junk; the type changed; the seat
    changed) is applied or refused exactly as ``legal_actions`` says, and changes
    nothing. Systematic where the Hypothesis check is broad."""
    for number, state in enumerate(pool):
        before = canonical(game.encode(state))
        waiting = game.to_act(state)
        legal = {seat: game.legal_actions(state, seat) for seat in waiting}
        tokens = sorted(
            {
                value
                for actions in legal.values()
                for action in actions
                for value in action.values()
                if isinstance(value, str)
            }
        )
        for seat, actions in legal.items():
            accepted = {canonical(action) for action in actions}
            for action in actions[:per_seat]:
                for mutant in junk.mutations(action, sorted(game.action_schemas), tokens):
                    _check_one(
                        game, state, seat, mutant, try_canonical(mutant) in accepted, f"pool state {number}"
                    )
                idle = [other for other in range(game.players(state)) if other not in waiting]
                for wrong_seat in junk.bad_seats(game.players(state)) + idle:
                    _check_one(game, state, wrong_seat, action, False, f"pool state {number}")
        assert canonical(game.encode(state)) == before, (
            f"pool state {number}: refused actions changed the state"
        )


def _check_one(game: Game[Any], state: Any, seat: Any, action: Any, is_legal: bool, label: str) -> None:
    error = refusal(game.apply, state, seat, action)
    if is_legal:
        assert error is None, f"{label}: seat {seat} was refused its legal action {action}: {error!r}"
    else:
        assert error is not None, f"{label}: seat {seat!r} was allowed {short(action)}, not a legal action"
        check_refusal_is_readable(error)


def check_new_refuses_junk(game: Game[Any], examples: int) -> None:
    """Bad player counts, seeds and options raise IllegalAction with the shared codes;
    good ones (any int seed, any declared option value) set up a game or are refused
    as a combination, never crash."""
    low, high = game.min_players, game.max_players

    @hypothesis_settings(examples)
    @given(data=st.data())
    def new_with(data: st.DataObject) -> None:
        case = data.draw(st.sampled_from(["players", "seed", "options", "good"]), label="case")
        players: Any = data.draw(st.integers(low, high), label="players")
        seed: Any = data.draw(junk.good_seeds(), label="seed")
        options: Any = None
        expected: set[str] = set()
        if case == "players":
            players = data.draw(junk.bad_player_counts(low, high), label="bad players")
            expected = {"bad_player_count"}
        elif case == "seed":
            seed = data.draw(junk.bad_seeds(), label="bad seed")
            expected = {"bad_seed"}
        elif case == "options":
            options = data.draw(junk.bad_options(game.options), label="bad options")
            expected = {"bad_option", "unknown_option"}
        else:
            options = data.draw(junk.good_options(game.options), label="options")
        made: list[Any] = []
        error = refusal(lambda: made.append(game.new(players, seed, options)))
        call = f"new({short(players)}, {short(seed)}, {short(options)})"
        if error is not None:
            check_refusal_is_readable(error)
            # A good setup may still be refused as a combination (a solitaire variant at four players).
            assert case == "good" or error.code in expected, f"{call} raised {error!r}, not {expected}"
            return
        assert case == "good", f"{call} was accepted"
        again = game.new(players, seed, copy.deepcopy(options))
        assert canonical(game.encode(made[0])) == canonical(game.encode(again)), (
            f"{call} is not deterministic"
        )

    new_with()
