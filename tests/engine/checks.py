"""The engine conformance checks, as plain functions that raise ``AssertionError``.

``test_conformance.py`` runs them over every registered game; its self-tests run
them over deliberately broken games to show that each one can fail. The contract
they check is ../shared/design/engine-contract.md.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import operator
import os
import re
import subprocess
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, IllegalAction, all_games
from games.engine.actions import ChoiceField, IntField, TokenField
from games.engine.options import Option
from tests.engine import junk
from tests.engine.playouts import (
    Config,
    Playout,
    canonical,
    checkpoints,
    configs,
    digest,
    play_on,
    recorded,
    replay_request,
    seats_and_spectator,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
# A message is a sentence for a player, not an echo of whatever junk came in.
MAX_MESSAGE_LENGTH = 400


@dataclass(frozen=True)
class Budget:
    """How much each check does per game; ENGINE_CONFORMANCE_SCALE=N multiplies it for a deep run."""

    playouts_per_config: int = 3  # random playouts that must end, per config
    checkpoints: int = 6  # steps per playout where the expensive checks run
    trace_points: int = 16  # steps per playout whose encodings are compared byte for byte
    samples: int = 1  # samples per viewer per checkpoint
    re_deal_samples: int = 8  # samples of the first state that must not all be the truth
    junk_actions: int = 200  # Hypothesis examples
    near_miss_actions_per_seat: int = 6  # legal actions per seat and pool state that get mutated
    junk_decodes: int = 100
    junk_new: int = 60

    @classmethod
    def from_environment(cls) -> Budget:
        scale = int(os.environ.get("ENGINE_CONFORMANCE_SCALE", "1"))
        return cls(**{field.name: getattr(cls(), field.name) * scale for field in dataclasses.fields(cls)})


BUDGET = Budget.from_environment()


def hypothesis_settings(examples: int) -> settings:
    # Derandomized and without a database, so that CI sees the same examples on every run.
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


# -- what the suite runs over ------------------------------------------------------


def game_spec(game: Game[Any]) -> str:
    """How a fresh process finds the game again: its slug, or ``module:Class`` if unregistered."""
    if any(registered is game for registered in all_games()):
        return game.slug
    return f"{type(game).__module__}:{type(game).__qualname__}"


def main_playout(config: Config) -> Playout:
    return recorded(config, 0)


# Short games get more playouts checked: random play ends It's a Bomb! in a few moves.
MIN_CHECKED_ACTIONS = 60
MAX_CHECKED_PLAYOUTS = 8


def checked_playouts(config: Config) -> list[Playout]:
    """The playouts the per-step checks look at: seed 0, and more while they are short."""
    playouts = [recorded(config, 0)]
    while sum(len(p.moves) for p in playouts) < MIN_CHECKED_ACTIONS and len(playouts) < MAX_CHECKED_PLAYOUTS:
        playouts.append(recorded(config, len(playouts)))
    return playouts


def encoding(playout: Playout, step: int) -> str:
    """The canonical encoding of ``playout.states[step]``, made once."""
    return _encoding(playout, step)


@cache
def _encoding(playout: Playout, step: int) -> str:
    return canonical(playout.game.encode(playout.states[step]))


def is_json_ready(data: Any) -> bool:
    """True when ``data`` survives a JSON round trip unchanged (no tuples, int keys, NaN, sets)."""
    try:
        return bool(json.loads(canonical(data)) == data)
    except (TypeError, ValueError):
        return False


def try_canonical(data: Any) -> str | None:
    try:
        return canonical(data)
    except (TypeError, ValueError):
        return None


def short(data: Any, limit: int = 300) -> str:
    text = repr(data)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


# -- the game's declared facts -----------------------------------------------------


def check_declared_facts(game: Game[Any]) -> None:
    assert isinstance(game.slug, str), f"slug {game.slug!r}"
    assert SLUG.fullmatch(game.slug), f"slug {game.slug!r} is not kebab-case"
    assert isinstance(game.name, str), f"{game.slug}: name {game.name!r}"
    assert game.name.strip(), f"{game.slug}: the name is blank"
    assert type(game.min_players) is int, f"{game.slug}: min_players {game.min_players!r}"
    assert type(game.max_players) is int, f"{game.slug}: max_players {game.max_players!r}"
    assert 1 <= game.min_players <= game.max_players, f"{game.slug}: {game.min_players}..{game.max_players}"
    assert type(game.is_cooperative) is bool, f"{game.slug}: is_cooperative {game.is_cooperative!r}"
    assert isinstance(game.options, tuple), f"{game.slug}: options must be a tuple"
    assert all(isinstance(option, Option) for option in game.options), f"{game.slug}: options must be Options"
    names = [option.name for option in game.options]
    assert len(set(names)) == len(names), f"{game.slug}: options repeat a name: {names}"
    for option in game.options:
        assert option.parse(option.default) == option.default, (
            f"{game.slug}: option {option.name} default refused"
        )
        assert is_json_ready(option.as_data()), (
            f"{game.slug}: option {option.name} as_data() is not JSON-ready"
        )
        if option.kind == "int":
            bounds = (option.minimum, option.maximum)
            assert None not in bounds, f"{game.slug}: int option {option.name} needs both bounds for the form"
    for kind, schema in game.action_schemas.items():
        assert isinstance(kind, str), f"{game.slug}: action type {kind!r}"
        assert SNAKE_CASE.fullmatch(kind), f"{game.slug}: action type {kind!r} is not snake_case"
        assert "type" not in schema, f"{game.slug}: action {kind} declares a field named 'type'"
        for name, field in schema.items():
            assert isinstance(name, str), f"{game.slug}: action {kind} has a field named {name!r}"
            assert isinstance(field, IntField | ChoiceField | TokenField), (
                f"{game.slug}: {kind}.{name} is {field!r}"
            )
    state_type = game.state_type
    assert dataclasses.is_dataclass(state_type), f"{game.slug}: state_type is not a dataclass"
    assert state_type.__dataclass_params__.frozen, f"{game.slug}: {state_type.__name__} is not frozen"  # type: ignore[attr-defined]
    assert hasattr(state_type, "__slots__"), f"{game.slug}: {state_type.__name__} is not slots=True"
    problems = mutable_parts(state_type)
    assert not problems, (
        f"{game.slug}: a state may hold only frozen dataclasses, tuples and scalars: {problems}"
    )


def mutable_parts(hint: Any, path: str = "state", seen: set[type] | None = None) -> list[str]:
    """Where a state type's hints allow something other than frozen dataclasses,
    tuples, scalars and None (checked once per type, not per state)."""
    seen = set() if seen is None else seen
    if hint in (type(None), bool, int, float, str, Any):
        return []
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) or origin is tuple:
        return [
            problem
            for index, argument in enumerate(arguments)
            if argument is not Ellipsis
            for problem in mutable_parts(argument, f"{path}[{index}]" if origin is tuple else path, seen)
        ]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in seen:
            return []
        seen.add(hint)
        if not hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{path} ({hint.__name__}) is not frozen"]
        hints = typing.get_type_hints(hint)
        return [
            problem
            for field in dataclasses.fields(hint)
            for problem in mutable_parts(hints[field.name], f"{path}.{field.name}", seen)
        ]
    return [f"{path} is {hint!r}"]


def check_state_is_immutable_data(game: Game[Any], state: Any, label: str) -> None:
    """A state holds only frozen dataclasses, tuples and scalars (no dicts, lists or sets)."""

    def walk(value: Any, path: str) -> None:
        if value is None or isinstance(value, bool | int | float | str):
            return
        if isinstance(value, tuple):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
            return
        is_instance = dataclasses.is_dataclass(value) and not isinstance(value, type)
        assert is_instance, f"{label}: {path} is a {type(value).__name__}, which a state may not hold"
        is_frozen = type(value).__dataclass_params__.frozen
        assert is_frozen, f"{label}: {path} ({type(value).__name__}) is not frozen"
        for field in dataclasses.fields(value):
            walk(getattr(value, field.name), f"{path}.{field.name}")

    assert type(state) is game.state_type, (
        f"{label}: a {type(state).__name__}, not a {game.state_type.__name__}"
    )
    walk(state, "state")


# -- playouts end; determinism; purity ---------------------------------------------


def check_playouts_end(config: Config, count: int) -> list[Playout]:
    """Random legal playouts end (``play_randomly`` fails on a loop or a stuck seat)."""
    playouts = [recorded(config, seed) for seed in range(count)]
    while sum(len(p.moves) for p in playouts) < 4 * MIN_CHECKED_ACTIONS and len(playouts) < 10 * count:
        playouts.append(recorded(config, len(playouts)))  # short games: more of them
    main = playouts[0]
    check_state_is_immutable_data(main.game, main.final, main.describe(len(main.moves)))
    return playouts


def check_replay_is_deterministic(playout: Playout, points: list[int]) -> None:
    """Replaying the seed and actions gives equal states at every step, and
    byte-identical encodings at ``points`` (the last step included: its log holds
    the whole game, so an early difference shows there too)."""
    game = playout.game
    wanted = set(points)
    state = playout.config.new(playout.seed)
    for step in range(len(playout.states)):
        label = playout.describe(step)
        if step:
            seat, action = playout.moves[step - 1]
            state = game.apply(state, seat, copy.deepcopy(action))
        assert state == playout.states[step], f"{label}: the same seed and actions gave a different state"
        if step in wanted:
            assert canonical(game.encode(state)) == encoding(playout, step), (
                f"{label}: the same seed and actions gave a different encoding"
            )


def check_replay_in_fresh_processes(game: Game[Any], playouts: list[Playout], points: int) -> None:
    """A fresh interpreter (with a different hash seed, so set order differs) replays
    each playout to the same digest of turns, legal actions, encodings, views and results."""
    chosen = [checkpoints(playout, points) for playout in playouts]
    requests = [
        replay_request(game_spec(game), playout, steps)
        for playout, steps in zip(playouts, chosen, strict=True)
    ]
    here = [
        digest(
            game,
            playout.config.players,
            playout.config.options_dict,
            playout.seed,
            list(playout.moves),
            steps,
        )
        for playout, steps in zip(playouts, chosen, strict=True)
    ]
    # A hash seed other than ours: str and set order then differ from this process.
    hash_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    completed = subprocess.run(
        [sys.executable, "-m", "tests.engine.playouts"],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, f"the replay process failed:\n{completed.stderr[-3000:]}"
    there = json.loads(completed.stdout)
    for playout, mine, theirs in zip(playouts, here, there, strict=True):
        assert mine == theirs, (
            f"{playout.describe()}: a fresh process (PYTHONHASHSEED={hash_seed}) replayed "
            "the same actions to different turns, legal actions, states, views or results"
        )


def check_apply_leaves_its_input_unchanged(playout: Playout, points: list[int]) -> None:
    """At every step apply() leaves the input's fields bound to the same objects and
    the action as given, and repeats its result; at ``points`` the input's encoding
    is compared byte for byte before and after."""
    game = playout.game
    wanted = set(points)
    for step, (seat, action) in enumerate(playout.moves):
        state = playout.states[step]
        label = playout.describe(step)
        parts = fields_of(state)
        before = canonical(game.encode(state)) if step in wanted else ""
        given = copy.deepcopy(action)
        after = game.apply(state, seat, given)
        assert_fields_unchanged(state, parts, f"{label}: apply()")
        assert given == action, f"{label}: apply() changed the action it was given"
        assert after == playout.states[step + 1], f"{label}: apply() is not repeatable"
        if step in wanted:
            assert canonical(game.encode(state)) == before, f"{label}: apply() changed its input state"


def check_readers_leave_the_state_unchanged(playout: Playout, steps: list[int]) -> None:
    """to_act, legal_actions, view and result do not change the state, and the lists
    and dicts they return are the caller's own (changing them changes nothing)."""
    game = playout.game
    for step in steps:
        state = playout.states[step]
        label = playout.describe(step)
        encoding(playout, step)  # before the readers run
        players = game.players(state)
        waiting = game.to_act(state)
        waiting.append(players + 1)
        assert game.to_act(state) == waiting[:-1], f"{label}: changing to_act()'s list changed the game"
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            before = canonical(legal)
            for action in legal:
                action["junk"] = 1
            legal.append({"type": "junk"})
            assert canonical(game.legal_actions(state, seat)) == before, (
                f"{label}: changing the list legal_actions() returned changed the next answer"
            )
        for viewer in seats_and_spectator(players):
            shown = game.view(state, viewer)
            before = canonical(shown)
            _scribble(shown)
            assert canonical(game.view(state, viewer)) == before, (
                f"{label}: changing the dict view({viewer}) returned changed the next view"
            )
        result = game.result(state)
        if result is not None:
            before = canonical(result)
            _scribble(result)
            assert canonical(game.result(state)) == before, f"{label}: result() shares its dict"
        assert canonical(game.encode(state)) == encoding(playout, step), (
            f"{label}: a reader changed the state"
        )


def _scribble(data: Any) -> None:
    """Change every dict and list inside ``data`` in place."""
    if isinstance(data, dict):
        for value in data.values():
            _scribble(value)
        data["scribbled"] = True
    elif isinstance(data, list):
        for value in data:
            _scribble(value)
        data.append("scribbled")


# -- legal actions and turns ---------------------------------------------------------


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
                for sent in (action, json.loads(canonical(action))):
                    error = refusal(game.apply, state, seat, sent)
                    assert error is None, (
                        f"{label}: seat {seat}'s legal action {action} was refused: {error!r}"
                    )
            some_action = legal[0]
        for seat in range(game.players(state)):
            if seat in waiting:
                continue
            _assert_no_legal_actions(game, state, seat, {"not_your_turn", "game_over"}, label)
            if some_action is not None:
                _assert_refused(game, state, seat, some_action, {"not_your_turn"}, label)


def refusal(call: Callable[..., object], *arguments: Any) -> IllegalAction | None:
    """The IllegalAction ``call(*arguments)`` raises, or None when it goes through
    (any other exception propagates: that is a failure in itself)."""
    try:
        call(*arguments)
    except IllegalAction as error:
        return error
    return None


def _assert_no_legal_actions(game: Game[Any], state: Any, seat: int, codes: set[str], label: str) -> None:
    listed: list[Any] = []
    error = refusal(lambda: listed.extend(game.legal_actions(state, seat)))
    assert error is None or error.code in codes, (
        f"{label}: legal_actions({seat}) raised {error!r}, not {codes}"
    )
    assert listed == [], f"{label}: seat {seat} owes no decision but has legal actions {short(listed)}"


def _assert_refused(game: Game[Any], state: Any, seat: Any, action: Any, codes: set[str], label: str) -> None:
    error = refusal(game.apply, state, seat, action)
    assert error is not None, f"{label}: seat {seat!r} was allowed to play {short(action)} out of turn"
    assert error.code in codes, f"{label}: seat {seat!r} playing {short(action)} got {error!r}, not {codes}"


# -- results -----------------------------------------------------------------------

Direction = str  # "higher" or "lower": which scores the ranks favour


def check_result(playout: Playout) -> set[Direction]:
    """None until the end, then valid scores and competition ranks per seat.

    Returns the directions (higher or lower is better) the ranks agree with, so
    that the caller can check a game ranks the same way in every playout."""
    game = playout.game
    final = playout.final
    label = playout.describe(len(playout.moves))
    players = game.players(final)
    result = game.result(final)
    assert isinstance(result, dict), f"{label}: the game is over but result() is {result!r}"
    assert is_json_ready(result), f"{label}: result is not JSON-ready: {short(result)}"
    scores, ranks = result.get("scores"), result.get("ranks")
    assert isinstance(scores, list), f"{label}: scores {scores!r}"
    assert isinstance(ranks, list), f"{label}: ranks {ranks!r}"
    assert len(scores) == len(ranks) == players, (
        f"{label}: scores {scores}, ranks {ranks} for {players} seats"
    )
    assert all(_is_score(score) for score in scores), f"{label}: scores must be numbers: {scores}"
    assert all(type(rank) is int and 1 <= rank <= players for rank in ranks), f"{label}: bad ranks {ranks}"
    assert competition_ranks_are_valid(ranks), f"{label}: {ranks} are not competition ranks (1, 2, 2, 4)"
    if game.is_cooperative:
        assert type(result.get("won")) is bool, f"{label}: a cooperative game's result needs won: bool"
    if "won" in result:
        assert type(result["won"]) is bool, f"{label}: won must be a bool: {result['won']!r}"
    assert game.result(game.decode(game.encode(final))) == result, (
        f"{label}: result changes through the codec"
    )
    for seat in range(players):
        _assert_no_legal_actions(game, final, seat, {"game_over", "not_your_turn"}, label)
        if playout.moves:
            _assert_refused(game, final, seat, playout.moves[-1][1], {"game_over"}, label)
    directions = directions_agreeing(scores, ranks)
    assert directions, f"{label}: ranks {ranks} contradict scores {scores} both ways"
    return directions


def _is_score(score: Any) -> bool:
    if isinstance(score, list):
        return all(_is_score(part) for part in score)
    return type(score) in (int, float)


def competition_ranks_are_valid(ranks: list[int]) -> bool:
    """Each rank is one more than the number of seats ranked strictly better."""
    return all(rank == 1 + sum(other < rank for other in ranks) for rank in ranks)


def directions_agreeing(scores: list[Any], ranks: list[int]) -> set[Direction]:
    """The directions in which no seat with a better score has a worse rank.

    Ties in score may be broken (Boom Box counts opened boxes) and several scores
    may share a rank (short Ka-Blam!), so only contradictions are ruled out."""
    found = set()
    for direction, better in (("higher", operator.gt), ("lower", operator.lt)):
        if not any(
            better(scores[i], scores[j]) and ranks[i] > ranks[j]
            for i in range(len(scores))
            for j in range(len(scores))
        ):
            found.add(direction)
    return found


# -- codec ---------------------------------------------------------------------------


def check_round_trips(playout: Playout, points: list[int]) -> None:
    """At ``points``: decode(encode(s)) == s, re-encodes byte for byte, and play goes on
    from it exactly as from the original (the site keeps states as JSON between moves)."""
    game = playout.game
    for step in points:
        state = playout.states[step]
        label = playout.describe(step)
        text = encoding(playout, step)
        assert is_json_ready(json.loads(text)), f"{label}: encode() is not JSON-ready"
        decoded = game.decode(json.loads(text))
        assert type(decoded) is type(state), f"{label}: decode gave a {type(decoded).__name__}"
        assert decoded == state, f"{label}: decode(encode(state)) != state"
        assert canonical(game.encode(decoded)) == text, f"{label}: re-encoding differs"
        if step < len(playout.moves):
            seat, action = playout.moves[step]
            after = game.apply(decoded, seat, copy.deepcopy(action))
            assert after == playout.states[step + 1], (
                f"{label}: play from a decoded state differs from play from the original"
            )


def check_decode_refuses_junk(game: Game[Any], pool: list[Any], examples: int) -> None:
    """Junk, and real encodings with a part broken, decode or raise ValueError, nothing else."""
    texts = [canonical(game.encode(state)) for state in pool]

    @hypothesis_settings(examples)
    @given(data=st.data())
    def decode_junk(data: st.DataObject) -> None:
        if data.draw(st.booleans(), label="pure junk"):
            broken = data.draw(junk.values(), label="junk")
        else:
            # Draw an index, not the text: Hypothesis hashes what it samples from.
            broken = json.loads(texts[data.draw(st.integers(0, len(texts) - 1), label="encoding")])
            broken = data.draw(junk.broken(broken), label="broken encoding")
        with contextlib.suppress(ValueError):
            game.decode(broken)

    decode_junk()


# -- junk actions and junk setups ----------------------------------------------------


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

    parts = {id(state): fields_of(state) for state in pool}
    apply_junk()
    # Encoding every state for every example would be slow; a change would still be there now.
    for number, state in enumerate(pool):
        assert canonical(game.encode(state)) == before[number], f"pool state {number}: junk changed the state"


def fields_of(state: Any) -> list[Any]:
    return [getattr(state, field.name) for field in dataclasses.fields(state)]


def assert_fields_unchanged(state: Any, parts: list[Any], label: str) -> None:
    changed = [
        field.name
        for field, part in zip(dataclasses.fields(state), parts, strict=True)
        if getattr(state, field.name) is not part
    ]
    assert not changed, f"{label}: rebound the state's fields {changed}"


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


def check_refusal_is_readable(error: IllegalAction) -> None:
    assert isinstance(error.code, str), f"{error!r}: the code is not a str"
    assert SNAKE_CASE.fullmatch(error.code), f"{error!r}: the code is not snake_case"
    message = str(error)
    assert message.strip(), f"{error!r} has no message"
    assert len(message) <= MAX_MESSAGE_LENGTH, f"a {len(message)}-character message: {short(message)}"


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


# -- views, sampling and leaks -------------------------------------------------------


def check_views(playout: Playout, steps: list[int]) -> None:
    """Views for every seat and for a spectator are JSON-ready and repeatable, and
    carry no generator state."""
    game = playout.game
    for step in steps:
        state = playout.states[step]
        label = playout.describe(step)
        secrets = generator_secrets(state)
        for viewer in seats_and_spectator(game.players(state)):
            shown = game.view(state, viewer)
            assert isinstance(shown, dict), f"{label}: view({viewer}) is a {type(shown).__name__}"
            text = try_canonical(shown)
            assert text is not None and json.loads(text) == shown, (
                f"{label}: view({viewer}) is not JSON-ready: {_not_json_ready(shown)}"
            )
            assert canonical(game.view(state, viewer)) == text, f"{label}: view({viewer}) varies"
            if any(str(secret) in text or f"{secret:x}" in text for secret in secrets):
                leaked = _find_secrets(shown, secrets)  # slower, but says where
                assert not leaked, f"{label}: view({viewer}) shows the generator state at {leaked}"


def generator_secrets(state: Any) -> set[int]:
    """The state's generator state(s): any int field named like ``rng`` or ``seed``.

    From it, anyone could compute every future shuffle; no view may carry it."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                part = getattr(value, field.name)
                if (
                    ("rng" in field.name or "seed" in field.name)
                    and type(part) is int
                    and abs(part) >= 1 << 20
                ):
                    found.add(part)
                else:
                    walk(part)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    walk(state)
    return found


def _find_secrets(data: Any, secrets: set[int], path: str = "view") -> list[str]:
    if not secrets:
        return []
    if type(data) is int:
        return [path] if data in secrets else []
    if isinstance(data, str):
        return [path] if any(str(secret) in data or f"{secret:x}" in data for secret in secrets) else []
    if isinstance(data, dict):
        return [
            hit for key, value in data.items() for hit in _find_secrets(value, secrets, f"{path}[{key!r}]")
        ]
    if isinstance(data, list):
        return [
            hit
            for index, value in enumerate(data)
            for hit in _find_secrets(value, secrets, f"{path}[{index}]")
        ]
    return []


def _not_json_ready(data: Any, path: str = "view") -> str:
    """Where ``data`` stops being plain JSON (for a readable failure)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                return f"{path} has the key {key!r}"
            found = _not_json_ready(value, f"{path}[{key!r}]")
            if found:
                return found
        return ""
    if isinstance(data, list):
        for index, value in enumerate(data):
            found = _not_json_ready(value, f"{path}[{index}]")
            if found:
                return found
        return ""
    if data is None or type(data) in (bool, int, str):
        return ""
    if type(data) is float and data == data and abs(data) != float("inf"):
        return ""
    return f"{path} is {short(data, 80)}"


@dataclass(frozen=True)
class Sampled:
    step: int
    viewer: int | None
    truth: Any
    view_text: str
    state: Any


def sampled_states(playout: Playout, steps: tuple[int, ...], samples: int) -> list[Sampled]:
    return _sampled_states(playout, steps, samples)


@cache
def _sampled_states(playout: Playout, steps: tuple[int, ...], samples: int) -> list[Sampled]:
    """``samples`` states per viewer (every seat and a spectator) at each step, each
    from its own seeded ``random.Random``; the view given to sample() must come back
    unchanged, and the same seed must give the same state."""
    import random

    game = playout.game
    found = []
    for step in steps:
        truth = playout.states[step]
        for viewer in seats_and_spectator(game.players(truth)):
            shown = game.view(truth, viewer)
            text = canonical(shown)
            label = f"{playout.describe(step)}, viewer {viewer}"
            for index in range(samples):
                seed = (step * 31 + (viewer if viewer is not None else 97)) * 1009 + index
                state = game.sample(shown, viewer, random.Random(seed))
                assert canonical(shown) == text, f"{label}: sample() changed the view it was given"
                if index == 0 and viewer is None:
                    again = game.sample(json.loads(text), viewer, random.Random(seed))
                    assert again == state, f"{label}: sample() with the same seeded rng gave another state"
                found.append(Sampled(step, viewer, truth, text, state))
    return found


def check_sampled_views_match(playout: Playout, steps: list[int], samples: int) -> None:
    """view(sample(view(s, i), i, rng), i) == view(s, i), byte for byte, for every seat
    and the spectator; the sampled state is a real state at the same decision."""
    game = playout.game
    for item in sampled_states(playout, tuple(steps), samples):
        label = f"{playout.describe(item.step)}, viewer {item.viewer}"
        assert type(item.state) is game.state_type, f"{label}: sample() gave a {type(item.state).__name__}"
        assert canonical(game.view(item.state, item.viewer)) == item.view_text, (
            f"{label}: the view of a sampled state differs from the view it was sampled from:\n"
            f"{first_difference(json.loads(item.view_text), game.view(item.state, item.viewer))}"
        )
        if item.viewer is None:  # one per step: the codec is the same for every sample
            assert game.decode(json.loads(canonical(game.encode(item.state)))) == item.state, (
                f"{label}: a sampled state does not survive the codec"
            )


def check_sampled_states_agree_on_what_the_viewer_knows(
    playout: Playout, steps: list[int], samples: int
) -> None:
    """A sampled state is one the viewer cannot tell from the truth, so everything the
    viewer can see or do must agree: whose turn it is, the viewer's own legal actions
    (in order: an order that depends on hidden things leaks them), the result, and
    what a spectator sees (a seat knows everything public)."""
    game = playout.game
    public_views = {step: canonical(game.view(playout.states[step], None)) for step in steps}
    for item in sampled_states(playout, tuple(steps), samples):
        label = f"{playout.describe(item.step)}, viewer {item.viewer}"
        truth, state = item.truth, item.state
        assert game.to_act(state) == game.to_act(truth), (
            f"{label}: a sampled state waits on {game.to_act(state)}, the truth on {game.to_act(truth)}"
        )
        if item.viewer is not None and item.viewer in game.to_act(truth):
            assert canonical(game.legal_actions(state, item.viewer)) == canonical(
                game.legal_actions(truth, item.viewer)
            ), f"{label}: the viewer's legal actions differ in a sampled state (they depend on hidden facts)"
        assert canonical(game.result(state)) == canonical(game.result(truth)), f"{label}: the result differs"
        if item.viewer is not None:
            public = public_views[item.step]
            assert canonical(game.view(state, None)) == public, (
                f"{label}: a spectator would see a sampled state differently from the truth "
                "(the viewer knows everything public, so it must agree):\n"
                f"{first_difference(json.loads(public), game.view(state, None))}"
            )


def check_play_goes_on_from_sampled_states(playout: Playout, steps: list[int]) -> None:
    """Bots search by playing on from sampled states, so those must be real games too."""
    import random

    game = playout.game
    for number, item in enumerate(sampled_states(playout, tuple(steps), 1)):
        if number % 3:  # a third of them keeps this quick
            continue
        label = f"{playout.describe(item.step)}, playing on from a state sampled for viewer {item.viewer}"
        states, _ = play_on(game, item.state, random.Random(number), label)
        check_state_is_immutable_data(game, states[-1], label)
        result = game.result(states[-1])
        assert isinstance(result, dict), f"{label}: result {result!r}"
        assert len(result.get("ranks", ())) == game.players(states[-1]), f"{label}: result {result!r}"


def check_sample_re_deals(playout: Playout, samples: int) -> None:
    """At the start a spectator knows nothing hidden, so samples of its view must
    differ from the truth somewhere besides the generator state (a sampler that
    rebuilds the truth means the view leaks it); the same for at least one seat."""
    import random

    game = playout.game
    truth = playout.states[0]
    truth_data = without_generator_state(game.encode(truth), truth)

    def re_dealt(viewer: int | None) -> bool:
        shown = game.view(truth, viewer)
        for index in range(samples):
            sampled = game.sample(copy.deepcopy(shown), viewer, random.Random(7_000 + index))
            if canonical(without_generator_state(game.encode(sampled), sampled)) != canonical(truth_data):
                return True
        return False

    label = playout.describe(0)
    assert re_dealt(None), f"{label}: {samples} samples of a spectator's view all rebuilt the true state"
    seats = range(game.players(truth))
    assert any(re_dealt(seat) for seat in seats), f"{label}: every seat's samples all rebuilt the true state"


def without_generator_state(data: Any, state: Any) -> Any:
    """An encoding with the generator state(s) blanked (a sampler must invent those)."""
    secrets = generator_secrets(state)

    def blank(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                key: None if type(part) is int and part in secrets else blank(part)
                for key, part in value.items()
            }
        if isinstance(value, list):
            return [blank(part) for part in value]
        return value

    return blank(data)


def first_difference(expected: Any, actual: Any, path: str = "view") -> str:
    """Where two JSON values first differ, for a failure message a person can act on."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                return f"{path}[{key!r}] is missing"
            if key not in expected:
                return f"{path}[{key!r}] is extra: {short(actual[key], 120)}"
            if canonical(expected[key]) != canonical(actual[key]):
                return first_difference(expected[key], actual[key], f"{path}[{key!r}]")
        return f"{path}: no difference"
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
            if canonical(left) != canonical(right):
                return first_difference(left, right, f"{path}[{index}]")
        return f"{path}: {len(expected)} items expected, {len(actual)} found"
    return f"{path}: expected {short(expected, 120)}, found {short(actual, 120)}"


# -- the pool of states the Hypothesis checks draw from ------------------------------


def state_pool(game: Game[Any], per_playout: int) -> list[Any]:
    """States from the default playouts at every player count: the start, the end and between."""
    pool: list[Any] = []
    for config in configs(game):
        if config.options:
            continue
        for playout in checked_playouts(config):
            pool.extend(playout.states[step] for step in checkpoints(playout, per_playout))
    return pool
