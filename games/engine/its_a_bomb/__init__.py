"""It's a Bomb!: the cooperative defusing game, with its scenario book as data."""

from games.engine.its_a_bomb.game import ItsABomb

__all__ = ["ItsABomb"]
