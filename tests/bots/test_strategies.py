"""games/bots/strategies.py: every game has its own bot module, found by the game's module name."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from games.bots import strategies
from games.engine import Game, all_games, get
from tests.engine.toy_game import ToyHighCard


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_every_registered_game_has_its_own_module(game: Game[Any]) -> None:
    path = strategies.module_path(game)
    assert path == "games.bots." + game.slug.replace("-", "_")
    assert importlib.util.find_spec(path) is not None, f"{game.slug} has no bot module {path}"
    module = strategies.for_game(game)
    assert module.__name__ == path
    assert callable(module.basic)
    assert callable(module.rollout)


def test_the_module_names_do_not_collide() -> None:
    paths = [strategies.module_path(game) for game in all_games()]
    assert len(set(paths)) == len(paths)


def test_a_missing_module_is_a_clear_error() -> None:
    # The toy game of the engine's tests has no bot module.
    with pytest.raises(strategies.NoStrategy, match=r"'toy-high-card'.*games\.bots\.toy_high_card"):
        strategies.for_game(ToyHighCard())


def test_a_module_that_fails_to_import_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the game's module itself being absent means "no strategy"; any other missing
    # import (here its package; in real life, something the module imports) is a bug.
    monkeypatch.setattr(strategies, "PACKAGE", "games.no_such_package")
    with pytest.raises(ModuleNotFoundError):
        strategies.for_game(get("go-fox"))
