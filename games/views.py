"""Pages of the games app. Matches, history and tournaments fill in with later issues."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine import IllegalAction, all_games, get


def play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/play.html", {"games": all_games()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game = get(slug)
    except IllegalAction:
        raise Http404("No such game.") from None
    options = [option.as_data() for option in game.options]
    return render(request, "games/game_detail.html", {"game": game, "options": options})


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    return render(request, "games/my_matches.html")


def history(request: HttpRequest) -> HttpResponse:
    return render(request, "games/history.html")


def tournaments(request: HttpRequest) -> HttpResponse:
    return render(request, "games/tournaments.html")
