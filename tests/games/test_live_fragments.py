"""games/live/fragments.py: the live part comes out the same on the page and over the socket.

The page renders the live part with the viewer's request; the socket renders it with
no request at all. Whatever in it depends on the viewer (who may join, who is "you",
which buttons show) must not differ between the two, for every kind of viewer: a
socket once pushed "Log in to join" to a signed-in person holding an invitation link.

Over the sockets one read of a match (a ``LivePicture``) serves every socket a doorbell
reaches in a process, rendered once per kind of viewer: each viewer still gets exactly
what was rendered for it alone, and a seat never another seat's board.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import User
from games.live import fragments as live_fragments
from games.live.fragments import live_html, read_live_picture
from games.models import Match
from games.selectors import access
from games.services import SeatRequest, match_create
from tests.games.helpers import live_part, logged_in, normalised, on_turn, play
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


# -- one read of a match, one render per kind of viewer -----------------------------


def test_a_picture_renders_once_per_kind_of_viewer_and_each_viewer_gets_its_own_kind(
    two_player_match: Match, ann: User, bob: User, make_person: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = two_player_match
    play(match, on_turn(match))  # a board with a past: a log, and one seat to move
    rendered: list[str] = []

    def counting_live_html(*args: Any, **kwargs: Any) -> str:
        html = live_html(*args, **kwargs)
        rendered.append(html)
        return html

    monkeypatch.setattr(live_fragments, "live_html", counting_live_html)
    picture = read_live_picture(match.pk)
    assert picture is not None
    carl, dana = make_person("carl"), make_person("dana")
    viewers: list[tuple[str, User | AnonymousUser]] = [
        ("Ann", ann), ("Ann, in a second tab", ann), ("Bob", bob),
        ("Carl, a spectator", carl), ("Dana, a spectator", dana),
        ("a signed-out spectator", AnonymousUser()), ("another signed-out spectator", AnonymousUser()),
    ]  # fmt: skip
    got = {what: picture.live_html(picture.access_for(user)) for what, user in viewers}
    # Ann's seat, Bob's seat, the signed-in spectators, the signed-out ones: four renders.
    assert len(rendered) == 4
    assert got["Ann"] is got["Ann, in a second tab"] and got["Carl, a spectator"] is got["Dana, a spectator"]
    # Each viewer's text is the one rendered afresh for them alone (the action ids aside):
    # a seat never gets another seat's board, a spectator never a seat's.
    for what, user in viewers:
        alone = access(match.pk, user)
        assert normalised(got[what]) == normalised(live_html(alone, online=picture.online_for(alone))), what
    # (Spectators signed in or out differ only while a match is open: join, or log in.)
    assert len({normalised(got[what]) for what in ("Ann", "Bob", "Carl, a spectator")}) == 3
    assert "Your turn." in got["Ann"] or "Your turn." in got["Bob"]
    assert "Your turn." not in got["Carl, a spectator"]
    # A spectator in another time zone sees the same text (a paused clock's date is
    # written in its player's zone): no render of its own.
    erin = make_person("erin", time_zone="Asia/Tokyo")
    assert picture.live_html(picture.access_for(erin)) is got["Carl, a spectator"]
    assert len(rendered) == 4


def test_a_picture_is_read_once_for_every_socket_a_doorbell_reaches_in_a_process(
    two_player_match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []

    def counting_read(match_id: int) -> live_fragments.LivePicture | None:
        reads.append(match_id)
        return read_live_picture(match_id)

    monkeypatch.setattr(live_fragments, "read_live_picture", counting_read)
    shared = live_fragments.PicturesByDoorbell()
    first = shared.picture(two_player_match.pk, "ring-1", sockets=3)
    assert shared.picture(two_player_match.pk, "ring-1", sockets=3) is first
    assert shared.picture(two_player_match.pk, "ring-1", sockets=3) is first
    assert reads == [two_player_match.pk] and shared.held() == 0  # all three took it: let go
    # The next doorbell is the next read, even for the same ply (a change that kept it).
    assert shared.picture(two_player_match.pk, "ring-2", sockets=1) is not first
    assert len(reads) == 2


def test_a_picture_not_taken_by_every_socket_is_let_go_after_a_while(
    two_player_match: Match,
) -> None:
    now = [1000.0]
    shared = live_fragments.PicturesByDoorbell(clock=lambda: now[0])
    shared.picture(two_player_match.pk, "ring-1", sockets=2)  # the other socket closed
    now[0] += shared.KEEP_SECONDS / 2
    shared.picture(two_player_match.pk, "ring-2", sockets=2)
    assert shared.held() == 2
    now[0] += shared.KEEP_SECONDS / 2 + 1
    shared.picture(two_player_match.pk, "ring-3", sockets=2)
    assert shared.held() == 2  # ring-2's and ring-3's, still waited for; ring-1's is gone


def test_the_first_socket_s_failed_read_is_raised_to_it_and_the_others_read_again(
    two_player_match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def failing_once(match_id: int) -> live_fragments.LivePicture | None:
        calls.append(match_id)
        if len(calls) == 1:
            raise ConnectionError("the database went away")
        return read_live_picture(match_id)

    monkeypatch.setattr(live_fragments, "read_live_picture", failing_once)
    shared = live_fragments.PicturesByDoorbell()
    with pytest.raises(ConnectionError):
        shared.picture(two_player_match.pk, "ring-1", sockets=2)
    picture = shared.picture(two_player_match.pk, "ring-1", sockets=2)
    assert picture is not None and picture.ply == two_player_match.ply and len(calls) == 2
