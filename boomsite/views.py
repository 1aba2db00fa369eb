from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine import all_games


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": all_games()})
