"""What the services share: the error they raise, the bot accounts, finding a game."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.bots import AVAILABLE_LEVELS
from games.engine import IllegalAction, get
from games.errors import ErrorCode, MatchError

# The account that plays a level: created by accounts' 0002 data migration.
BOT_USERNAMES = {level: f"bot-{level}" for level in ("random", "basic", "expert")}
# Who plays a seat whose player resigned (the autopilot).
AUTOPILOT_LEVEL = "basic"


def engine_for(slug: str) -> Any:
    try:
        return get(slug)
    except IllegalAction:
        raise MatchError(ErrorCode.NO_SUCH_GAME, "There is no such game.") from None


def bot_account(level: str) -> User:
    if level not in AVAILABLE_LEVELS:
        raise MatchError(ErrorCode.NO_SUCH_BOT, f"There is no {level!r} bot to play with yet.")
    return User.objects.get(username=BOT_USERNAMES[level], is_bot=True)
