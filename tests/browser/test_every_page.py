"""Every page the site serves, swept by axe-core in chromium (issue 34, item 1): signed
out, signed in and as an organiser in the admin, each game's pages and its match pages
running and finished. No critical or serious finding, nor any of the rules testers met
besides (``ALSO_CHECKED``: heading order, a button's name that is not its words, a
scroll box the keyboard cannot reach). The visitor browses at a phone's width, the
signed-in person and the organiser at a desktop's; one browser context each.

The sweep is kept complete by ``test_every_named_page_is_swept_or_said_not_to_be_one``,
which needs no browser: each named address of the site's URL resolver is either visited
below (``SIGNED_OUT``, ``SIGNED_IN``, ``ORGANISER``) or listed in ``NOT_PAGES`` with the
reason it is not a page of its own. A new page is one line in one of the three lists.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import User
from games.engine import all_games
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_submit_action
from tests.browser.axe import ALSO_CHECKED, serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.conftest import ensure_bot_accounts

SLUGS = [game.slug for game in all_games()]
# Short matches, so that every game is played to its end quickly.
SHORT: dict[str, dict[str, Any]] = {"dont-go-boom": {"rounds": 1}}


@dataclass
class Scene:
    """What the pages show: people, a match per game running (the signed-in person's
    turn) and finished, a running tournament. Made once, before the sweep."""

    person: User  # signed in: Ann
    other: User  # Bob, across the table
    unverified: User  # Carl, who has not confirmed his address yet
    organiser: User
    running: dict[str, Match] = field(default_factory=dict)
    finished: dict[str, Match] = field(default_factory=dict)
    tournament_id: int = 0  # running, Ann at a table
    draft_id: int = 0  # being set up: an organiser may still delete it


Args = Callable[[Scene, str], dict[str, Any]]


@dataclass(frozen=True)
class Visit:
    """One page to sweep: a URL name and how to fill its arguments from the scene and a
    game's slug (each game's in turn with ``per_game``, the first game's otherwise)."""

    name: str
    args: Args | None = None
    per_game: bool = False
    query: str = ""
    status: int = 200
    # The page is ready to check when this shows (a match page once its socket pushed).
    ready: str = "body"
    note: str = ""

    def urls(self, scene: Scene) -> Iterator[tuple[str, str]]:
        for slug in SLUGS if self.per_game else SLUGS[:1]:
            kwargs = self.args(scene, slug) if self.args else {}
            label = " ".join(part for part in (self.name, slug if self.per_game else "", self.note) if part)
            yield label, reverse(self.name, kwargs=kwargs) + self.query


def game(_scene: Scene, slug: str) -> dict[str, Any]:
    return {"slug": slug}


def running_match(scene: Scene, slug: str) -> dict[str, Any]:
    return {"match_id": scene.running[slug].pk}


def finished_match(scene: Scene, slug: str) -> dict[str, Any]:
    return {"match_id": scene.finished[slug].pk}


def person(scene: Scene, _slug: str) -> dict[str, Any]:
    return {"username": scene.person.username}


def other(scene: Scene, _slug: str) -> dict[str, Any]:
    return {"username": scene.other.username}


def tournament(scene: Scene, _slug: str) -> dict[str, Any]:
    return {"tournament_id": scene.tournament_id}


def email_key(scene: Scene, _slug: str) -> dict[str, Any]:
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC

    address = EmailAddress.objects.get(user=scene.unverified)
    return {"key": EmailConfirmationHMAC(address).key}


def password_key(scene: Scene, _slug: str) -> dict[str, Any]:
    from allauth.account.forms import default_token_generator
    from allauth.account.utils import user_pk_to_url_str

    return {
        "uidb36": user_pk_to_url_str(scene.person),
        "key": default_token_generator.make_token(scene.person),
    }


def unsubscribe_token(scene: Scene, _slug: str) -> dict[str, Any]:
    from games.notify import tokens

    return {"token": tokens.make(scene.person.pk, "turn")}


def admin_tournament(scene: Scene, _slug: str) -> dict[str, Any]:
    return {"object_id": scene.tournament_id}


def admin_table(scene: Scene, _slug: str) -> dict[str, Any]:
    from games.tournaments.models import Table

    return {"object_id": Table.objects.filter(round__tournament_id=scene.tournament_id).first().pk}  # type: ignore[union-attr]


LIVE_MATCH = "#match-page[data-connected='yes']"
PHONE = {"width": 390, "height": 844}

# ---- The sweep: add a page here, one line, in the state it is seen in. ----

SIGNED_OUT = [
    Visit("home"),
    Visit("play"),
    Visit("game_detail", game, note="signed out"),
    Visit("how_to_play", game, per_game=True),
    Visit("ratings:leaderboard", game),
    Visit("match", running_match, ready=LIVE_MATCH, note="watched by a visitor"),
    Visit("match_replay", finished_match, query="?step=x", status=400, note="refused"),
    Visit("profile", person),
    Visit("history_player", person),
    Visit("tournaments:list"),
    Visit("tournaments:detail", tournament, note="watched by a visitor"),
    Visit("api_docs"),
    Visit("api_export_docs"),
    Visit("api_game_docs", game, per_game=True),
    Visit("account_login"),
    Visit("account_signup"),
    Visit("account_reset_password"),
    Visit("account_reset_password_done"),
    Visit("account_reset_password_from_key", password_key),
    Visit(
        "account_reset_password_from_key", lambda scene, slug: {"uidb36": "0", "key": "x"}, note="bad link"
    ),
    Visit("account_reset_password_from_key_done"),
    Visit("account_email_verification_sent"),
    Visit("account_confirm_email", email_key),
    Visit("account_confirm_email", lambda scene, slug: {"key": "no-such-key"}, note="bad key"),
    Visit("account_inactive"),
    Visit("notify:unsubscribe", unsubscribe_token),
    Visit("notify:unsubscribe", lambda scene, slug: {"token": "no-such-token"}, status=400, note="bad link"),
    Visit("admin:login"),
]
SIGNED_IN = [
    Visit("home", note="signed in"),
    Visit("play", note="signed in"),
    Visit("game_detail", game, per_game=True),
    Visit("my_matches"),
    Visit("match", running_match, per_game=True, ready=LIVE_MATCH, note="your turn"),
    Visit("match", finished_match, per_game=True, ready=LIVE_MATCH, note="finished"),
    Visit("match_replay", finished_match, per_game=True, note="finished"),
    Visit("match_replay", running_match, note="running"),
    Visit("match_verify", finished_match),
    Visit("review:page", finished_match),
    Visit("history"),
    Visit("profile", person, note="one's own"),
    Visit("profile", other, note="another's: follow, block, challenge"),
    Visit("social:challenge", other, query="?game=go-fox"),
    Visit("tournaments:detail", tournament, note="an entrant's"),
    Visit("account_settings"),
    Visit("account_email"),
    Visit("account_change_password"),
    Visit("account_reauthenticate"),
    Visit("account_logout"),
]
ORGANISER = [
    Visit("admin:index"),
    Visit("admin:tournaments_tournament_changelist"),
    Visit("admin:tournaments_tournament_add"),
    Visit("admin:tournaments_tournament_change", admin_tournament),
    Visit("admin:tournaments_tournament_history", admin_tournament),
    Visit("admin:tournaments_tournament_delete", lambda scene, slug: {"object_id": scene.draft_id}),
    Visit("admin:tournaments_table_changelist"),
    Visit("admin:tournaments_table_change", admin_table),
    Visit("admin:password_change"),
]
# Addresses no URL name reaches: the site's own page for an address nothing answers.
UNNAMED = [("404 page", "/no-such-page/", 404)]

# ---- Named addresses that are not pages of their own, and why. ----

FRAGMENT = "a part of a page, fetched by its script: swept inside that page"
NOT_PAGES = {
    "healthz": "plain text for the load balancer",
    "metrics": "Prometheus text",
    "match_board": f"{FRAGMENT} (the match page)",
    "match_replay_frame": f"{FRAGMENT} (the replay)",
    "tournaments:live": f"{FRAGMENT} (the tournament page)",
    "api_match": "JSON (the API)",
    "api_match_actions": "JSON (the API)",
    "api_history": "JSON (the API)",
    "api_openapi": "JSON (the API's description)",
    "api_example": "plain text: an example bot's source, to save and run",
    "api_view_schema": "JSON Schema (the API's documentation)",
    "api_action_schema": "JSON Schema (the API's documentation)",
    "review:status": "JSON for the review page's script",
    "review:json": "JSON download",
    "match_export": "JSON download",
    "history_export": "JSON Lines download",
    "tournaments:export_json": "JSON download",
    "tournaments:export_csv": "CSV download",
    "quick_match": "POST only: makes a match and redirects to it",
    "match_act": "POST only (a move), redirects to the match",
    "match_join": "POST only, redirects to the match",
    "match_decline": "POST only, redirects",
    "match_leave": "POST only, redirects",
    "match_resign": "POST only, redirects to the match",
    "match_chat": "POST only, redirects to the match",
    "match_rematch": "POST only, redirects to the new match",
    "review:start": "POST only, redirects to the review",
    "tournaments:register": "POST only, redirects to the tournament",
    "tournaments:withdraw": "POST only, redirects to the tournament",
    "notification_settings": "POST only: its form is on the account page (shown again there when refused)",
    "api_token_new": "POST only, redirects to the account page",
    "api_token_revoke": "POST only, redirects to the account page",
    "notify:vacation_begin": "POST only, redirects to the account page",
    "notify:vacation_end": "POST only, redirects to the account page",
    "home_live": f"{FRAGMENT} (the signed-in home page)",
    "notify:service_worker": "JavaScript: the service worker",
    "notify:push_subscribe": "JSON, posted by the account page's script",
    "notify:push_unsubscribe": "JSON, posted by the account page's script",
    "notify:push_choices": "POST only, redirects to the account page",
    "notify:push_device_remove": "POST only, redirects to the account page",
    "social:follow": "POST only, redirects to the profile",
    "social:unfollow": "POST only, redirects to the profile",
    "social:block": "POST only, redirects to the profile",
    "social:unblock": "POST only, redirects to the profile",
    "social:api_challenges": "JSON (the API)",
    "social:api_accept": "JSON (the API)",
    "social:api_decline": "JSON (the API)",
    "api_games": "JSON (the API)",
    "api_lobby": "JSON (the API)",
    "api_matches": "JSON (the API)",
    "api_match_join": "JSON (the API)",
    "api_match_leave": "JSON (the API)",
    "api_match_resign": "JSON (the API)",
    "api_match_chat": "JSON (the API)",
    "bot_account": "POST only: its form is on the account page",
    "account_set_password": "every account here has a password (no sign-in elsewhere): redirects to the change page",
    "account_confirm_login_code": "sign-in by emailed code is off (ACCOUNT_LOGIN_BY_CODE_ENABLED): with no code sent, it redirects",
}
# The admin's other pages are Django's own, drawn by the same templates as the tournament
# pages an organiser uses (swept above), and open to the site's staff only.
ADMIN_PREFIX = "admin:"


def named_pages(resolver: URLResolver | None = None, namespace: str = "") -> Iterator[str]:
    """Every URL name the site answers, with its namespace ("ratings:leaderboard")."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from named_pages(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield namespace + pattern.name


def test_every_named_page_is_swept_or_said_not_to_be_one() -> None:
    swept = {visit.name for visit in SIGNED_OUT + SIGNED_IN + ORGANISER}
    names = set(named_pages())
    missing = sorted(name for name in names - swept - NOT_PAGES.keys() if not name.startswith(ADMIN_PREFIX))
    assert missing == [], (
        "pages the accessibility sweep does not visit: add each to SIGNED_OUT, SIGNED_IN or "
        "ORGANISER in tests/browser/test_every_page.py, or to NOT_PAGES with the reason it is no page"
    )
    assert sorted((swept | NOT_PAGES.keys()) - names) == [], "names the site no longer has"
    assert swept.isdisjoint(NOT_PAGES), "a page both swept and said not to be one"


# ---- Making the scene ----


def play_random(
    match: Match, players: dict[int, User], rng: random.Random, *, until: Callable[[Match], bool]
) -> Match:
    """Random legal moves by whoever is to act, until ``until`` holds or the match ends."""
    for _ in range(2_000):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING or until(match):
            return match
        state = match.decoded_state()
        seat = match.engine.to_act(state)[0]
        action = rng.choice(match.engine.legal_actions(state, seat))
        match_submit_action(match_id=match.pk, user=players[seat], action=action, ply=match.ply)
    raise AssertionError(f"{match.game} went on for 2000 moves")


def new_match(scene: Scene, slug: str) -> tuple[Match, dict[int, User]]:
    # In It's a Bomb! seat 0 is the Crisis Unit: the person plays an employee.
    mine = 1 if slug == "its-a-bomb" else 0
    seats = [SeatRequest("me"), SeatRequest("invite", username=scene.other.username)]
    if mine:
        seats.reverse()
    match = match_create(
        creator=scene.person, game_slug=slug, options=SHORT.get(slug, {}), visibility="public", seats=seats
    )
    match_join(match_id=match.pk, user=scene.other)
    return match, {mine: scene.person, 1 - mine: scene.other}


def persons_turn(scene: Scene, players: dict[int, User]) -> Callable[[Match], bool]:
    mine = next(seat for seat, user in players.items() if user == scene.person)

    def turn(match: Match) -> bool:
        return match.ply >= 3 and mine in match.engine.to_act(match.decoded_state())

    return turn


def make_scene() -> Scene:
    from allauth.account.models import EmailAddress

    from games.tournaments import services as tournaments
    from tests.games.tournaments.helpers import enter, make_tournament, organisers_group

    ensure_bot_accounts()
    people = {
        name: User.objects.create_user(
            username=name, display_name=name.title(), email=f"{name}@example.com", password=f"pw-{name}"
        )
        for name in ("ann", "bob", "carl", "dora")
    }
    for name, user in people.items():
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=name != "carl")
    organiser = User.objects.create_user(username="olga", is_staff=True)
    organiser.groups.add(organisers_group())
    scene = Scene(person=people["ann"], other=people["bob"], unverified=people["carl"], organiser=organiser)
    rng = random.Random(34)
    for slug in SLUGS:
        for _attempt in range(10):  # a random game may end before Ann's turn comes: deal again
            match, players = new_match(scene, slug)
            match = play_random(match, players, rng, until=persons_turn(scene, players))
            if match.status == Match.Status.RUNNING:
                scene.running[slug] = match
                break
        assert slug in scene.running, f"{slug} ended before Ann's turn ten times"
        match, players = new_match(scene, slug)
        scene.finished[slug] = play_random(match, players, rng, until=lambda match: False)
        assert scene.finished[slug].status == Match.Status.FINISHED, slug
    cup = make_tournament(organiser, name="Sweep Cup", format="swiss", swiss_rounds=2)
    enter(cup, list(people.values()))
    tournaments.tournament_start(tournament_id=cup.pk)
    scene.tournament_id = cup.pk
    scene.draft_id = make_tournament(organiser, name="Spring Cup", status="draft").pk
    return scene


# ---- The sweep ----


def sweep(context: Any, base_url: str, visits: list[Visit], scene: Scene) -> dict[str, list[str]]:
    page = context.new_page()
    found: dict[str, list[str]] = {}
    for visit in visits:
        for label, url in visit.urls(scene):
            response = page.goto(base_url + url)
            status = response.status if response else None
            if status != visit.status:
                found[f"{label} ({url})"] = [f"answered {status}, not {visit.status}"]
                continue
            page.wait_for_selector(visit.ready)
            findings = serious_findings(page, also=ALSO_CHECKED)
            if findings:
                found[f"{label} ({url})"] = findings
    page.close()
    return found


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_has_no_serious_accessibility_finding(live_site: str, browser: Any) -> None:
    scene = off_the_event_loop(make_scene)
    found: dict[str, list[str]] = {}

    # A visitor on a phone (where the how-to-play tables scroll sideways), the others at a desktop's width.
    visitor = browser.new_context(viewport=PHONE)
    found |= sweep(visitor, live_site, SIGNED_OUT, scene)
    page = visitor.new_page()
    for label, path, status in UNNAMED:
        response = page.goto(live_site + path)
        assert response is not None and response.status == status, label
        if findings := serious_findings(page, also=ALSO_CHECKED):
            found[label] = findings
    visitor.close()

    player = browser.new_context()
    log_in(player, live_site, scene.person)
    found |= sweep(player, live_site, SIGNED_IN, scene)
    player.close()

    organiser = browser.new_context()
    log_in(organiser, live_site, scene.organiser)
    found |= sweep(organiser, live_site, ORGANISER, scene)
    organiser.close()

    assert found == {}, "\n".join(f"{page}:\n  " + "\n  ".join(items) for page, items in found.items())
