"""Ka-Blam! (``ka-blam``): the first game of the Ka-Blam! box."""

from games.engine.ka_blam.game import KaBlam
from games.engine.ka_blam.state import KaBlamState, RoundResult

__all__ = ["KaBlam", "KaBlamState", "RoundResult"]
