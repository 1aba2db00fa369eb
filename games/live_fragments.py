"""HTML fragments shared by the match page, its board URL and the match socket.

``live_html`` is the part of the match page that changes as the game goes on
(players, the board, the log, the buttons): the page renders it once and the
socket pushes it again, re-rendered for each viewer, after every change.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template.loader import render_to_string

from games.models import ChatMessage, Match
from games.selectors import Access, board_for, online_seats, seat_names
from games.services.chat import silenced


def chat_closed(access: Access, view: dict[str, Any] | None = None) -> bool:
    """Whether the viewer's seat may not write in the chat now, by the rule the chat
    service refuses by (``services.chat.silenced``): the page shows the reason instead
    of a box whose every message would be refused. ``view``: the seat's view, when the
    caller has it already."""
    seat = access.seat_index
    if seat is None or access.match.status != Match.Status.RUNNING:
        return False
    if view is None:
        view = access.match.engine.view(access.match.decoded_state(), seat)
    return silenced(view, seat)


def online_for(access: Access) -> set[int]:
    """The seats shown as online to this viewer: those whose person has the match open
    now, and the viewer's own, since they are looking at it (so the page, drawn before
    its socket opens, says what the socket's first board says)."""
    online = set(online_seats(access.match.pk, access.seats))
    if access.my_seat is not None:
        online.add(access.my_seat.index)
    return online


def live_html(access: Access, *, request: HttpRequest | None = None, online: set[int] | None = None) -> str:
    """The live part of the match page for one viewer (``request`` adds CSRF tokens to its
    forms; ``online``: the seats to show as online, when the caller has read them)."""
    board = board_for(access)
    if online is None:
        online = online_for(access)
    players = [
        {
            "seat": seat,
            "name": name,
            "owes": board is not None and seat.index in board.to_act and access.match.status == "running",
            # Bots have no dot: they are always there. An invited person may have the page open too.
            "person": seat.user is not None and not seat.user.is_bot,
            "online": seat.index in online,
            "is_me": access.my_seat is not None and access.my_seat.index == seat.index,
        }
        for seat, name in zip(access.seats, seat_names(access.seats), strict=True)
    ]
    context = {
        "match": access.match,
        "access": access,
        "board": board,
        "players": players,
        # One way of naming seats in words, the boards' own: "Ann", "Ann and Bob", "Ann, Bob and Carl".
        "waiting_for": board.names_text(board.to_act) if board is not None else "",
        # Built on every push for every viewer: the log is computed once here, not per use.
        "log": board.log if board is not None else [],
        # Whether the chat box is closed follows the game (it opens again when the match
        # ends): the page's script reads it from each pushed board.
        "chat_closed": chat_closed(access, board.view if board is not None else None),
        "match_id": access.match.pk,
        # The viewer, explicitly: over the socket there is no request, and the template
        # must not take a signed-in person for a stranger ("Log in to join").
        "user": access.viewer if access.viewer is not None else AnonymousUser(),
    }
    return render_to_string("games/_match_live.html", context, request=request)


def chat_html(message: ChatMessage) -> str:
    return render_to_string("games/_chat_message.html", {"message": message})
