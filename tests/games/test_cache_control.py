"""Every answer that shows a seat's secrets says ``Cache-Control: private, no-store``.

A shared cache (a proxy, a CDN) or the browser's disk must never keep an answer that
shows one seat's hidden cards: the next person through the proxy, or the next user of
the computer, would see them. The test does not trust a list of views to protect:

- it walks the whole URL resolver (includes too), so a pattern added later is
  requested as well; the admin alone is left out (``ADMIN_LEFT_OUT`` says why);
- it fills every pattern's arguments from one match the requesting person is seated in
  (``FILLERS``, by argument name), and fails on an argument it has no filler for, so
  whoever adds such a pattern decides what the test asks it for;
- it GETs each address as that player, with their session and their API token both,
  and decides by content whether the answer shows the seat's secrets: a hidden card's
  opaque id (JSON carries them) or its word where a board draws a card
  (``data-say="<word>"``); once the match is over, its seed too. Every answer that
  does must say ``private`` and ``no-store``;
- and it checks itself: the answers known to show the secrets (``KNOWN``) are among
  those found to, so a detection that stopped finding anything fails the test rather
  than passing it.

**Decision** (finished matches): once a match is over, its hands, its pile and its seed
are no longer secret from anyone who may see the match; for a public match that is
everyone, so its record may be cached like any public page. A private match's record,
though, is still only for its players: so the finished case is a private match, and
the answers showing what was hidden during play (or the seed) must still be private and
not stored. The views do not tell the two apart: they send the header whatever the
match's status or visibility.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.http import HttpResponseBase, StreamingHttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path, resolve, reverse
from django.utils.http import int_to_base36

from accounts.models import ApiToken, User
from accounts.services import api_token_create
from boomsite.views import home
from games.engine.word_cards.view import cards_in
from games.models import Match
from games.notify import tokens
from games.services import SeatRequest, match_create, match_join, match_resign
from games.tournaments import services as tournaments
from games.tournaments.models import Table, Tournament
from tests.games.helpers import until_turn_passes
from tests.games.tournaments.helpers import enter, make_tournament

pytestmark = pytest.mark.django_db

# The admin's addresses take the admin's own arguments (app_label, object_id, ...) and
# answer only staff; Django's ``AdminSite.admin_view`` wraps every one of them in
# ``never_cache`` already (``test_the_admin_left_out_of_the_walk_is_never_cached``).
ADMIN_LEFT_OUT = "admin"

# The answers that show the seat's secrets, by URL name: the detection must find them.
KNOWN_WHILE_RUNNING = {"match", "match_board", "match_replay", "match_replay_frame", "api_match"}
KNOWN_ONCE_OVER = {
    "match",
    "match_board",
    "api_match",
    "match_replay",
    "match_replay_frame",
    "match_verify",
    "match_export",
    "history_export",
}

# More requests of one address than its plain GET: other steps and eyes of a replay,
# and the list alone that htmx asks the player's history for.
VARIANTS: dict[str, list[tuple[str, dict[str, str]]]] = {
    "match_replay": [("?step=0", {}), ("?eyes=all", {})],
    "match_replay_frame": [("?step=0", {}), ("?eyes=all", {})],
    "history_player": [("", {"HX-Request": "true"})],
}


@dataclass(frozen=True)
class Scene:
    """A match the requesting ``player`` is seated in, and what else an address may name."""

    player: User
    match: Match
    tournament: Tournament
    api_token: ApiToken
    api_secret: str


# What each URL argument is filled with, by its name. A new argument fails the walk
# until it is given one here: a value of the scene, for the seated player.
FILLERS: dict[str, Callable[[Scene], Any]] = {
    "match_id": lambda scene: scene.match.pk,
    "slug": lambda scene: scene.match.game,
    "username": lambda scene: scene.player.username,
    "tournament_id": lambda scene: scene.tournament.pk,
    "token_id": lambda scene: scene.api_token.pk,
    "token": lambda scene: tokens.make(scene.player.pk, "turn"),  # notify's unsubscribe link
    "name": lambda scene: "stream_bot.py",  # the API's example bot: public source, no match
    "device_id": lambda scene: 1,  # notify's "Remove" beside a push device: POST only, a GET is refused
    # allauth's password-reset link (its e-mail confirmation's key is then not valid,
    # which only changes the words of that page).
    "uidb36": lambda scene: int_to_base36(scene.player.pk),
    "key": lambda scene: default_token_generator.make_token(scene.player),
}


@dataclass(frozen=True)
class Route:
    name: str  # namespaced, as reverse() takes it
    route: str  # the whole pattern, for messages
    view: Callable[..., HttpResponseBase]
    arguments: tuple[str, ...]


def routes(
    patterns: list[URLPattern | URLResolver] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[Route]:
    """Every URL pattern of the site, through every include, the admin's left out."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == ADMIN_LEFT_OUT:
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from routes(entry.url_patterns, prefix + str(entry.pattern), inner)
            continue
        route = prefix + str(entry.pattern)
        regex = entry.pattern.regex
        assert regex.groups == len(regex.groupindex), f"{route}: an unnamed argument cannot be filled"
        assert entry.name, f"{route}: a pattern without a name cannot be reversed"
        yield Route(f"{namespace}{entry.name}", route, entry.callback, tuple(regex.groupindex))


def unfilled(route: Route) -> list[str]:
    return [argument for argument in route.arguments if argument not in FILLERS]


def address(route: Route, scene: Scene) -> str:
    missing = unfilled(route)
    assert not missing, f"{route.route}: no filler for {missing}: add one to FILLERS"
    url = reverse(route.name, kwargs={argument: FILLERS[argument](scene) for argument in route.arguments})
    assert resolve(url).func == route.view, f"{route.route}: {url} reaches another view"
    return url


def body_of(response: HttpResponseBase) -> str:
    if isinstance(response, StreamingHttpResponse):  # /history/export.jsonl
        return b"".join(response.streaming_content).decode()  # type: ignore[arg-type]
    return response.content.decode()  # type: ignore[attr-defined]


def is_private_and_not_stored(response: HttpResponseBase) -> bool:
    directives = {part.strip().lower() for part in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


def card_marks(cards: list[dict[str, Any]]) -> set[str]:
    """How an answer shows one of these cards: its opaque id (JSON), or its word where a
    board draws the card (every word card has a say-it-aloud button). Each card of the
    deck has its own word; the bare word is not a mark (a three-letter word can be in
    any page's text)."""
    return {card["id"] for card in cards} | {f'data-say="{card["word"]}"' for card in cards}


def hidden_from_others(mine: dict[str, Any], others: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards in ``mine`` that none of ``others`` shows (once each: a view may show
    a card twice, in a hand and in the log)."""
    shown = {card["id"] for view in others for card in cards_in(view)}
    return list({card["id"]: card for card in cards_in(mine) if card["id"] not in shown}.values())


@dataclass(frozen=True)
class Answer:
    name: str
    url: str
    shows_secrets: bool
    is_protected: bool
    cache_control: str


def walk_the_site(scene: Scene, marks: set[str]) -> list[Answer]:
    """Every address of the site, GET as the seated player: what each answer shows."""
    client = Client()
    client.force_login(scene.player)
    # Session and token both on every request: pages read one, the API the other.
    bearer = {"Authorization": f"Bearer {scene.api_secret}"}
    answers = []
    for route in routes():
        url = address(route, scene)
        for query, headers in [("", {}), *VARIANTS.get(route.name, [])]:
            response = client.get(url + query, headers={**bearer, **headers})
            body = body_of(response)
            answers.append(
                Answer(
                    name=route.name,
                    url=url + query,
                    shows_secrets=any(mark in body for mark in marks),
                    is_protected=is_private_and_not_stored(response),
                    cache_control=response.get("Cache-Control", ""),
                )
            )
    return answers


def check(answers: list[Answer], known: set[str]) -> None:
    showing = {answer.name for answer in answers if answer.shows_secrets}
    assert known <= showing, f"the detection no longer sees the secrets in {sorted(known - showing)}"
    unprotected = [
        f"{answer.url} (Cache-Control: {answer.cache_control!r})"
        for answer in answers
        if answer.shows_secrets and not answer.is_protected
    ]
    assert unprotected == [], "shows a seat's secrets, may be kept by a cache:\n" + "\n".join(unprotected)


@pytest.fixture
def tournament_table(ann: User, bob: User) -> tuple[Tournament, Match]:
    """A running Go Fox! table of a tournament: Ann and Bob, each with a hand of five."""
    tournament = make_tournament(ann, status=Tournament.Status.REGISTRATION)
    enter(tournament, [ann, bob])
    tournaments.tournament_start(tournament_id=tournament.pk)
    table = Table.objects.get(round__tournament=tournament)
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.RUNNING
    return tournament, match


def scene_for(player: User, match: Match, tournament: Tournament) -> Scene:
    # Every scope: the exports read the token too when one is sent (docs/export.md).
    api_token, secret = api_token_create(user=player, name="cache test", scopes=["play", "read", "export"])
    return Scene(player, match, tournament, api_token, secret)


def test_every_answer_showing_a_running_matchs_hand_is_private_and_not_stored(
    ann: User, tournament_table: tuple[Tournament, Match]
) -> None:
    tournament, match = tournament_table
    seat = match.seats.get(user=ann).index
    game, state = match.engine, match.decoded_state()
    others = [
        game.view(state, None),
        *(game.view(state, other) for other in range(state.players) if other != seat),
    ]
    hand = hidden_from_others(game.view(state, seat), others)
    assert len(hand) == 5, "Ann's hand: the cards only her seat sees"
    check(walk_the_site(scene_for(ann, match, tournament), card_marks(hand)), KNOWN_WHILE_RUNNING)


def test_every_answer_showing_a_finished_private_matchs_secrets_is_private_and_not_stored(
    ann: User, bob: User, tournament_table: tuple[Tournament, Match]
) -> None:
    tournament, _ = tournament_table
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility=Match.Visibility.PRIVATE,
        seats=[SeatRequest("me"), SeatRequest("invite", username=bob.username)],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    for _ in range(3):  # a few turns, so that a replay's steps differ
        until_turn_passes(match)
    match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.seed is not None
    game, state = match.engine, match.decoded_state()
    # What a spectator did not see while it ran: every hand and the pile, and the seed.
    revealed = hidden_from_others(game.reveal(state), [game.view(state, None)])
    assert len(revealed) > 10
    marks = card_marks(revealed) | {str(match.seed)}
    check(walk_the_site(scene_for(ann, match, tournament), marks), KNOWN_ONCE_OVER)


def test_the_walk_reaches_every_part_of_the_site() -> None:
    """The resolver's includes are walked: a pattern of each part of the site is met."""
    names = {route.name for route in routes()}
    for name in ["home", "match", "api_match", "review:page", "history_export", "tournaments:live",
                 "notify:unsubscribe", "profile", "ratings:leaderboard", "account_settings", "account_login"]:  # fmt: skip
        assert name in names


def test_a_pattern_with_an_argument_without_a_filler_is_caught() -> None:
    [route] = routes([path("widgets/<int:widget_id>/", home, name="widget")])
    assert unfilled(route) == ["widget_id"]


def test_the_admin_left_out_of_the_walk_is_never_cached(ann: User) -> None:
    client = Client()
    client.force_login(ann)
    for url in ["/admin/", "/admin/games/match/"]:
        assert is_private_and_not_stored(client.get(url)), url
