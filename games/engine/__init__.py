"""The pure rules engine: no Django, no I/O, no clock. See docs/engine.md."""

from games.engine.base import Game
from games.engine.errors import IllegalAction
from games.engine.registry import all_games, get

__all__ = ["Game", "IllegalAction", "all_games", "get"]
