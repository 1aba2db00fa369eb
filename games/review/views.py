"""The review pages: one player's review of a finished match, the button that asks for
it, and the tiny status the page's script polls while it is worked on. Thin: they read
through ``games.review.selectors`` and write through ``games.review.services``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.models import User
from games import selectors as game_selectors
from games.errors import MatchError, http_status
from games.models import Match
from games.review import expert, grades, selectors, services


def _match(request: HttpRequest, match_id: int) -> Match:
    """The match, if the viewer may see it at all (a private match is not found by others)."""
    try:
        return game_selectors.access(match_id, request.user).match
    except game_selectors.NotVisible:
        raise Http404("No such match.") from None


def _refused(request: HttpRequest, match: Match, error: MatchError) -> HttpResponse:
    return render(
        request, "review/refused.html", {"match": match, "why": str(error)}, status=http_status(error.code)
    )


# A review is one player's own: never kept by a shared cache.
@never_cache
@login_required
def review_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """My review of a finished match: the button that asks for it, its progress, or my
    decisions with the expert's opinion, each linked to its step in the replay."""
    assert isinstance(request.user, User)
    match = _match(request, match_id)
    review = selectors.review_of(match, request.user)
    if review is None:
        refusal = selectors.refusal(match, request.user)
        if refusal is not None:
            return _refused(request, match, refusal)
    return render(
        request,
        "review/review.html",
        {
            "match": match,
            "review": review,
            "progress": selectors.progress(review) if review is not None else None,
            "summary": selectors.summary(review) if review is not None and review.is_done else None,
            "decisions": selectors.my_decisions(match, request.user) if review is None else None,
            "iterations": review.iterations if review is not None else expert.iterations_for(match.game),
            "thresholds": grades.THRESHOLD_POINTS,
        },
    )


@login_required
@require_POST
def review_start(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for my review (or resume a stalled one); the page shows how it goes."""
    assert isinstance(request.user, User)
    match = _match(request, match_id)
    try:
        services.review_request(match_id=match.pk, user=request.user)
    except MatchError as error:
        return _refused(request, match, error)
    return redirect("review:page", match.pk)


@never_cache
@login_required
def review_status(request: HttpRequest, match_id: int) -> JsonResponse:
    """How far my review of the match is, for the page's script: 404 when there is none."""
    match = _match(request, match_id)
    review = selectors.review_of(match, request.user)
    if review is None:
        raise Http404("You have not asked for a review of this match.")
    return JsonResponse(selectors.progress(review).as_json())


@never_cache
@login_required
def review_json(request: HttpRequest, match_id: int) -> JsonResponse:
    """My review as data, for a script (static/js/replay.js marks the replay's steps with
    it, by this plain path): its progress and the decisions reviewed so far, each with
    its replay step. Without one, ``{"requested": false}``: the replay asks on every
    finished match, and a 404 there was an error in every browser's console."""
    match = _match(request, match_id)
    review = selectors.review_of(match, request.user)
    if review is None:
        return JsonResponse({"requested": False})
    return JsonResponse({"requested": True, **selectors.review_data(review)})
