"""The tournament pages: the list, a tournament's page (its rules, entrants, bracket or
standings, kept live by ``static/js/tournament.js`` over ``/ws/tournaments/<id>/``),
registering and withdrawing, and the tournament's downloads (``export``: JSON, CSV).

Thin: reads through ``pages``, writes through ``services``; a ``TournamentError``
becomes a message on the tournament's page, and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games.errors import ErrorCode, http_status
from games.tournaments import export, pages, selectors, services
from games.tournaments.models import Tournament


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"listing": pages.listing(request.user)})


@never_cache
@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "tournaments/detail.html", {"page": _page(request, tournament_id)})


@never_cache
@require_GET
def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page's live part alone, fetched again each time the tournament's socket rings."""
    return render(request, "tournaments/_live.html", {"page": _page(request, tournament_id)})


def _page(request: HttpRequest, tournament_id: int) -> pages.TournamentPage:
    try:
        return pages.tournament_page(tournament_id, request.user)
    except pages.NotShown:
        raise Http404("No such tournament.") from None


def _shown(request: HttpRequest, tournament_id: int) -> Tournament:
    try:
        return pages.shown_tournament(tournament_id, request.user)
    except pages.NotShown:
        raise Http404("No such tournament.") from None


def _back(tournament_id: int) -> str:
    return reverse("tournaments:detail", args=[tournament_id])


@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _shown(request, tournament_id)
    if not request.user.is_authenticated:
        # Back to the tournament's page after logging in (a GET of this address would not register).
        return redirect_to_login(_back(tournament_id))
    assert isinstance(request.user, User)
    try:
        services.tournament_register(tournament_id=tournament.pk, user=request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"You are registered for {tournament.name}.")
    return redirect(_back(tournament_id))


# Withdrawing from a running tournament resigns the table being played and is final: the
# form asks for a tick first (the page's checkbox; the browser requires it, and so does this).
CONFIRMED = "yes"


@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _shown(request, tournament_id)
    if not request.user.is_authenticated:
        return redirect_to_login(_back(tournament_id))
    assert isinstance(request.user, User)
    if tournament.status == Tournament.Status.RUNNING and request.POST.get("confirm") != CONFIRMED:
        messages.error(
            request,
            "Tick the box to confirm: withdrawing resigns the table you are playing and puts you out of the rest.",
        )
        return redirect(_back(tournament_id))
    try:
        services.tournament_withdraw(tournament_id=tournament.pk, user=request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"You withdrew from {tournament.name}.")
    return redirect(_back(tournament_id))


# -- the downloads (docs/tournaments.md, "Exporting a tournament") ------------------------
#
# Refusals as the match export's, {"error": {"code", "message"}}, and changing nothing. No
# store in any cache (``never_cache``): a running tournament's file changes with each
# result, and a draft's is for staff only.


@never_cache
def tournament_export_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _exported(request, tournament_id)
    if isinstance(tournament, HttpResponse):
        return tournament
    document = export.tournament_document(
        selectors.tournament_rows(tournament), absolute_url=request.build_absolute_uri
    )
    response = JsonResponse(document, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = _attachment(tournament, ".json")
    return response


@never_cache
def tournament_export_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """``?what=tables`` (the default): one row per entrant per table and per bye;
    ``?what=standings``: one row per entrant."""
    tournament = _exported(request, tournament_id)
    if isinstance(tournament, HttpResponse):
        return tournament
    what = request.GET.get("what", export.TABLES)
    if what not in export.CSV_FILES:
        return _export_error(
            ErrorCode.BAD_FILTER, f"Ask for what=tables or what=standings, not {what[:40]!r}."
        )
    document = export.tournament_document(
        selectors.tournament_rows(tournament), absolute_url=request.build_absolute_uri
    )
    body = export.tables_csv(document) if what == export.TABLES else export.standings_csv(document)
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = _attachment(tournament, f"-{what}.csv")
    return response


def _exported(request: HttpRequest, tournament_id: int) -> Tournament | HttpResponse:
    """The tournament to download, or the refusal: another method than GET (whoever asks,
    before anything is read), or a tournament the viewer may not see (as its page)."""
    if request.method != "GET":
        response = _export_error(
            ErrorCode.METHOD_NOT_ALLOWED, "This address only downloads the tournament: use GET."
        )
        response["Allow"] = "GET"
        return response
    try:
        return pages.shown_tournament(tournament_id, request.user)
    except pages.NotShown:
        return _export_error(ErrorCode.NO_SUCH_TOURNAMENT, "There is no such tournament.")


def _export_error(code: ErrorCode, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status(code))


def _attachment(tournament: Tournament, ending: str) -> str:
    """ "autumn-cup-12.json", "autumn-cup-12-standings.csv": the name in plain letters (a
    tournament's name may hold any), "tournament" when none is left."""
    slug = slugify(tournament.name) or "tournament"
    header = content_disposition_header(as_attachment=True, filename=f"{slug}-{tournament.pk}{ending}")
    assert header is not None  # None only for an inline answer without a name
    return header
