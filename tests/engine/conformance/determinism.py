"""Playouts end; replays are byte-identical, in this process and in fresh ones; nothing mutates its input."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from typing import Any

from games.engine import Game
from tests.engine.conformance.common import (
    PROJECT_ROOT,
    assert_fields_unchanged,
    encoding,
    ending_playouts,
    fields_of,
    game_spec,
)
from tests.engine.conformance.facts import check_state_is_immutable_data
from tests.engine.playouts import (
    Config,
    Playout,
    canonical,
    checkpoints,
    digest,
    replay_request,
    seats_and_spectator,
)


def check_playouts_end(config: Config) -> None:
    """Random legal playouts end (``play_on`` fails on a loop or a seat with no legal
    action) in a state made of immutable data."""
    playouts = ending_playouts(config)
    main = playouts[0]
    check_state_is_immutable_data(main.game, main.final, main.describe(len(main.moves)))


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
    each playout to the same digest of turns, legal actions, encodings, views, reveals
    and results."""
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
    # Two fixed hash seeds (so a failure repeats on every run) besides this process's own:
    # str hashes, and so set order, differ between them.
    runs = {
        hash_seed: subprocess.Popen(
            [sys.executable, "-m", "tests.engine.playouts"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=PROJECT_ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        for hash_seed in ("1", "2")
    }
    for run in runs.values():  # both read all their input before they write anything
        assert run.stdin is not None
        run.stdin.write(json.dumps(requests))
        run.stdin.close()
    finished = {}
    for hash_seed, run in runs.items():
        assert run.stdout is not None
        assert run.stderr is not None
        with run.stdout, run.stderr:
            finished[hash_seed] = (run.stdout.read(), run.stderr.read())
        run.wait(timeout=300)
    for hash_seed, (output, errors) in finished.items():
        assert runs[hash_seed].returncode == 0, f"the replay process failed:\n{errors[-3000:]}"
        for playout, mine, theirs in zip(playouts, here, json.loads(output), strict=True):
            assert mine == theirs, (
                f"{playout.describe()}: a fresh process (PYTHONHASHSEED={hash_seed}) replayed "
                "the same actions to different turns, legal actions, states, views, reveals or results"
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
            scribble(shown)
            assert canonical(game.view(state, viewer)) == before, (
                f"{label}: changing the dict view({viewer}) returned changed the next view"
            )
        result = game.result(state)
        if result is not None:
            before = canonical(result)
            scribble(result)
            assert canonical(game.result(state)) == before, f"{label}: result() shares its dict"
        assert canonical(game.encode(state)) == encoding(playout, step), (
            f"{label}: a reader changed the state"
        )


def scribble(data: Any) -> None:
    """Change every dict and list inside ``data`` in place."""
    if isinstance(data, dict):
        for value in data.values():
            scribble(value)
        data["scribbled"] = True
    elif isinstance(data, list):
        for value in data:
            scribble(value)
        data.append("scribbled")
