"""Shared pieces of the bot tests: canonical action keys, the decision points of a game
played by basic and random seats, the checks every bot module must pass at such points,
and a Go Fox! position whose log makes one ask sure. (Random games themselves are
played by ``tests.engine.playouts``.)"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from games.engine import Game
from games.engine.go_fox import GoFox, GoFoxState
from games.engine.go_fox.state import hand_order
from games.engine.word_cards import WORDS
from tests.engine.playouts import Chooser, play_on, random_game

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)

# A bot's ``basic``: its choice from a seat's view.
BasicPolicy = Callable[[Game[Any], dict[str, Any], int, random.Random], dict[str, Any]]


class BotModule(Protocol[S_contra]):
    """The two policies every bot module (``games/bots/<game>.py``) has."""

    def basic(
        self, game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random
    ) -> dict[str, Any]: ...

    def rollout(self, game: Game[Any], state: S_contra, seat: int, rng: random.Random) -> dict[str, Any]: ...


class EvaluatingBotModule(BotModule[S_contra], Protocol[S_contra]):
    """A bot module that also scores unfinished states for search."""

    def evaluate(self, game: Game[Any], state: S_contra, seat: int) -> float: ...


def key(action: dict[str, Any]) -> str:
    """An action as canonical text, for comparing sets of actions."""
    return json.dumps(action, sort_keys=True)


def basic_in(game: Game[S], basic: BasicPolicy, basic_seats: Container[int]) -> Chooser[S]:
    """A playout's choice: ``basic``'s (from the seat's view) in ``basic_seats``, a random
    legal action elsewhere."""

    def choose(state: S, seat: int, rng: random.Random) -> dict[str, Any]:
        if seat in basic_seats:
            return basic(game, game.view(state, seat), seat, rng)
        return rng.choice(game.legal_actions(state, seat))

    return choose


def finish_basic_against_random(
    game: Game[S],
    state: S,
    basic_seat: int,
    basic: BasicPolicy,
    rng: random.Random,
) -> S:
    """Play ``state`` to the end: ``basic`` in ``basic_seat``, random legal actions elsewhere
    (the first waiting seat acts each time)."""
    return play_on(game, state, rng, first_seat=True, choose=basic_in(game, basic, {basic_seat})).final


def assert_legal_through_a_random_game(
    game: Game[S],
    bot: BotModule[S],
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> None:
    """At every decision of one seeded random game, ``basic`` and ``rollout`` (each with a
    fresh ``Random(seed)``) choose a legal action, compared as canonical keys; the module's
    ``evaluate``, where it has one (search stops playouts with it), stays in [0, 1]."""
    evaluate: Callable[[Game[Any], S, int], float] | None = getattr(bot, "evaluate", None)
    for state, seat in random_game(game, players, seed, options, first_seat=True).decisions:
        legal = {key(action) for action in game.legal_actions(state, seat)}
        view = game.view(state, seat)
        assert key(bot.basic(game, view, seat, random.Random(seed))) in legal
        assert key(bot.rollout(game, state, seat, random.Random(seed))) in legal
        if evaluate is not None:
            assert 0.0 <= evaluate(game, state, seat) <= 1.0


@dataclass(frozen=True)
class PlayedGame(Generic[S]):
    """One game: its decision points as (state, seat to act), and the state it stopped in."""

    points: list[tuple[S, int]]
    end: S


def played_game(
    game: Game[S],
    basic: BasicPolicy,
    players: int,
    seed: int,
    basic_seats: Container[int],
    options: dict[str, Any] | None = None,
    *,
    first_waiting_seat: bool = False,
    limit: int | None = None,
) -> PlayedGame[S]:
    """One seeded game, ``basic`` in ``basic_seats`` and random legal actions elsewhere.

    One ``Random(seed)`` draws everything: every action, and the seat to act among those
    waiting (with ``first_waiting_seat`` it is always the first, drawn from nothing).
    ``limit`` stops the game after that many decisions, for games whose steps are slow."""
    choose = basic_in(game, basic, basic_seats)
    played = random_game(
        game, players, seed, options, first_seat=first_waiting_seat, choose=choose, stop_after=limit
    )
    return PlayedGame(played.decisions, played.final)


def assert_bot_is_legal_at(
    game: Game[S], bot: EvaluatingBotModule[S], points: Sequence[tuple[S, int]], rng: random.Random
) -> None:
    """At each point ``basic`` and ``rollout`` choose legal actions, ``rollout`` also on a
    state sampled from the seat's view (what search plays out), and ``evaluate`` is in [0, 1]."""
    for state, seat in points:
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        assert bot.basic(game, view, seat, rng) in legal
        assert bot.rollout(game, state, seat, rng) in legal
        sampled = game.sample(view, seat, rng)
        assert bot.rollout(game, sampled, seat, rng) in game.legal_actions(sampled, seat)
        assert 0.0 <= bot.evaluate(game, state, seat) <= 1.0


def assert_basic_decides_from_the_view_only(
    game: Game[S],
    basic: BasicPolicy,
    points: Sequence[tuple[S, int]],
    rng: random.Random,
    basic_seed: int | None,
) -> None:
    """At each point, a state re-dealt from the seat's view (with ``rng``) has the same
    view, and ``basic`` makes the same choice in both. Both choices use
    ``Random(basic_seed)``; with ``basic_seed=None``, a seed drawn from ``rng`` at each point."""
    for state, seat in points:
        view = game.view(state, seat)
        other = game.sample(view, seat, rng)
        assert game.view(other, seat) == view
        seed = rng.randrange(1 << 30) if basic_seed is None else basic_seed
        assert basic(game, view, seat, random.Random(seed)) == basic(
            game, game.view(other, seat), seat, random.Random(seed)
        )


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
