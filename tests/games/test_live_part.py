"""The live part of the match page (players, turn line, log) and its chat box, through
the test client: what the page says, read from its HTML (issue 21)."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_submit_action
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db

_LOG = re.compile(r'<ol class="log-list" reversed start="(\d+)"[^>]*>(.*?)</ol>', re.S)
_ENTRY = re.compile(r"<li>(.*?)</li>", re.S)


def turn_line(client: Client, match: Match) -> str:
    page = client.get(f"/matches/{match.pk}/").content.decode()
    found = re.search(r'id="turn-line">(.*?)</p>', page, re.S)
    assert found, "the page has no turn line"
    return " ".join(found.group(1).split())


def play_until_the_log_has(match: Match, players: dict[int, User], entries: int) -> int:
    """Play random legal moves through the services until the log has ``entries`` entries."""
    rng = random.Random(7)
    game = match.engine
    while True:
        match.refresh_from_db()
        state = match.decoded_state()
        assert match.status == Match.Status.RUNNING, "the match ended before its log was long enough"
        logged = len(game.view(state, None)["log"])
        if logged >= entries:
            return logged
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        match_submit_action(match_id=match.pk, user=players[seat], action=action, ply=match.ply)


def test_the_turn_line_lists_whoever_is_awaited_in_words(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    carl = make_person("carl", display_name="Carl")
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1}, visibility="public",
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("invite", username="carl")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carl)
    match.refresh_from_db()
    spectator = Client()
    assert turn_line(spectator, match) == "Waiting for Ann, Bob and Carl."

    # Carl (the last seat) chooses first: the last one awaited is no longer in the last seat.
    state = match.decoded_state()
    match_submit_action(
        match_id=match.pk, user=carl, action=match.engine.legal_actions(state, 2)[0], ply=match.ply
    )
    assert turn_line(spectator, match) == turn_line(logged_in(carl), match) == "Waiting for Ann and Bob."


def duel_of_rounds(ann: User, bob: User, rounds: int) -> Match:
    """Don't Go Boom between Ann (seat 0) and Bob (seat 1), running."""
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": rounds},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def test_the_log_shows_every_event_with_its_real_number(ann: User, bob: User) -> None:
    match = duel_of_rounds(ann, bob, 5)
    logged = play_until_the_log_has(match, {0: ann, 1: bob}, 105)
    page = logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    found = _LOG.search(page)
    assert found, "the page has no numbered log"
    entries = [html.unescape(text) for text in _ENTRY.findall(found.group(2))]
    # Newest first, numbered from the real count down to 1: the first event is reachable.
    assert int(found.group(1)) == len(entries) == logged
    view_log = match.engine.view(match.decoded_state(), 0)["log"]
    assert entries[-1] == view_log[0]["text"].replace("{s0}", "Ann").replace("{s1}", "Bob")
    assert "{s" not in entries[0]


def its_a_bomb(ann: User, bob: User) -> Match:
    """It's a Bomb! with Ann as the Crisis Unit (seat 0) and Bob as a Consultant, running."""
    match = match_create(
        creator=ann, game_slug="its-a-bomb", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def test_the_crisis_unit_is_told_why_it_cannot_chat_instead_of_a_box_that_refuses(
    ann: User, bob: User
) -> None:
    match = its_a_bomb(ann, bob)
    crisis_unit = logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    assert re.search(r'<form [^>]*id="chat-form"[^>]* hidden', crisis_unit), "the box is hidden"
    assert re.search(r'<p [^>]*id="chat-closed"[^>]*>[^<]*keeps? silent', crisis_unit)
    assert re.search(r'id="match-live"[^>]*data-chat-closed="yes"', crisis_unit)

    consultant = logged_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert re.search(r'<form [^>]*id="chat-form"[^>]*>', consultant)
    assert not re.search(r'<form [^>]*id="chat-form"[^>]* hidden', consultant)
    assert re.search(r'<p [^>]*id="chat-closed"[^>]* hidden', consultant)
    assert re.search(r'id="match-live"[^>]*data-chat-closed="no"', consultant)

    # Once the game is over, the Crisis Unit may talk again.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    after = logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    assert not re.search(r'<form [^>]*id="chat-form"[^>]* hidden', after)
