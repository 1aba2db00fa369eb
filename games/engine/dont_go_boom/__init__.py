"""Don't Go Boom: a golf-family card game of 3x3 minefields and Big Bad Bombs.

Rules and API: docs/games/dont-go-boom.md.
"""

from games.engine.dont_go_boom.cards import score_values
from games.engine.dont_go_boom.game import DontGoBoom
from games.engine.dont_go_boom.state import DontGoBoomState
from games.engine.dont_go_boom.view import estimate_score

__all__ = ["DontGoBoom", "DontGoBoomState", "estimate_score", "score_values"]
