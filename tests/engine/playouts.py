"""Random playouts, replays and traces: the engine conformance suite's, and the one
random legal playout every engine and bot test plays (``play_on`` from a state,
``random_game`` from ``new``).

Plain functions, no pytest: the same code records playouts in the test process
and replays them in a fresh one (``python -m tests.engine.playouts`` reads
recorded playouts as JSON on stdin and prints one digest per playout), so that
the two processes can be compared byte for byte.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar

from games.engine import Game, get

# Every registered game ends far sooner; a playout this long is a game that loops.
MAX_ACTIONS = 20_000
# More player counts than this are thinned out (min and max always kept).
MAX_PLAYER_COUNTS = 5

Move = tuple[int, dict[str, Any]]
S = TypeVar("S")


def canonical(data: Any) -> str:
    """The byte-exact JSON text two states, views or results are compared by."""
    return json.dumps(data, sort_keys=True, allow_nan=False)


@dataclass(frozen=True)
class Config:
    """One way to start a game: a player count and options (the defaults changed in one place)."""

    game: Game[Any]
    players: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def id(self) -> str:
        changed = "".join(f"-{name}={value}" for name, value in self.options)
        return f"{self.game.slug}-{self.players}p{changed}"

    def new(self, seed: int) -> Any:
        return self.game.new(self.players, seed, self.options_dict)


def player_counts(game: Game[Any]) -> list[int]:
    counts = list(range(game.min_players, game.max_players + 1))
    if len(counts) <= MAX_PLAYER_COUNTS:
        return counts
    last = len(counts) - 1
    picks = {round(i * last / (MAX_PLAYER_COUNTS - 1)) for i in range(MAX_PLAYER_COUNTS)}
    return [counts[i] for i in sorted(picks)]


def option_values(game: Game[Any]) -> list[tuple[str, Any]]:
    """Every option value other than its default worth a playout: each choice,
    the ends of an int range, the other bool."""
    values: list[tuple[str, Any]] = []
    for option in game.options:
        if option.kind == "choice":
            candidates: list[Any] = list(option.choices)
        elif option.kind == "int":
            candidates = [bound for bound in (option.minimum, option.maximum) if bound is not None]
        else:
            candidates = [False, True]
        values.extend((option.name, value) for value in dict.fromkeys(candidates) if value != option.default)
    return values


@cache  # setting up a game to try an option is not free (Booby-Trap settles its tray)
def configs(game: Game[Any]) -> list[Config]:
    """Defaults at every player count, then each other option value once.

    An option value is tried first at a player count that rotates with it (so the
    variants spread over the counts), then at the others: a game may refuse a
    combination (a solitaire variant at four players), but not every one.
    """
    counts = player_counts(game)
    found = [Config(game, players) for players in counts]
    for index, (name, value) in enumerate(option_values(game)):
        rotated = counts[index % len(counts) :] + counts[: index % len(counts)]
        found.append(_first_accepted(game, name, value, rotated))
    return found


def _first_accepted(game: Game[Any], name: str, value: Any, counts: list[int]) -> Config:
    for players in counts:
        try:
            game.new(players, 0, {name: value})
        except Exception:  # collection must survive a broken game
            continue
        return Config(game, players, ((name, value),))
    # Kept, so that the suite fails on it with the game's own error.
    return Config(game, counts[0], ((name, value),))


@dataclass(frozen=True, eq=False)  # compared and cached by identity: moves hold dicts
class Playout:
    config: Config
    seed: int
    states: tuple[Any, ...]  # states[k + 1] = apply(states[k], *moves[k])
    moves: tuple[Move, ...]

    @property
    def game(self) -> Game[Any]:
        return self.config.game

    @property
    def final(self) -> Any:
        return self.states[-1]

    def describe(self, step: int | None = None) -> str:
        where = f" at step {step}" if step is not None else ""
        return f"{self.config.id} seed {self.seed}{where}"


def play_randomly(config: Config, seed: int, max_actions: int = MAX_ACTIONS) -> Playout:
    """A uniformly random legal playout from ``new``; fails loudly if it breaks a basic promise."""
    played = random_game(config.game, config.players, seed, config.options_dict, max_actions=max_actions)
    return Playout(config, seed, played.states, played.moves)


# A policy for the seat to act: its action in a state, drawn from the playout's generator.
Chooser = Callable[[S, int, random.Random], dict[str, Any]]


@dataclass(frozen=True, eq=False)
class RandomPlay(Generic[S]):
    """The states a playout passed and the moves made: states[k + 1] = apply(states[k], *moves[k])."""

    states: tuple[S, ...]
    moves: tuple[Move, ...]

    @property
    def final(self) -> S:
        return self.states[-1]

    @property
    def decisions(self) -> list[tuple[S, int]]:
        """(state, seat that acted in it) for every state but the last."""
        return [(state, seat) for state, (seat, _) in zip(self.states[:-1], self.moves, strict=True)]


def random_game(
    game: Game[S],
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    first_seat: bool = False,
    choose: Chooser[S] | None = None,
    stop_after: int | None = None,
    max_actions: int = MAX_ACTIONS,
) -> RandomPlay[S]:
    """``play_on`` from ``game.new(players, seed, options)`` with ``random.Random(seed)``."""
    return play_on(
        game,
        game.new(players, seed, options),
        random.Random(seed),
        first_seat=first_seat,
        choose=choose,
        stop_after=stop_after,
        max_actions=max_actions,
        label=f"{Config(game, players, tuple((options or {}).items())).id} seed {seed}",
    )


def play_on(
    game: Game[S],
    state: S,
    rng: random.Random,
    *,
    first_seat: bool = False,
    choose: Chooser[S] | None = None,
    stop_after: int | None = None,
    max_actions: int = MAX_ACTIONS,
    label: str = "random play",
) -> RandomPlay[S]:
    """Play from ``state`` to the end (or ``stop_after`` moves, if given), every draw from ``rng``.

    The seat to act is ``rng.choice`` of those waiting (with ``first_seat``, the first,
    drawn from nothing); its action is ``rng.choice`` of its legal actions, or ``choose``'s.
    Fails loudly on a broken promise: a bad ``to_act``, a result while seats still owe a
    decision, a waiting seat with no legal action, or no end after ``max_actions`` moves."""
    states = [state]
    moves: list[Move] = []
    while True:
        waiting = game.to_act(state)
        check_to_act(waiting, game.players(state), label, len(moves))
        if not waiting or len(moves) == stop_after:
            return RandomPlay(tuple(states), tuple(moves))
        assert game.result(state) is None, (
            f"{label}: result() is not None at step {len(moves)} while {waiting} owe a decision"
        )
        if len(moves) >= max_actions:
            recent = "\n  ".join(repr(move) for move in moves[-5:])
            raise AssertionError(
                f"{label}: no end after {max_actions} random legal actions; "
                f"to_act is {waiting}; the last actions were:\n  {recent}"
            )
        seat = waiting[0] if first_seat else rng.choice(waiting)
        if choose is None:
            legal = game.legal_actions(state, seat)
            assert legal, f"{label}: seat {seat} owes a decision at step {len(moves)} but has no legal action"
            action = rng.choice(legal)
        else:
            action = choose(state, seat, rng)
        state = game.apply(state, seat, action)
        states.append(state)
        moves.append((seat, action))


def spread(states: Sequence[S], count: int) -> list[S]:
    """``count`` states spread evenly over ``states``, the first and the last included."""
    last = len(states) - 1
    return [states[round(index * last / (count - 1))] for index in range(count)]


def check_to_act(waiting: object, players: int, label: str, step: int) -> None:
    assert isinstance(waiting, list), f"{label}: to_act() returned {type(waiting).__name__}, not a list"
    assert all(type(seat) is int and 0 <= seat < players for seat in waiting), (
        f"{label}: to_act() at step {step} holds something that is not a seat: {waiting!r}"
    )
    assert len(set(waiting)) == len(waiting), f"{label}: to_act() at step {step} repeats a seat: {waiting}"


@cache
def recorded(config: Config, seed: int) -> Playout:
    """Playouts are shared by the tests that check them (each check replays its own)."""
    return play_randomly(config, seed)


def checkpoints(playout: Playout, count: int) -> list[int]:
    """About ``count`` steps spread over the playout, the first and the last included."""
    last = len(playout.states) - 1
    if last < count:
        return list(range(last + 1))
    return sorted({round(i * last / (count - 1)) for i in range(count)})


def seats_and_spectator(players: int) -> list[int | None]:
    return [*range(players), None]


# -- traces: what two runs of the same playout must agree on ------------------------


def trace(
    game: Game[Any], players: int, options: dict[str, Any], seed: int, moves: list[Move], points: list[int]
) -> Iterator[str]:
    """Everything observable along a replay: whose turn it is and each waiting seat's
    legal actions at every step; at ``points``, the state's encoding, every seat's
    view, the reveal and the result. (Encoding every state would cost the square of the length:
    the log grows with the game, and any difference carries into later encodings.)"""
    state = game.new(players, seed, options)
    wanted = set(points)
    for step in range(len(moves) + 1):
        waiting = game.to_act(state)
        yield canonical(waiting)
        for seat in waiting:
            yield canonical(game.legal_actions(state, seat))
        if step in wanted:
            yield canonical(game.encode(state))
            for viewer in seats_and_spectator(players):
                yield canonical(game.view(state, viewer))
            yield canonical(game.reveal(state))
            yield canonical(game.result(state))
        if step < len(moves):
            seat, action = moves[step]
            state = game.apply(state, seat, action)


def digest(
    game: Game[Any], players: int, options: dict[str, Any], seed: int, moves: list[Move], points: list[int]
) -> str:
    hasher = hashlib.sha256()
    for line in trace(game, players, options, seed, moves, points):
        hasher.update(line.encode())
        hasher.update(b"\n")
    return hasher.hexdigest()


def replay_request(game_spec: str, playout: Playout, points: list[int]) -> dict[str, Any]:
    return {
        "game": game_spec,
        "players": playout.config.players,
        "options": playout.config.options_dict,
        "seed": playout.seed,
        "moves": [[seat, action] for seat, action in playout.moves],
        "points": points,
    }


def load_game(spec: str) -> Game[Any]:
    """A registered slug, or ``module:Class`` for a game that is not registered."""
    if ":" in spec:
        module, name = spec.split(":")
        game: Game[Any] = getattr(importlib.import_module(module), name)()
        return game
    return get(spec)


def extra_games() -> list[Game[Any]]:
    """Unregistered games to check too, from ENGINE_CONFORMANCE_EXTRA (``module:Class,...``)."""
    specs = os.environ.get("ENGINE_CONFORMANCE_EXTRA", "")
    return [load_game(spec.strip()) for spec in specs.split(",") if spec.strip()]


def main() -> None:
    digests = []
    for request in json.load(sys.stdin):
        moves = [(seat, action) for seat, action in request["moves"]]
        game = load_game(request["game"])
        digests.append(
            digest(game, request["players"], request["options"], request["seed"], moves, request["points"])
        )
    json.dump(digests, sys.stdout)


if __name__ == "__main__":
    main()
