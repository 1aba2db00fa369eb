"""What the services share: the error they raise, the bot accounts, finding a game."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.bots import levels_for
from games.engine import Game, IllegalAction, get
from games.errors import ErrorCode, MatchError

# The account that plays a level: created by accounts' 0002 data migration.
BOT_USERNAMES = {level: f"bot-{level}" for level in ("random", "basic", "expert")}
# Who plays a seat whose player resigned (the autopilot), where the game has that level.
AUTOPILOT_LEVEL = "basic"


def engine_for(slug: str) -> Any:
    try:
        return get(slug)
    except IllegalAction:
        raise MatchError(ErrorCode.NO_SUCH_GAME, "There is no such game.") from None


def autopilot_level(game: Game[Any]) -> str:
    """The level that plays for a resigned seat: the autopilot, or the random bot in a
    game that has no bot module of its own yet."""
    levels = levels_for(game)
    return AUTOPILOT_LEVEL if AUTOPILOT_LEVEL in levels else levels[0]


def bot_account(level: str, game: Game[Any]) -> User:
    if level not in levels_for(game):
        raise MatchError(ErrorCode.NO_SUCH_BOT, f"There is no {level!r} bot for {game.name} yet.")
    return User.objects.get(username=BOT_USERNAMES[level], is_bot=True)
