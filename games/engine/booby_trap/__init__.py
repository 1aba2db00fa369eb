"""Booby-Trap: lift pieces out of a spring-loaded tray without moving the bar.

The tray is a real 2D rigid-body simulation (``physics``, pymunk). Rules and API:
docs/games/booby-trap.md.
"""

from games.engine.booby_trap.game import BoobyTrap
from games.engine.booby_trap.replay import force_network
from games.engine.booby_trap.state import BoobyTrapState

__all__ = ["BoobyTrap", "BoobyTrapState", "force_network"]
