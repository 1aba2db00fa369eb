"""Pages of the games app: the lobby, "My matches" and the match page.

Views are thin: they read through ``games.selectors``, write through
``games.services`` and turn a ``MatchError`` into a message on the page.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.models import User
from games import selectors, services
from games.engine import IllegalAction, all_games, get
from games.forms import MatchCreateForm
from games.pages import live_html


def play(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/play.html",
        {
            "games": all_games(),
            "open_matches": selectors.open_public_matches(),
            "live_matches": selectors.live_public_matches(),
        },
    )


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The game's page: its options, its open matches and the form that creates one."""
    try:
        game = get(slug)
    except IllegalAction:
        raise Http404("No such game.") from None
    form = MatchCreateForm(game, request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        assert isinstance(request.user, User)
        if form.is_valid():
            try:
                match = services.match_create(
                    creator=request.user,
                    game_slug=game.slug,
                    options=form.cleaned_data["options"],
                    seats=form.cleaned_data["seats"],
                    visibility=form.cleaned_data["visibility"],
                    turn_limit=form.cleaned_data["turn_limit"],
                )
            except services.MatchError as error:
                form.add_error(None, str(error))
            else:
                return redirect("match", match.pk)
    options = [option.as_data() for option in game.options]
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "options": options,
            "form": form,
            "open_matches": selectors.open_public_matches(game.slug),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    return render(request, "games/my_matches.html", {"dashboard": selectors.dashboard(request.user)})


def _access(request: HttpRequest, match_id: int) -> selectors.Access:
    try:
        return selectors.access(match_id, request.user)
    except selectors.NotVisible:
        raise Http404("No such match.") from None


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    acc = _access(request, match_id)
    chat = list(acc.match.chat.select_related("user").order_by("-created_at", "-pk")[:100])[::-1]
    return render(
        request,
        "games/match.html",
        {"match": acc.match, "acc": acc, "live": live_html(acc, request=request), "chat": chat},
    )


def match_board(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live part of the match page alone: what a client fetches after a missed update."""
    acc = _access(request, match_id)
    response = HttpResponse(live_html(acc, request=request))
    response["X-Match-Ply"] = str(acc.match.ply)
    return response


def _done(request: HttpRequest, match_id: int, error: services.MatchError | None = None) -> HttpResponse:
    if error is not None:
        messages.error(request, str(error))
    return redirect("match", match_id)


@login_required
@require_POST
def match_act(request: HttpRequest, match_id: int) -> HttpResponse:
    """A move from a plain form (no JavaScript); pages with a socket send it there instead."""
    assert isinstance(request.user, User)
    _access(request, match_id)
    try:
        action: Any = json.loads(request.POST.get("action", ""))
    except ValueError:
        return _done(
            request, match_id, services.MatchError("malformed_action", "That action is not valid JSON.")
        )
    try:
        ply = int(request.POST.get("ply", ""))
    except ValueError:
        ply = -1
    try:
        services.match_submit_action(
            match_id=match_id,
            user=request.user,
            action=action,
            ply=ply,
            action_id=request.POST.get("action_id"),
        )
    except services.MatchError as error:
        return _done(request, match_id, error)
    return _done(request, match_id)


def _simple_post(service: Any, success: str | None = None) -> Any:
    @login_required
    @require_POST
    def view(request: HttpRequest, match_id: int) -> HttpResponse:
        assert isinstance(request.user, User)
        _access(request, match_id)
        try:
            service(match_id=match_id, user=request.user)
        except services.MatchError as error:
            return _done(request, match_id, error)
        if success:
            messages.success(request, success)
        return _done(request, match_id)

    return view


match_join = _simple_post(services.match_join)
match_decline = _simple_post(services.match_decline, "You declined the invitation.")
match_leave = _simple_post(services.match_leave, "You left the match.")
match_resign = _simple_post(
    services.match_resign, "You resigned. The autopilot plays your seat if the game goes on."
)


@login_required
@require_POST
def match_chat(request: HttpRequest, match_id: int) -> HttpResponse:
    assert isinstance(request.user, User)
    _access(request, match_id)
    try:
        services.chat_post(match_id=match_id, user=request.user, text=request.POST.get("text", ""))
    except services.MatchError as error:
        return _done(request, match_id, error)
    return redirect(f"/matches/{match_id}/#chat")


def history(request: HttpRequest) -> HttpResponse:
    return render(request, "games/history.html")


def tournaments(request: HttpRequest) -> HttpResponse:
    return render(request, "games/tournaments.html")
