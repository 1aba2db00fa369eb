"""The Content-Security-Policy every HTML page is served with.

The site loads nothing from elsewhere and runs no inline script: every script is a
file under static/ (htmx, js/match.js, the admin's own), and the match page's
socket goes back to the host that served it. So the policy is strict:

- scripts only from this origin: no ``'unsafe-inline'``, no ``'unsafe-eval'``
  (base.html tells htmx not to evaluate code, nor to add its indicator ``<style>``);
- styles only from this origin's files, except inline ``style`` *attributes*
  (``style-src-attr 'unsafe-inline'``). The boards set CSS custom properties from
  game data in them (a card's colour ``--wc``, a grid's column count), and
  allauth's email pages hide a form with one. An attribute can only style its own
  element (no selectors; a ``url()`` in it still obeys default-src), while
  ``<style>`` elements stay refused; browsers without ``style-src-attr`` (before
  CSP level 3) fall back to ``style-src`` and draw those boards without the colours;
- ``connect-src 'self'``: fetches of /board, and the match socket, which CSP level 3
  counts as 'self' when it goes to the page's own host and port (``ws:`` from an
  ``http:`` page, ``wss:`` from ``https:``). Browsers before that (Safari before 16)
  refuse the socket; the page then plays by posting its forms, as without JavaScript;
- never framed, no plugins, no ``<base>`` elsewhere, forms post only here.

The admin needs nothing more: Django 5.2's admin has no inline script, handler or
style attribute (its constants ride on ``<script src=... data-...>``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    """Adds ``CONTENT_SECURITY_POLICY`` to every HTML response that has no policy of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" in response:
            return response
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        # With DEBUG on, an error answer may be Django's technical page (a traceback,
        # "Page not found"), which carries inline <style> and <script>: it is shown
        # as Django draws it. With DEBUG off (production) every HTML answer has the policy.
        if settings.DEBUG and response.status_code >= 400:
            return response
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response
