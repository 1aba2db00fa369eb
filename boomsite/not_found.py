"""The site's own 404 page for every "no such thing" a view answers, DEBUG on or off.

With DEBUG on, Django answers an ``Http404`` with its technical page and never calls
``handler404``; the embedded mode (``make run``) runs with DEBUG on and is where
people first play, so a missing match, player or game showed Django's debug page
there. This middleware turns an ``Http404`` a view raises into the site's page in
both modes. **Decision**: an address that matches no URL pattern at all is not a
view's answer (Django resolves it before any view or this middleware's hook runs): with
DEBUG off it gets the same page through ``handler404``; with DEBUG on it keeps Django's
page listing the URL patterns, which is what a developer mistyping an address wants.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse

from boomsite.views import not_found


class NotFoundPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404):
            return not_found(request, exception)
        return None
