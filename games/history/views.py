"""History pages and exports. Thin: the form reads the query string, the selectors read
the matches, the templates draw them.

- ``/history/``: my finished matches, filtered, a keyset page at a time;
- ``/history/players/<username>/``: a player's matches as the viewer may see them
  (htmx asks for the list alone: the profile page's partial);
- ``/matches/<id>/export.json``: one finished match (``docs/export.md``);
- ``/history/export.jsonl``: all my finished matches (or the filtered ones), one JSON
  document per line, streamed.

The two downloads take the browser's session or, for programs, an API token with the
``export`` scope (``Authorization: Bearer``: ``games.api``'s check, its rate limit and
its JSON errors). A request that sends a token is judged by the token alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from accounts.models import User
from games import selectors as core
from games.api import EXPORT, token_user_with_scope
from games.errors import ErrorCode
from games.history import cursors, export, selectors
from games.history.api import FILTERS
from games.history.forms import HistoryFilterForm
from games.models import Match
from games.openapi import endpoint


@require_GET
def my_history(request: HttpRequest) -> HttpResponse:
    # The navigation links here for everyone: a visitor gets the page that says to log in.
    if not request.user.is_authenticated:
        return render(request, "history/history.html", {"form": None, "page": None})
    assert isinstance(request.user, User)
    return _history(request, player=request.user, template="history/history.html")


@require_GET
def player_history(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    # htmx (the profile page's partial) asks for the list alone.
    template = "history/_list.html" if request.headers.get("HX-Request") == "true" else "history/player.html"
    response = _history(request, player=player, template=template)
    patch_vary_headers(response, ["HX-Request"])  # one address, two answers
    return response


def _history(request: HttpRequest, *, player: User, template: str) -> HttpResponse:
    viewer = request.user
    assert isinstance(viewer, User | AnonymousUser)
    form = HistoryFilterForm(request.GET, zone=timezone.get_current_timezone())
    context: dict[str, Any] = {
        "player": player,
        "form": form,
        "page": None,
        "is_mine": viewer.pk == player.pk,
    }
    if not form.is_valid():
        return render(request, template, context, status=400)
    filters = form.filters()
    page = selectors.history_page(player=player, viewer=viewer, filters=filters, after=form.cursor())
    context.update(
        page=page,
        is_filtered=filters != selectors.HistoryFilters(),
        first_url=_url(request.path, request, after=None) if form.cursor() else None,
        next_url=_url(request.path, request, after=cursors.encode(page.next_cursor))
        if page.next_cursor
        else None,
        export_url=_url(reverse("history_export"), request, after=None),
    )
    return render(request, template, context)


def _url(path: str, request: HttpRequest, *, after: str | None) -> str:
    """``path`` with the request's filters (valid: the form said so) and another cursor."""
    query = request.GET.copy()
    query.pop("after", None)
    if after is not None:
        query["after"] = after
    return f"{path}?{query.urlencode()}" if query else path


def _downloads_get_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A download answers GET (and HEAD) only; any other method gets a JSON 405, as
    docs/export.md says, not the CSRF check's HTML 403 (issue 35, bug 2): exempt from
    that check, since it changes nothing and refuses every unsafe method itself."""

    @csrf_exempt
    @wraps(view)
    def only_get(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD"):
            refused = _export_error(
                ErrorCode.METHOD_NOT_ALLOWED, f"A download takes GET, not {request.method}.", 405
            )
            refused["Allow"] = "GET, HEAD"
            return refused
        return view(request, *args, **kwargs)

    return only_get


# The downloads' schema is docs/export.md's: one document per finished match.
EXPORT_DOCUMENT = {
    "type": "object",
    "description": "A finished match, with its seed and every move: docs/export.md describes its fields.",
}
_EXPORT_ERRORS = [
    ErrorCode.UNAUTHORISED,
    ErrorCode.MISSING_SCOPE,
    ErrorCode.RATE_LIMITED,
    ErrorCode.METHOD_NOT_ALLOWED,
]


# Cache-Control private, no-store, as every answer made for one viewer: a private
# match's record must not stay in a shared cache.
def _exporter(request: HttpRequest) -> User | AnonymousUser | JsonResponse:
    """Who asks for a download: the token's user when a token is sent (or the error to
    answer: no valid token, no ``export`` scope, over its rate limit), else the session's."""
    if "Authorization" in request.headers:
        return token_user_with_scope(request, EXPORT)
    user = request.user
    assert isinstance(user, User | AnonymousUser)
    return user


@endpoint(
    "GET",
    scope=EXPORT,
    session=True,
    summary="One finished match, with its seed and every move (a download)",
    answer=EXPORT_DOCUMENT,
    errors=[*_EXPORT_ERRORS, ErrorCode.NO_SUCH_MATCH, ErrorCode.NOT_FINISHED],
    description="A token with the `export` scope, or the website's session; a public match needs neither. "
    "Pretty-printed, as a download (`boomsite-match-<id>.json`). docs/export.md.",
)
@never_cache
@_downloads_get_only
def match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    viewer = _exporter(request)
    if isinstance(viewer, JsonResponse):
        return viewer
    try:
        access = core.access(match_id, viewer)
    except core.NotVisible:
        return _export_error(ErrorCode.NO_SUCH_MATCH, "There is no such match.", 404)
    if access.match.status != Match.Status.FINISHED:
        return _export_error(
            ErrorCode.NOT_FINISHED,
            "Only a finished match can be exported: its seed is secret until then.",
            409,
        )
    response = JsonResponse(
        selectors.match_export(access.match, access.seats), json_dumps_params={"indent": 2}
    )
    response["Content-Disposition"] = _attachment(f"boomsite-match-{match_id}.json")
    return response


def _attachment(filename: str) -> str:
    """A download's Content-Disposition; a username may hold any letter, which the header
    then spells as RFC 6266 says."""
    header = content_disposition_header(as_attachment=True, filename=filename)
    assert header is not None  # None only for an inline answer without a name
    return header


def _export_error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


@endpoint(
    "GET",
    scope=EXPORT,
    session=True,
    summary="All your finished matches, one JSON document per line (a download)",
    answer=EXPORT_DOCUMENT,
    media_type="application/x-ndjson",
    errors=[*_EXPORT_ERRORS, ErrorCode.BAD_FILTER],
    query=FILTERS,
    description="JSON Lines, newest first, streamed; the History page's filters narrow it. A token with "
    "the `export` scope, or the website's session (without either: a redirect to sign in). docs/export.md.",
)
@never_cache
@_downloads_get_only
def my_export(request: HttpRequest) -> HttpResponseBase:
    """All my finished matches (narrowed by the History filters, if any), newest first."""
    player = _exporter(request)
    if isinstance(player, JsonResponse):
        return player
    if not isinstance(player, User):
        return redirect_to_login(request.get_full_path())
    # Days are the player's: the session's time zone, or a token's account's.
    zone = timezone.get_current_timezone() if request.user == player else player.zone
    form = HistoryFilterForm(request.GET, zone=zone)
    if not form.is_valid():
        return _export_error(ErrorCode.BAD_FILTER, form.error_text(), 400)
    filters = form.filters()
    # Daphne serves the site through ASGI, which reads a synchronous iterator whole
    # before sending a byte (Django's StreamingHttpResponse under ASGI): there the
    # stream must be asynchronous, each chunk read in a thread. WSGI (the test client,
    # a WSGI server) needs the synchronous one.
    lines = _lines_async(player, filters) if isinstance(request, ASGIRequest) else _lines(player, filters)
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = _attachment(f"boomsite-matches-{player.username}.jsonl")
    return response


def _lines(player: User, filters: selectors.HistoryFilters) -> Iterator[bytes]:
    for documents in selectors.export_chunks(player=player, filters=filters):
        yield b"".join(export.json_line(document) for document in documents)


async def _lines_async(player: User, filters: selectors.HistoryFilters) -> AsyncIterator[bytes]:
    chunk = sync_to_async(selectors.export_chunk)
    after = None
    while True:
        documents, after = await chunk(player=player, filters=filters, after=after)
        if documents:
            yield b"".join(export.json_line(document) for document in documents)
        if after is None:
            return
