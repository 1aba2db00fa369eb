"""Pages of the games app: the lobby, "My matches" and the match page.

Views are thin: they read through ``games.selectors``, write through
``games.services`` and turn a ``MatchError`` into a message on the page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.models import User
from games import blocks, replays, selectors, services
from games.boards import render_board
from games.bots import levels_for
from games.engine import IllegalAction, all_games, get
from games.errors import API_ONLY_MESSAGE, ErrorCode
from games.feature_links import game_links, match_links, play_sections, replay_links
from games.forms import MatchCreateForm
from games.how_to_play import has_how_to_play, how_to_play_template
from games.inputs import BadInput, parse_json, whole_number
from games.live.fragments import live_html
from games.match_notes import match_notes
from games.models import ChatMessage, Match
from games.services import SeatRequest


def play(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/play.html",
        {
            "games": all_games(),
            "open_matches": selectors.open_public_matches(),
            "live_matches": selectors.live_public_matches(),
            "feature_sections": play_sections(
                request.user if isinstance(request.user, User) else AnonymousUser()
            ),
        },
    )


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The game's page: its options, its open matches and the form that creates one."""
    try:
        game = get(slug)
    except IllegalAction:
        raise Http404("No such game.") from None
    # The form starts from the choices this browser made last time for this game.
    remembered = request.session.get(_remembered_key(game.slug))
    form = MatchCreateForm(
        game, request.POST or None, initial=remembered if isinstance(remembered, dict) else None
    )
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
                request.session[_remembered_key(game.slug)] = form.choices_to_remember()
                return redirect("match", match.pk)
    options = [option.as_data() for option in game.options]
    levels = levels_for(game)
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "options": options,
            "form": form,
            "bot_levels": [(level, f"{level.title()} Bot") for level in levels],
            "default_level": QUICK_LEVEL if QUICK_LEVEL in levels else levels[0],
            "open_matches": selectors.open_public_matches(game.slug),
            "game_links": game_links(game),
        },
        status=400 if request.method == "POST" else 200,
    )


def _remembered_key(slug: str) -> str:
    return f"new-match:{slug}"


# The level a one-click match offers first: sensible rules of thumb, beatable.
QUICK_LEVEL = "basic"


@login_required
@require_POST
def quick_match(request: HttpRequest, slug: str) -> HttpResponse:
    """One click from the game's page: the player against bots of one level, with the
    game's default options, as few seats as the game is played with (two at least)."""
    assert isinstance(request.user, User)
    try:
        game = get(slug)
    except IllegalAction:
        raise Http404("No such game.") from None
    level = request.POST.get("level", "")
    if level not in levels_for(game):
        messages.error(request, "Choose one of the bot levels offered for this game.")
        return redirect("game_detail", game.slug)
    seats = [SeatRequest("me"), *[SeatRequest("bot", level=level)] * (max(2, game.min_players) - 1)]
    try:
        match = services.match_create(creator=request.user, game_slug=game.slug, options={}, seats=seats)
    except services.MatchError as error:
        messages.error(request, str(error))
        return redirect("game_detail", game.slug)
    return redirect("match", match.pk)


def how_to_play(request: HttpRequest, slug: str) -> HttpResponse:
    """The game's rules, written for players (``games/how_to_play.py``)."""
    try:
        game = get(slug)
    except IllegalAction:
        raise Http404("No such game.") from None
    if not has_how_to_play(game.slug):
        raise Http404("This game has no how-to-play page yet.")
    return render(request, how_to_play_template(game.slug), {"game": game})


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    return render(request, "games/my_matches.html", {"dashboard": selectors.dashboard(request.user)})


def _access(request: HttpRequest, match_id: int) -> selectors.Access:
    try:
        return selectors.access(match_id, request.user, invite=_invite(request))
    except selectors.NotVisible:
        raise Http404("No such match.") from None


def _invite(request: HttpRequest) -> str | None:
    """The invitation token a private match's link carries (``?invite=``), or a form's."""
    return request.POST.get("invite") or request.GET.get("invite") or None


# The match page and its board show one viewer's seat (their hand): never kept by a
# shared cache nor on the browser's disk (Cache-Control: private, no-store, ...).
@never_cache
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    access = _access(request, match_id)
    chat = _chat_shown_to(
        request.user.pk if request.user.is_authenticated else None,
        list(access.match.chat.select_related("user").order_by("-created_at", "-pk")[:100])[::-1],
    )
    match = access.match
    # Players of a private match waiting for players get the link that lets others in.
    invite_link = None
    if not match.is_public and match.status == Match.Status.OPEN and access.seat_index is not None:
        invite_link = request.build_absolute_uri(
            f"{reverse('match', args=[match.pk])}?{urlencode({'invite': match.invite_token})}"
        )
    return render(
        request,
        "games/match.html",
        {
            "match": match,
            "access": access,
            "live": live_html(access, request=request),
            "chat": chat,
            "invite_link": invite_link,
            "notes": match_notes(match),
            "links": match_links(match, request.user),
        },
    )


def _chat_shown_to(viewer_id: int | None, chat: list[ChatMessage]) -> list[ChatMessage]:
    """The lines but those of people the viewer blocked or was blocked by (games/blocks.py);
    asked only when someone else wrote, so a page without their lines asks nothing."""
    if viewer_id is None or all(message.user_id == viewer_id for message in chat):
        return chat
    kept_away = blocks.blocked_with(viewer_id)
    return [message for message in chat if message.user_id not in kept_away]


@login_required
@require_POST
def match_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """The same match again, the others invited (or sent to the rematch another asked for)."""
    assert isinstance(request.user, User)
    _access(request, match_id)  # what the viewer may not see does not exist for them
    try:
        rematch = services.match_rematch(match_id=match_id, user=request.user)
    except services.MatchError as error:
        messages.error(request, str(error))
        return redirect("match", match_id)
    return redirect("match", rematch.pk)


def _replay_frame(request: HttpRequest, match_id: int) -> tuple[selectors.Access, replays.Frame]:
    """The replay frame the query string asks for: ``step`` (moves made; the last by
    default) and ``eyes`` ("seat-<n>", "public", "all"; the viewer's own by default)."""
    access = _access(request, match_id)
    match = access.match
    if match.state is None:
        raise Http404("This match has not started: there is nothing to replay yet.")
    raw_step = request.GET.get("step", "")
    step = whole_number(raw_step) if raw_step else match.ply
    if step is None:
        raise BadReplayRequest("The step is a whole number of moves.")
    default_eyes = f"seat-{access.seat_index}" if access.seat_index is not None else replays.PUBLIC
    try:
        frame = replays.frame(
            match, step=step, eyes=request.GET.get("eyes", default_eyes), my_seat=access.seat_index
        )
    except replays.NotShown as refusal:
        raise BadReplayRequest(str(refusal)) from None
    return access, frame


class BadReplayRequest(Exception):
    pass


# A replay shows the viewer's own hand at every step while the match runs, and every
# hand once it is over (a private match's, to its players only): as the match page,
# never kept by a shared cache nor on the browser's disk. Its frames too.
@never_cache
def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through a match: any seat's eyes or everything revealed once it is over; the
    viewer's own seat (or a spectator's) up to now while it runs."""
    try:
        access, frame = _replay_frame(request, match_id)
    except BadReplayRequest as refusal:
        return render(request, "games/replay_refused.html", {"why": str(refusal)}, status=400)
    links = replay_links(access.match, request.user)
    return render(
        request,
        "games/replay.html",
        {
            "match": access.match,
            "frame": frame,
            "eyes": replays.eyes_offered(access.match, access.seat_index),
            "board_html": render_board(frame.board, {"match_id": None}),
            "notes": match_notes(access.match),
            "replay_links": links,
            # What the replay's script asks to mark the steps (the viewer's review), if offered.
            "marks_url": next((link.script_url for link in links if link.script_url), ""),
        },
    )


@never_cache
def match_replay_frame(request: HttpRequest, match_id: int) -> HttpResponse:
    """One frame alone, for the replay page's script (the same query string)."""
    try:
        access, frame = _replay_frame(request, match_id)
    except BadReplayRequest as refusal:
        return HttpResponse(str(refusal), status=400, content_type="text/plain; charset=utf-8")
    html = render_to_string(
        "games/_replay_frame.html",
        {"match": access.match, "frame": frame, "board_html": render_board(frame.board, {"match_id": None})},
    )
    return HttpResponse(html)


# It shows the finished match's seed, from which every hand can be dealt again: a
# private match's, to its players only.
@never_cache
def match_verify(request: HttpRequest, match_id: int) -> HttpResponse:
    """The fair-deal check of a finished match: its recorded moves replayed on the
    server from the seed it revealed, compared with what it recorded (games/replays.py)."""
    access = _access(request, match_id)
    return render(
        request,
        "games/verify.html",
        {"match": access.match, "access": access, "verification": replays.verify(access.match)},
    )


@never_cache
def match_board(request: HttpRequest, match_id: int) -> HttpResponse:
    """The live part of the match page alone: what a client fetches after a missed update."""
    access = _access(request, match_id)
    response = HttpResponse(live_html(access, request=request))
    response["X-Match-Ply"] = str(access.match.ply)
    return response


def _done(
    request: HttpRequest,
    match_id: int,
    error: services.MatchError | None = None,
    *,
    invite: str | None = None,
    back_to: str | None = None,
) -> HttpResponse:
    if error is not None:
        messages.error(request, str(error))
    if back_to:
        return redirect(back_to)
    if invite:
        return redirect(f"{reverse('match', args=[match_id])}?{urlencode({'invite': invite})}")
    return redirect("match", match_id)


@login_required
@require_POST
def match_act(request: HttpRequest, match_id: int) -> HttpResponse:
    """A move from a plain form (no JavaScript); pages with a socket send it there instead."""
    assert isinstance(request.user, User)
    _access(request, match_id)
    if request.user.is_program_bot:
        return _done(request, match_id, services.MatchError(ErrorCode.API_ONLY, API_ONLY_MESSAGE))
    try:
        action: Any = parse_json(request.POST.get("action", ""))
    except BadInput:
        return _done(
            request,
            match_id,
            services.MatchError(ErrorCode.MALFORMED_ACTION, "That action is not valid JSON."),
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


def _back_to(request: HttpRequest) -> str | None:
    """The page a form asks to come back to (its ``next`` field: the home page's Decline,
    as a private match declined is no longer the decliner's to see), when it is an
    address of this site; None otherwise, and the match page follows."""
    wanted = request.POST.get("next", "")
    if wanted.startswith("/") and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return None


def _simple_post(service: Any, success: str | None = None) -> Any:
    @login_required
    @require_POST
    def view(request: HttpRequest, match_id: int) -> HttpResponse:
        assert isinstance(request.user, User)
        _access(request, match_id)
        try:
            service(match_id=match_id, user=request.user)
        except services.MatchError as error:
            return _done(request, match_id, error, back_to=_back_to(request))
        if success:
            messages.success(request, success)
        return _done(request, match_id, back_to=_back_to(request) or _unless_gone(request, match_id))

    return view


def _unless_gone(request: HttpRequest, match_id: int) -> str | None:
    """My matches, when the person can no longer see the match they answered (a private
    match they declined or left is no longer theirs to see: its page would be a 404);
    None, and the match page follows, while they can."""
    try:
        selectors.access(match_id, request.user)
    except selectors.NotVisible:
        return reverse("my_matches")
    return None


@login_required
@require_POST
def match_join(request: HttpRequest, match_id: int) -> HttpResponse:
    assert isinstance(request.user, User)
    access = _access(request, match_id)
    try:
        services.match_join(match_id=match_id, user=request.user, invite=access.invite)
    except services.MatchError as error:
        return _done(request, match_id, error, invite=access.invite)
    return _done(request, match_id)


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
