"""games/bots/strategies.py: every game has its own bot module, found by slug."""

from __future__ import annotations

import importlib.util
import re

import pytest

from games.bots import strategies
from games.engine import all_games, get


def test_every_registered_game_has_its_own_module() -> None:
    slugs = {game.slug for game in all_games()}
    assert set(strategies.MODULES) == slugs
    # One module per game: none shared, each named after its game.
    assert len(set(strategies.MODULES.values())) == len(slugs)
    for slug, path in strategies.MODULES.items():
        assert path == "games.bots." + slug.replace("-", "_")


@pytest.mark.parametrize("slug", sorted(strategies.MODULES))
def test_for_game_gives_the_module_or_says_it_is_missing(slug: str) -> None:
    game = get(slug)
    path = strategies.MODULES[slug]
    if importlib.util.find_spec(path) is None:
        with pytest.raises(strategies.NoStrategy, match=re.escape(path)):
            strategies.for_game(game)
        return
    module = strategies.for_game(game)
    assert module.__name__ == path
    assert callable(module.basic)
    assert callable(module.rollout)


def test_a_missing_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(strategies.MODULES, "go-fox", "games.bots.no_such_module")
    with pytest.raises(strategies.NoStrategy, match=r"'go-fox'.*games\.bots\.no_such_module"):
        strategies.for_game(get("go-fox"))


def test_a_module_that_fails_to_import_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the listed module itself being absent means "no strategy"; any other missing
    # import (here its package; in real life, something the module imports) is a bug.
    monkeypatch.setitem(strategies.MODULES, "go-fox", "games.no_such_package.go_fox")
    with pytest.raises(ModuleNotFoundError):
        strategies.for_game(get("go-fox"))
