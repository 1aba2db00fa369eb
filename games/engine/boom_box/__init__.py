"""Bouldertroll Boom Box: pass closed boxes around, claim gem or Boom, and open at your peril."""

from games.engine.boom_box.facts import BoxFacts, box_facts
from games.engine.boom_box.game import BoomBox

__all__ = ["BoomBox", "BoxFacts", "box_facts"]
