"""HTML fragments shared by the match page, its board URL and the match socket.

``live_html`` is the part of the match page that changes as the game goes on
(players, the board, the log, the buttons): the page renders it once and the
socket pushes it again, re-rendered for each viewer, after every change.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template.loader import render_to_string

from games.models import ChatMessage
from games.selectors import Access, board_for, seat_names


def live_html(access: Access, *, request: HttpRequest | None = None) -> str:
    """The live part of the match page for one viewer (``request`` adds CSRF tokens to its forms)."""
    board = board_for(access)
    players = [
        {
            "seat": seat,
            "name": name,
            "owes": board is not None and seat.index in board.to_act and access.match.status == "running",
        }
        for seat, name in zip(access.seats, seat_names(access.seats), strict=True)
    ]
    context = {
        "match": access.match,
        "access": access,
        "board": board,
        "players": players,
        "match_id": access.match.pk,
        # The viewer, explicitly: over the socket there is no request, and the template
        # must not take a signed-in person for a stranger ("Log in to join").
        "user": access.viewer if access.viewer is not None else AnonymousUser(),
    }
    return render_to_string("games/_match_live.html", context, request=request)


def chat_html(message: ChatMessage) -> str:
    return render_to_string("games/_chat_message.html", {"message": message})
