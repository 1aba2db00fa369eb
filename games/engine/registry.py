"""The explicit list of games on the site. Adding a game is one line here."""

from __future__ import annotations

from games.engine.base import Game
from games.engine.errors import IllegalAction

_GAMES: tuple[Game[object], ...] = ()

_BY_SLUG = {game.slug: game for game in _GAMES}


def all_games() -> list[Game[object]]:
    return list(_GAMES)


def get(slug: str) -> Game[object]:
    try:
        return _BY_SLUG[slug]
    except (KeyError, TypeError):
        raise IllegalAction("no_such_game", f"There is no game {slug!r}.") from None
