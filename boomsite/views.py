import sys

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.cache import never_cache

from accounts.models import User
from boomsite.security import CONTENT_SECURITY_POLICY
from games import selectors
from games.engine import all_games
from games.errors import BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, ErrorCode, http_status, is_pool_exhausted
from games.feature_links import home_sections


def home(request: HttpRequest) -> HttpResponse:
    """The home page: for a stranger, what the site is; for a signed-in player, what waits
    for them, their running matches, seats they could take, what features offer (the
    ``HOME_SECTIONS`` hook) and their last results (docs/site.md, "The home page")."""
    person = _person(request)
    context: dict[str, object] = {"games": all_games(), "feature_sections": home_sections(person)}
    if not isinstance(person, User):
        return render(request, "home.html", context)
    home = selectors.home(person)
    context.update(
        waiting=home.waiting, running=home.running, open_seats=home.open_seats, results=home.results
    )
    return render(request, "home/signed_in.html", context)


@never_cache
@login_required
def home_live(request: HttpRequest) -> HttpResponse:
    """The home page's "Waiting for you" and running matches alone: what its script
    (static/js/home.js) fetches again when the count of matches waiting changes."""
    assert isinstance(request.user, User)
    waiting, running = selectors.home_live(request.user)
    return render(request, "home/_live.html", {"waiting": waiting, "running": running})


def _person(request: HttpRequest) -> User | AnonymousUser:
    return request.user if isinstance(request.user, User) else AnonymousUser()


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's own 404 page: ``handler404``, and with DEBUG on too (boomsite/not_found.py)."""
    response = render(request, "404.html", status=404)
    # A page of the site, not Django's technical one, so it has the site's policy in both
    # modes (with DEBUG on, boomsite/security.py leaves error answers as Django draws them).
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: Django calls it while handling the exception that escaped a view
    or a middleware. A wait for a database connection that ran out of time is no fault
    of the site's code but a moment of overload: a 503 with ``Retry-After`` (JSON for
    programs under ``/api/``), so that clients and proxies try again. Anything else is
    the usual 500."""
    if not is_pool_exhausted(sys.exc_info()[1]):
        return defaults.server_error(request)
    status = http_status(ErrorCode.BUSY)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"error": {"code": ErrorCode.BUSY, "message": BUSY_MESSAGE}}, status=status
        )
    else:
        # Plain text: the page's template would need the database (the navigation's counts).
        response = HttpResponse(f"{BUSY_MESSAGE}\n", content_type="text/plain; charset=utf-8", status=status)
    response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
    return response
