"""Shared by the conformance checks: the budget, the playouts they look at, and small helpers."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

from games.engine import Game, IllegalAction, all_games
from tests.engine.playouts import Config, Playout, canonical, checkpoints, configs, recorded

PROJECT_ROOT = Path(__file__).resolve().parents[3]
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


def game_spec(game: Game[Any]) -> str:
    """How a fresh process finds the game again: its slug, or ``module:Class`` if unregistered."""
    if any(registered is game for registered in all_games()):
        return game.slug
    return f"{type(game).__module__}:{type(game).__qualname__}"


def main_playout(config: Config) -> Playout:
    return recorded(config, 0)


# Short games get more playouts checked: random play ends It's a Bomb! in a few moves.
MIN_CHECKED_ACTIONS = 30
MAX_CHECKED_PLAYOUTS = 8


def checked_playouts(config: Config) -> list[Playout]:
    """The playouts the per-step checks look at: seed 0, and more while they are short."""
    return _playouts_until(config, 1, MIN_CHECKED_ACTIONS, MAX_CHECKED_PLAYOUTS)


def ending_playouts(config: Config) -> list[Playout]:
    """The playouts that must end with a valid result: a few, and more while they are short."""
    count = BUDGET.playouts_per_config
    return _playouts_until(config, count, 4 * MIN_CHECKED_ACTIONS, 10 * count)


def _playouts_until(config: Config, at_least: int, actions: int, at_most: int) -> list[Playout]:
    """Seeds 0, 1, ... until ``at_least`` playouts and ``actions`` actions (or ``at_most`` playouts)."""
    playouts = [recorded(config, seed) for seed in range(at_least)]
    while sum(len(playout.moves) for playout in playouts) < actions and len(playouts) < at_most:
        playouts.append(recorded(config, len(playouts)))
    return playouts


def state_pool(game: Game[Any], per_playout: int) -> list[Any]:
    """States from the default playouts at every player count: the start, the end and between."""
    pool: list[Any] = []
    for config in configs(game):
        if config.options:
            continue
        for playout in checked_playouts(config):
            pool.extend(playout.states[step] for step in checkpoints(playout, per_playout))
    return pool


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


def refusal(call: Callable[..., object], *arguments: Any) -> IllegalAction | None:
    """The IllegalAction ``call(*arguments)`` raises, or None when it goes through
    (any other exception propagates: that is a failure in itself)."""
    try:
        call(*arguments)
    except IllegalAction as error:
        return error
    return None


def check_refusal_is_readable(error: IllegalAction) -> None:
    assert isinstance(error.code, str), f"{error!r}: the code is not a str"
    assert SNAKE_CASE.fullmatch(error.code), f"{error!r}: the code is not snake_case"
    message = str(error)
    assert message.strip(), f"{error!r} has no message"
    assert len(message) <= MAX_MESSAGE_LENGTH, f"a {len(message)}-character message: {short(message)}"


def assert_no_legal_actions(game: Game[Any], state: Any, seat: int, codes: set[str], label: str) -> None:
    listed: list[Any] = []
    error = refusal(lambda: listed.extend(game.legal_actions(state, seat)))
    assert error is None or error.code in codes, (
        f"{label}: legal_actions({seat}) raised {error!r}, not {codes}"
    )
    assert listed == [], f"{label}: seat {seat} owes no decision but has legal actions {short(listed)}"


def assert_refused(game: Game[Any], state: Any, seat: Any, action: Any, codes: set[str], label: str) -> None:
    error = refusal(game.apply, state, seat, action)
    assert error is not None, f"{label}: seat {seat!r} was allowed to play {short(action)} out of turn"
    assert error.code in codes, f"{label}: seat {seat!r} playing {short(action)} got {error!r}, not {codes}"


def fields_of(state: Any) -> list[Any]:
    return [getattr(state, field.name) for field in dataclasses.fields(state)]


def assert_fields_unchanged(state: Any, parts: list[Any], label: str) -> None:
    changed = [
        field.name
        for field, part in zip(dataclasses.fields(state), parts, strict=True)
        if getattr(state, field.name) is not part
    ]
    assert not changed, f"{label}: rebound the state's fields {changed}"


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
