"""The lines of the programs' streams (docs/api.md, "Streams"), declared for the API's
description (``/api/openapi.json``): each line is one JSON object with a ``type``; a
program skips the types it does not know. ``streams.py`` and ``stream_events.py`` write
them."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from games.api import MatchDocument, MatchResult, MatchStatus, SeatSummary, Visibility

# -- /api/matches/<id>/stream ---------------------------------------------------------


class StateLine(MatchDocument):
    """Exactly ``GET /api/matches/<id>``'s answer, with its type: first, then after every change."""

    type: Literal["state"]


class ChatLine(TypedDict):
    """A player wrote in the match's chat."""

    type: Literal["chat"]
    id: int
    seat: int
    name: str
    text: str
    at: str


class EndLine(TypedDict):
    """The match is over (right after its last ``state``); then the response ends."""

    type: Literal["end"]
    status: MatchStatus
    result: MatchResult | None


class ErrorLine(TypedDict):
    """The stream cannot go on (``unauthorised``, ``no_such_match``); then the response ends."""

    type: Literal["error"]
    code: str
    message: str


# -- /api/stream/events ---------------------------------------------------------------

# Functional: "from" is a Python keyword.
EventMatch = TypedDict(
    "EventMatch",
    {
        "id": int,
        "game": str,
        "status": MatchStatus,
        "ply": int,
        "options": dict[str, Any],
        "time_control": int | None,
        "visibility": Visibility,
        "challenge": bool,
        "from": str,
        "seat": Annotated[int, "Yours: the one you are invited to, for an invitation."],
        "players": list[SeatSummary],
        "url": str,
        "stream": Annotated[str, "The match's stream."],
        "result": NotRequired[Annotated[MatchResult | None, "In match_finished only."]],
    },
)


class MatchEventLine(TypedDict):
    """``invitation``, ``match_started``, ``match_finished``: a match of yours."""

    type: Literal["invitation", "match_started", "match_finished"]
    match: EventMatch


class InvitationClosedLine(TypedDict):
    type: Literal["invitation_closed"]
    id: int


class InvitationDeclinedLine(TypedDict):
    type: Literal["invitation_declined"]
    match: EventMatch
    username: str


class YourTurnLine(TypedDict):
    type: Literal["your_turn"]
    match: EventMatch
    deadline: Annotated[str | None, "When your turn's time runs out; null: no limit."]


MatchStreamLine = StateLine | ChatLine | EndLine | ErrorLine
EventStreamLine = MatchEventLine | InvitationClosedLine | InvitationDeclinedLine | YourTurnLine | ErrorLine
