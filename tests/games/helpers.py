"""Helpers for the site's game tests: a logged-in client, the buttons on a page, the API."""

from __future__ import annotations

import html
import json
import random
import re
import uuid
from typing import Any

from django.test import Client

from accounts.models import User
from accounts.services import api_token_create
from games.models import Match, Seat
from games.services import match_submit_action

_DATA_ACTION = re.compile(r'data-action="([^"]*)"')
_ACTION_ID = re.compile(r'name="action_id" value="([0-9a-f-]+)"')
_ANY_ACTION_ID = re.compile(r'name="action_id" value="[0-9a-f-]*"')
_CSRF = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')
_LIVE = re.compile(r'<div id="match-live".*?<!-- /match-live -->', re.S)
_OFFLINE_DOT = re.compile(r'(<span class="online-dot" [^>]*?) hidden>')


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def action_buttons(page: str) -> list[dict[str, Any]]:
    """The actions of every action button on a page, in page order."""
    return [json.loads(html.unescape(raw)) for raw in _DATA_ACTION.findall(page)]


def first_action_id(page: str) -> str:
    """The action id of the first action form on a page (each rendering has fresh ones)."""
    found = _ACTION_ID.search(page)
    assert found is not None, "the page has no action form"
    return found.group(1)


def canonical(actions: list[dict[str, Any]]) -> list[str]:
    """Actions as sorted canonical JSON texts, to compare two lists as sets."""
    return sorted(json.dumps(action, sort_keys=True) for action in actions)


def token_for(user: User) -> str:
    return api_token_create(user=user, name="my bot")[1]


def api(method: str, path: str, token: str | None, body: Any = None, raw: bytes | None = None) -> Any:
    """One JSON API call with a bearer token (``raw``: bytes sent as they are)."""
    client = Client()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if method == "GET":
        return client.get(path, headers=headers)
    data = raw if raw is not None else json.dumps(body)
    return client.post(path, data=data, content_type="application/json", headers=headers)


def normalised(html: str) -> str:
    """Per-rendering noise removed: CSRF token fields and the fresh action ids of the forms."""
    return _ANY_ACTION_ID.sub('name="action_id" value=""', _CSRF.sub("", html))


def without_presence(html: str) -> str:
    """Every online dot drawn as shown: who had the match open when a board was drawn is
    no part of what it shows of the game (the dots are public, and come and go)."""
    return _OFFLINE_DOT.sub(r"\1>", html)


def live_part(html: str) -> str:
    """The live area of a page or frame (the rest of a page is chat and chrome), normalised."""
    found = _LIVE.search(html)
    assert found, "no live area"
    return normalised(found.group(0))


def random_move(
    match: Match, people: dict[int, User], rng: random.Random
) -> tuple[User, int, dict[str, Any], str]:
    """One random legal move through the services, as a player would make it: a seat
    that owes a decision, one of its legal actions, with a fresh action id. Returns
    (who, the ply it was made at, the action, its action id), for a test to resend."""
    match.refresh_from_db()
    game = match.engine
    state = match.decoded_state()
    seat = rng.choice(game.to_act(state))
    action = rng.choice(game.legal_actions(state, seat))
    action_id = str(uuid.uuid4())
    ply = match.ply
    match_submit_action(match_id=match.pk, user=people[seat], action=action, ply=ply, action_id=action_id)
    return people[seat], ply, action, action_id


# -- whose turn, and playing it (the first legal action) -------------------------------


def seat(match: Match, index: int) -> Seat:
    return Seat.objects.select_related("user").get(match=match, index=index)


def on_turn(match: Match) -> int:
    """The first seat that owes a decision now."""
    match.refresh_from_db()
    return int(match.engine.to_act(match.decoded_state())[0])


def play(match: Match, index: int) -> None:
    """Seat ``index`` plays its first legal action, through the services."""
    match.refresh_from_db()
    action = match.engine.legal_actions(match.decoded_state(), index)[0]
    player = seat(match, index).user
    assert player is not None
    match_submit_action(match_id=match.pk, user=player, action=action, ply=match.ply)


def until_turn_passes(match: Match) -> int:
    """Play the seat on turn until another seat is (Go Fox! may keep the turn); who is on now."""
    first = on_turn(match)
    while on_turn(match) == first:
        play(match, first)
    return on_turn(match)
