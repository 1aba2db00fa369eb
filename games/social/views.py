"""The challenge page and the follow and block buttons. Thin: the forms read, the
services write, and every refusal is shown as the service words it.

The profile (``games/profiles``) shows the buttons and the challenge form through
``profile_part``; they post here, and come back to the profile."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.models import User
from games.engine import Game
from games.errors import MatchError
from games.social import selectors, services
from games.social.forms import ChallengeForm, GameChoiceForm, challenge_games


@dataclass
class ProfilePart:
    """What the profile shows of friends and blocks to a signed-in ``viewer``: about
    another person, the buttons, the challenge form and whether they are online; on
    their own profile, whom they follow and whom they blocked."""

    relation: selectors.Relation | None = None
    game_form: GameChoiceForm | None = None
    challenge_form: ChallengeForm | None = None
    following: list[selectors.Person] = field(default_factory=list)
    blocked: list[User] = field(default_factory=list)


def profile_part(request: HttpRequest, player: User) -> ProfilePart | None:
    """The part for the profile of ``player``; None for a visitor who is not signed in.
    The challenge form is for the game chosen (``?game=``), the first one else."""
    viewer = request.user
    if not isinstance(viewer, User):
        return None
    if viewer.pk == player.pk:
        return ProfilePart(following=selectors.following(viewer), blocked=selectors.blocked_by_me(viewer))
    relation = selectors.relation(viewer, player)
    part = ProfilePart(relation=relation)
    if not relation.kept_apart:
        games = challenge_games(player)
        game = _chosen(games, request.GET.get("game"))
        if game is not None:
            part.game_form = GameChoiceForm(games, initial={"game": game.slug})
            part.challenge_form = ChallengeForm(game)
    return part


def _chosen(games: list[Game[Any]], slug: str | None) -> Game[Any] | None:
    return next((game for game in games if game.slug == slug), games[0] if games else None)


def _player(username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True)


@login_required
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """GET: the challenge form for ``?game=``; POST: send the challenge. A refusal shows
    the form again with the reason, and nothing is written."""
    assert isinstance(request.user, User)
    player = _player(username)
    games = challenge_games(player)
    data = request.POST if request.method == "POST" else None
    game = _chosen(games, (data or request.GET).get("game"))
    if game is None:
        raise Http404("No game to challenge this player to.")
    form = ChallengeForm(game, data)
    if data is not None and form.is_valid():
        try:
            match = services.challenge(
                challenger=request.user,
                challenged=player,
                game_slug=game.slug,
                options=form.cleaned_data["options"],
                turn_limit=form.cleaned_data["turn_limit"],
            )
        except MatchError as error:
            form.add_error(None, str(error))
        else:
            if player.is_bot:
                messages.success(request, f"Your match against {player.public_name} has started.")
            else:
                messages.success(
                    request,
                    f"You challenged {player.public_name} to {game.name}: the match starts when they accept.",
                )
            return redirect("match", match.pk)
    return render(
        request,
        "social/challenge.html",
        {
            "player": player,
            "game": game,
            "game_form": GameChoiceForm(games, initial={"game": game.slug}),
            "form": form,
        },
        status=400 if data is not None else 200,
    )


def _back(request: HttpRequest, player: User) -> HttpResponse:
    """To the page the button was on (the person's profile, or one's own list of them)."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(reverse("profile", args=[player.username]))


def _button(service: Any, done: str) -> Any:
    """A POST button on a person: ``service(me, them)``, then back with what happened."""

    @login_required
    @require_POST
    def view(request: HttpRequest, username: str) -> HttpResponse:
        assert isinstance(request.user, User)
        player = _player(username)
        try:
            service(request.user, player)
        except MatchError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, done.format(name=player.public_name))
        return _back(request, player)

    return view


follow = _button(
    lambda me, them: services.follow(follower=me, followed=them),
    "You follow {name}: you see on your home page when they are online, and their latest results.",
)
unfollow = _button(
    lambda me, them: services.unfollow(follower=me, followed=them), "You no longer follow {name}."
)
block = _button(
    lambda me, them: services.block(blocker=me, blocked=them),
    "You blocked {name}: they cannot invite or challenge you, and you will not see each other's chat.",
)
unblock = _button(lambda me, them: services.unblock(blocker=me, blocked=them), "You unblocked {name}.")
