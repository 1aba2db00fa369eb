"""What every game implements (see ../shared/design/engine-contract.md).

``Game`` does the checks that are the same in every game (player count, options,
the seat, the action's shape, whose turn it is) and hands a parsed action to the
game's own ``play``. A game subclass declares its facts as class attributes and
implements ``setup``, ``to_act``, ``legal_actions``, ``play``, ``view``, ``reveal``,
``result`` and ``sample``. States are frozen dataclasses, encoded by ``codec``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from games.engine import codec
from games.engine.actions import ActionSchemas, parse_action
from games.engine.errors import IllegalAction
from games.engine.options import Option, OptionValue, parse_options
from games.engine.rng import GENERATORS, RngState, start

S = TypeVar("S")


class Game(ABC, Generic[S]):
    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    # Per action type, its fields: checked before ``play`` sees the action.
    action_schemas: ClassVar[ActionSchemas]
    state_type: ClassVar[type]
    # The facts later features read (ratings, tournaments, the lobby):
    # - cooperative: everyone wins or loses together; the result adds "won";
    # - solitaire-capable: one seat may play alone (min_players == 1); such a
    #   match also adds "won" to its result;
    # - rated: a finished match of two or more seats moves its players' ratings.
    #   A cooperative game is never rated: nobody places above anybody.
    is_cooperative: ClassVar[bool] = False
    is_rated: ClassVar[bool] = True

    @property
    def is_solitaire_capable(self) -> bool:
        return self.min_players == 1

    @property
    def module_name(self) -> str:
        """The game's module name by the one convention the site follows: its engine
        package ``games/engine/<module_name>/``, its presenter
        ``games/boards/<module_name>.py`` and its bots ``games/bots/<module_name>.py``
        ("boom-box" -> "boom_box"). Board templates use the slug itself."""
        return self.slug.replace("-", "_")

    # -- the contract -------------------------------------------------------

    def new(
        self,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        *,
        generator: str = "keyed",
    ) -> S:
        """The first state of a game. ``generator`` is "keyed" for every new match;
        "splitmix64" rebuilds a match created before the keyed generator (see rng.py)."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                "bad_player_count",
                f"{self.name} is played by {self.min_players} to {self.max_players} players.",
            )
        if type(seed) is not int:
            raise IllegalAction("bad_seed", "The seed must be a whole number.")
        if generator not in GENERATORS:
            raise IllegalAction("bad_generator", f"There is no generator named {generator!r}.")
        return self.setup(players, start(seed, generator), parse_options(self.options, options))

    def apply(self, state: S, seat: int, action: dict[str, Any]) -> S:
        if type(seat) is not int or not 0 <= seat < self.players(state):
            raise IllegalAction("no_such_seat", f"There is no seat {seat!r} in this game.")
        waiting = self.to_act(state)
        if not waiting:
            raise IllegalAction("game_over", "The game is over.")
        if seat not in waiting:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        kind, fields = parse_action(action, self.action_schemas)
        return self.play(state, seat, kind, fields)

    def encode(self, state: S) -> dict[str, Any]:
        data = codec.encode(state)
        assert isinstance(data, dict)
        return data

    def decode(self, data: dict[str, Any]) -> S:
        state: S = codec.decode(self.state_type, data)
        return state

    @abstractmethod
    def to_act(self, state: S) -> list[int]: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[dict[str, Any]]: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def result(self, state: S) -> dict[str, Any] | None: ...

    @abstractmethod
    def reveal(self, state: S) -> dict[str, Any]:
        """Everything revealed: a full-information view of ``state``, JSON-ready.

        For finished matches only (the site offers it on a match that is over, at
        any step of its replay; a running match must never be shown it): it holds
        every hand, every face-down card, decks in their order, whatever no seat
        knows, and so whatever the match would have drawn next.

        The shape is ``view(state, None)``'s, so that a board drawn from views can
        draw it, with every hidden value filled in, plus:

        - ``"revealed": True``;
        - ``"as_seen_by"``: per seat (``str(seat)``, JSON keys being strings), the
          top-level fields whose value depends on who looks, as that seat's view
          gives them (``seat``, ``role``, ``hand``, ...); log entries carry theirs
          too (``log.log_reveal``);
        - where useful, what no view has a place for (a deck's order, Booby-Trap's
          hidden make-up and forces): documented per game.

        Every seat's view is contained in it: ``view(state, s)`` agrees with the
        reveal read as seat ``s`` (``as_seen_by`` applied) wherever the view has a
        value (the conformance suite checks it, with no null left where a hidden
        value exists). It carries no generator state."""

    @abstractmethod
    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> S:
        """A full state consistent with ``view`` (``seat=None``: a spectator's view).

        Its generator state is a fast one (``rng.getrandbits(64)``, a ``FastRng``): a
        bot deals it for itself, nothing in it is secret, and search speed counts."""

    # -- what each game implements -------------------------------------------

    @abstractmethod
    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> S:
        """The first state, from a seeded generator state and parsed options."""

    @abstractmethod
    def play(self, state: S, seat: int, kind: str, fields: dict[str, Any]) -> S:
        """Apply a well-formed action of ``seat``, who owes a decision; raise if illegal."""

    @abstractmethod
    def players(self, state: S) -> int: ...

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"
