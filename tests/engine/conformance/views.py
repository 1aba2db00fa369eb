"""Views, sampling and leaks: what each seat and a spectator may know."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.engine.rng import KeyedRngState
from tests.engine.conformance.common import first_difference, short, try_canonical
from tests.engine.conformance.facts import check_state_is_immutable_data
from tests.engine.playouts import Playout, canonical, play_on, seats_and_spectator


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
                f"{label}: view({viewer}) is not JSON-ready: {not_json_ready(shown)}"
            )
            assert canonical(game.view(state, viewer)) == text, f"{label}: view({viewer}) varies"
            if any(secret in text for secret in secrets):
                leaked = find_secrets(shown, secrets)  # slower, but says where
                assert not leaked, f"{label}: view({viewer}) shows the generator state at {leaked}"


def generator_secrets(state: Any) -> set[str]:
    """The text of the state's generator state(s): any field named like ``rng`` or
    ``seed`` holding a fast generator's int (as decimal and as hex) or a keyed
    generator's key.

    From it, anyone could compute every future shuffle; no view may carry it."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                part = getattr(value, field.name)
                if is_generator_field(field.name, part):
                    found.update(_secret_texts(part))
                else:
                    walk(part)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    walk(state)
    return found


def _secret_texts(generator: int | KeyedRngState) -> set[str]:
    if isinstance(generator, KeyedRngState):
        return {generator.key}
    # Small ints turn up everywhere in a view by chance; only a wide one is telling.
    return {str(generator), f"{generator:x}"} if abs(generator) >= 1 << 20 else set()


def is_generator_field(name: str, value: Any) -> bool:
    return ("rng" in name or "seed" in name) and (type(value) is int or isinstance(value, KeyedRngState))


def _other_generator(generator: int | KeyedRngState, variant: int) -> int | KeyedRngState:
    if isinstance(generator, KeyedRngState):
        return dataclasses.replace(
            generator, key=hashlib.sha256(f"{generator.key}{variant}".encode()).hexdigest()
        )
    return generator ^ (0x5DEECE66D5A5A5A5 + variant)


def with_other_generator_state(state: Any, variant: int = 0) -> Any | None:
    """``state`` with every top-level generator field changed (``variant`` picks one
    of several changes), or None if it has none."""
    changes = {
        field.name: _other_generator(getattr(state, field.name), variant)
        for field in dataclasses.fields(state)
        if is_generator_field(field.name, getattr(state, field.name))
    }
    return dataclasses.replace(state, **changes) if changes else None


def check_views_ignore_the_generator_state(playout: Playout, steps: list[int]) -> None:
    """The generator state decides what happens next and nobody may know it, so
    changing it must change no view, no turn and no legal action. A view that shows
    anything drawn from it ahead of time (the next card, a peek computed on the fly)
    fails here even when a sampler is written to agree with the view."""
    game = playout.game
    for number, step in enumerate(steps):
        state = playout.states[step]
        # A different change at each step, so that a view showing one drawn bit
        # cannot agree with every change by chance.
        other = with_other_generator_state(state, number)
        if other is None:
            return
        label = playout.describe(step)
        for viewer in seats_and_spectator(game.players(state)):
            shown = game.view(state, viewer)
            assert canonical(game.view(other, viewer)) == canonical(shown), (
                f"{label}: view({viewer}) changes with the generator state, so it shows "
                f"something not yet drawn:\n{first_difference(shown, game.view(other, viewer))}"
            )
        assert game.to_act(other) == game.to_act(state), f"{label}: to_act() depends on the generator state"
        for seat in game.to_act(state):
            assert canonical(game.legal_actions(other, seat)) == canonical(game.legal_actions(state, seat)), (
                f"{label}: seat {seat}'s legal actions depend on the generator state"
            )


def find_secrets(data: Any, secrets: set[str], path: str = "view") -> list[str]:
    if not secrets:
        return []
    if type(data) is int:
        return [path] if str(data) in secrets else []
    if isinstance(data, str):
        return [path] if any(secret in data for secret in secrets) else []
    if isinstance(data, dict):
        return [
            hit for key, value in data.items() for hit in find_secrets(value, secrets, f"{path}[{key!r}]")
        ]
    if isinstance(data, list):
        return [
            hit
            for index, value in enumerate(data)
            for hit in find_secrets(value, secrets, f"{path}[{index}]")
        ]
    return []


def not_json_ready(data: Any, path: str = "view") -> str:
    """Where ``data`` stops being plain JSON (for a readable failure)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                return f"{path} has the key {key!r}"
            found = not_json_ready(value, f"{path}[{key!r}]")
            if found:
                return found
        return ""
    if isinstance(data, list):
        for index, value in enumerate(data):
            found = not_json_ready(value, f"{path}[{index}]")
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


# Moves played on from a sampled state; the one at the last step before the end goes to the end.
PLAY_ON_MOVES = 10


def check_play_goes_on_from_sampled_states(playout: Playout, steps: list[int]) -> None:
    """Bots search by playing on from sampled states, so those must be real games too:
    random legal play goes on from them, and ends with a result. One sampled state per
    step, for a viewer that changes from step to step."""
    game = playout.game
    last_before_end = max([step for step in steps if step < len(playout.moves)], default=None)
    by_step: dict[int, list[Sampled]] = {}
    for item in sampled_states(playout, tuple(steps), 1):
        by_step.setdefault(item.step, []).append(item)
    for number, (step, items) in enumerate(sorted(by_step.items())):
        item = items[-1] if step == last_before_end else items[number % len(items)]  # [-1]: the spectator
        label = f"{playout.describe(step)}, playing on from a state sampled for viewer {item.viewer}"
        stop_after = None if step == last_before_end else PLAY_ON_MOVES
        states = play_on(game, item.state, random.Random(number), stop_after=stop_after, label=label).states
        if game.to_act(states[-1]):
            continue
        check_state_is_immutable_data(game, states[-1], label)
        result = game.result(states[-1])
        assert isinstance(result, dict), f"{label}: result {result!r}"
        assert len(result.get("ranks", ())) == game.players(states[-1]), f"{label}: result {result!r}"


def check_sample_re_deals(playout: Playout, samples: int) -> None:
    """At the start a spectator knows nothing hidden, so samples of its view must
    differ from the truth somewhere besides the generator state (a sampler that
    rebuilds the truth means the view leaks it); the same for at least one seat."""
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

    def is_secret(encoded: Any) -> bool:
        if type(encoded) is int:
            return str(encoded) in secrets
        return isinstance(encoded, dict) and encoded.get("key") in secrets

    def blank(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: None if is_secret(part) else blank(part) for key, part in value.items()}
        if isinstance(value, list):
            return [blank(part) for part in value]
        return value

    return blank(data)
