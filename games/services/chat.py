"""Chat among a match's players."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import transaction

from accounts.models import User
from games import effects
from games.errors import ErrorCode, MatchError
from games.inputs import BadInput, check_text
from games.locks import lock_match
from games.models import ChatMessage, Match


def silenced(view: dict[str, Any], seat: int) -> bool:
    """The game's rule for its running matches: the seats its view lists in
    ``chat_closed_seats`` keep silent (It's a Bomb!'s Crisis Unit). The one reading of
    it: the service refuses by it, the match page shows the reason by it."""
    return seat in view.get("chat_closed_seats", ())


def chat_post(*, match_id: int, user: User, text: Any) -> ChatMessage:
    if not isinstance(text, str) or not text.strip():
        raise MatchError(ErrorCode.EMPTY_MESSAGE, "Write something first.")
    try:
        check_text(text)
    except BadInput as error:
        raise MatchError(error.code, str(error)) from None
    if any(unicodedata.category(character) == "Cc" and character not in "\n\t" for character in text):
        raise MatchError(ErrorCode.BAD_TEXT, "Messages may not contain control characters.")
    text = text.strip()
    if len(text) > ChatMessage.MAX_LENGTH:
        raise MatchError(
            ErrorCode.MESSAGE_TOO_LONG, f"A message is at most {ChatMessage.MAX_LENGTH} characters."
        )
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.filter(user=user, joined_at__isnull=False).first()
        if seat is None or user.is_bot:
            raise MatchError(ErrorCode.NOT_YOUR_SEAT, "Only the match's players can chat.")
        if match.status == Match.Status.RUNNING:
            view = match.engine.view(match.decoded_state(), seat.index)
            if silenced(view, seat.index):
                raise MatchError(ErrorCode.CHAT_CLOSED, "Your role keeps silent while the game runs.")
        message = ChatMessage.objects.create(match=match, user=user, author_name=seat.public_name, text=text)
        effects.chat_posted(match_id=match.pk, message_id=message.pk)
    return message
