"""Seat arithmetic. Seats are ints ``0..players-1``; seat order is turn order."""

from __future__ import annotations

from games.engine.errors import IllegalAction


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat ``step`` places to the left (``step=-1`` goes right)."""
    return (seat + step) % players


def seats_from(first: int, players: int, step: int = 1) -> tuple[int, ...]:
    """Every seat once, in turn order, starting with ``first``."""
    return tuple((first + step * offset) % players for offset in range(players))


def check_seat(seat: object, players: int) -> int:
    """``seat`` as an int seat of this game, or ``IllegalAction``."""
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalAction("no_such_seat", f"There is no seat {seat!r} in this game.")
    return seat
