"""The explicit list of games on the site. Adding a game is one line here."""

from __future__ import annotations

from typing import Any

from games.engine.base import Game
from games.engine.booby_trap import BoobyTrap
from games.engine.boom_box import BoomBox
from games.engine.dont_go_boom import DontGoBoom
from games.engine.errors import IllegalAction
from games.engine.go_fox import GoFox
from games.engine.its_a_bomb import ItsABomb
from games.engine.ka_blam import KaBlam
from games.engine.read_and_grab import ReadAndGrab

# Game[Any]: each game has its own state type, and Game is invariant in it.
_GAMES: tuple[Game[Any], ...] = (
    BoobyTrap(),
    BoomBox(),
    DontGoBoom(),
    GoFox(),
    ItsABomb(),
    KaBlam(),
    ReadAndGrab(),
)

_BY_SLUG = {game.slug: game for game in _GAMES}


def all_games() -> list[Game[object]]:
    return list(_GAMES)


def get(slug: str) -> Game[object]:
    try:
        return _BY_SLUG[slug]
    except (KeyError, TypeError):
        raise IllegalAction("no_such_game", f"There is no game {slug!r}.") from None
