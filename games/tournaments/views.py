"""The tournament pages: the list, a tournament's page (its rules, entrants, bracket or
standings, kept live by ``static/js/tournament.js`` over ``/ws/tournaments/<id>/``),
and registering and withdrawing.

Thin: reads through ``pages``, writes through ``services``; a ``TournamentError``
becomes a message on the tournament's page, and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games.tournaments import pages, services
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
