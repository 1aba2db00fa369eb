"""games/live_fragments.py: the live part comes out the same on the page and over the socket.

The page renders the live part with the viewer's request; the socket renders it with
no request at all. Whatever in it depends on the viewer (who may join, who is "you",
which buttons show) must not differ between the two, for every kind of viewer: a
socket once pushed "Log in to join" to a signed-in person holding an invitation link.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create
from tests.games.helpers import live_part, logged_in
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


def page_and_socket(match: Match, user: User | None, invite: str = "") -> tuple[str, str]:
    """The live part as the page shows it and as the socket pushes it, for one viewer."""
    suffix = f"?invite={invite}" if invite else ""
    client = logged_in(user) if user is not None else Client()
    response = client.get(f"/matches/{match.pk}/{suffix}")
    assert response.status_code == 200
    pushed: dict[str, Any] = {}
    viewer = Viewer(user)  # its session is made here: the database is not for the event loop

    async def scenario() -> None:
        ws = socket(match.pk, viewer, path_suffix=suffix)
        assert (await ws.connect())[0]
        pushed.update(await next_of(ws, "board"))
        await ws.disconnect()

    run(scenario)
    return live_part(response.content.decode()), live_part(pushed["html"])


def test_every_kind_of_viewer_sees_the_same_live_part_on_the_page_and_over_the_socket(
    ann: User, bob: User, make_person: Any, duel: Match
) -> None:
    carl = make_person("carl", display_name="Carl")
    public_open = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    private_open = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility="private",
        seats=[SeatRequest("me"), SeatRequest("open")],
    )  # fmt: skip
    invitation = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="carl")],
    )
    cases = [
        ("a stranger, signed out, at an open public match", public_open, None, ""),
        ("a stranger, signed in, at an open public match", public_open, bob, ""),
        ("its creator, seated, waiting", public_open, ann, ""),
        (
            "a person with the invitation link to a private match",
            private_open,
            bob,
            private_open.invite_token,
        ),
        ("the creator of the private match", private_open, ann, ""),
        ("an invited person who has not answered", invitation, carl, ""),
        ("a player, in a running match", duel, ann, ""),
        ("the other player", duel, bob, ""),
        ("a spectator, signed in", duel, carl, ""),
        ("a spectator, signed out", duel, None, ""),
    ]
    for what, match, user, invite in cases:
        page, pushed = page_and_socket(match, user, invite)
        assert page == pushed, f"{what}: the page and the socket differ"
    # The case that broke: the link's holder is offered the seat on both, not a login.
    page, pushed = page_and_socket(private_open, bob, private_open.invite_token)
    assert 'id="join-match"' in pushed and "Log in to join" not in pushed
