"""Go Fox! (``go-fox``): the second game of the Ka-Blam! box."""

from games.engine.go_fox.game import GoFox
from games.engine.go_fox.state import GoFoxState

__all__ = ["GoFox", "GoFoxState"]
