from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from boomsite.security import CONTENT_SECURITY_POLICY
from games.engine import all_games


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": all_games()})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's own 404 page: ``handler404``, and with DEBUG on too (boomsite/not_found.py)."""
    response = render(request, "404.html", status=404)
    # A page of the site, not Django's technical one, so it has the site's policy in both
    # modes (with DEBUG on, boomsite/security.py leaves error answers as Django draws them).
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response
