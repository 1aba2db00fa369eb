"""Read and Grab (``read-and-grab``): the third game of the Ka-Blam! box."""

from games.engine.read_and_grab.game import ReadAndGrab, ReadAndGrabState

__all__ = ["ReadAndGrab", "ReadAndGrabState"]
