"""The match socket, in process, with the real ASGI stack and the real Redis channel layer."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any
from urllib.parse import urlsplit

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from accounts.models import User
from boomsite.asgi import application
from boomsite.origins import origin_of
from games.engine import get
from games.live import fragments as live_fragments
from games.live import push
from games.live.broadcast import match_group, send_match_updated
from games.live.consumers import BURST
from games.live.fragments import live_html
from games.models import ChatMessage, Match, Move
from games.selectors import access
from games.services import match_submit_action
from tests.games.helpers import action_buttons, canonical, normalised, without_presence
from tests.games.sockets import Viewer, next_of, run, socket, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def legal_now(match: Match, seat: int) -> list[str]:
    match.refresh_from_db()
    game = get(match.game)
    state = match.decoded_state()
    return canonical(game.legal_actions(state, seat) if seat in game.to_act(state) else [])


def test_a_move_over_the_socket_reaches_the_other_player_as_their_own_board(
    duel: Match, ann: User, bob: User
) -> None:
    seat, action = to_act(duel)
    mover, watcher = (Viewer(ann), Viewer(bob)) if seat == 0 else (Viewer(bob), Viewer(ann))
    watcher_seat = 1 - seat

    async def scenario() -> None:
        first, second = socket(duel.pk, mover), socket(duel.pk, watcher)
        assert (await first.connect())[0] and (await second.connect())[0]
        board = await next_of(first, "board")
        assert board["ply"] == 0 and "Your turn." in board["html"] and action_buttons(board["html"])
        assert action_buttons((await next_of(second, "board"))["html"]) == []
        action_id = str(uuid.uuid4())
        await first.send_json_to({"type": "act", "action": action, "ply": 0, "action_id": action_id})
        assert await next_of(first, "acted") == {
            "type": "acted",
            "ply": 1,
            "action_id": action_id,
            "duplicate": False,
        }
        pushed = await next_of(second, "board")
        assert pushed["ply"] == 1 and 'data-ply="1"' in pushed["html"]
        # The watcher's own board: their buttons are exactly their legal actions now.
        assert canonical(action_buttons(pushed["html"])) == await database_sync_to_async(legal_now)(
            duel, watcher_seat
        )
        # A resend of the same action (the answer was lost) gets the same answer, and nothing is played twice.
        await first.send_json_to({"type": "act", "action": action, "ply": 0, "action_id": action_id})
        assert (await next_of(first, "acted"))["duplicate"] is True
        await first.disconnect()
        await second.disconnect()

    run(scenario)
    assert Move.objects.filter(match=duel).count() == 1


def test_bad_messages_get_clear_errors_and_change_nothing(duel: Match, ann: User, bob: User) -> None:
    seat, action = to_act(duel)
    mover, other = (Viewer(ann), Viewer(bob)) if seat == 0 else (Viewer(bob), Viewer(ann))

    async def scenario() -> None:
        ws = socket(duel.pk, mover)
        await ws.connect()
        await next_of(ws, "board")
        cases: list[tuple[Any, str]] = [
            ("{not json", "malformed_message"),
            ({"type": "dance"}, "unknown_message"),
            (["act"], "unknown_message"),
            ({"type": "act", "action": action, "ply": 7}, "bad_ply"),
            ({"type": "act", "action": action, "ply": "0"}, "bad_ply"),
            ({"type": "act", "action": {"type": "explode"}, "ply": 0}, "unknown_action"),
            ({"type": "act", "action": "draw", "ply": 0}, "malformed_action"),
            ({"type": "act", "action": action, "ply": 0, "action_id": "nope"}, "bad_action_id"),
            ({"type": "chat", "text": ""}, "empty_message"),
        ]
        for message, code in cases:
            if isinstance(message, str):
                await ws.send_to(text_data=message)
            else:
                await ws.send_json_to(message)
            error = await next_of(ws, "error")
            assert error["code"] == code and error["message"], message
        await ws.send_to(bytes_data=b"\x00\x01")
        assert (await next_of(ws, "error"))["code"] == "malformed_message"
        await ws.disconnect()
        # The player who is not to move is refused too.
        ws = socket(duel.pk, other)
        await ws.connect()
        await ws.send_json_to({"type": "act", "action": action, "ply": 0})
        assert (await next_of(ws, "error"))["code"] == "not_your_turn"
        await ws.disconnect()

    run(scenario)
    assert Move.objects.count() == 0 and Match.objects.get(pk=duel.pk).ply == 0


def test_spectators_watch_public_matches_only_and_cannot_act(
    duel: Match, ann: User, make_person: Any
) -> None:
    _seat, action = to_act(duel)
    stranger, nobody, owner = Viewer(make_person()), Viewer(None), Viewer(ann)

    async def scenario() -> None:
        for viewer in (stranger, nobody):
            ws = socket(duel.pk, viewer)
            assert (await ws.connect())[0]
            assert action_buttons((await next_of(ws, "board"))["html"]) == []
            await ws.send_json_to({"type": "act", "action": action, "ply": 0})
            assert (await next_of(ws, "error"))["code"] in ("not_your_seat", "login_required")
            await ws.disconnect()

    run(scenario)
    Match.objects.filter(pk=duel.pk).update(visibility=Match.Visibility.PRIVATE)

    async def private() -> None:
        for match_id, viewer in ((duel.pk, stranger), (duel.pk, nobody), (10**6, owner)):
            refused = socket(match_id, viewer)
            connected, code = await refused.connect()
            assert not connected and code == 4404
            await refused.disconnect()  # let the consumer finish, or the loop's shutdown waits on it
        ws = socket(duel.pk, owner)
        assert (await ws.connect())[0]
        await ws.disconnect()

    run(private)
    assert Move.objects.count() == 0


def _other_port(origin: str) -> str:
    parts = urlsplit(origin)
    return f"{parts.scheme}://{parts.hostname}:{(parts.port or 80) + 1}"


def _other_scheme(origin: str) -> str:
    return (
        origin.replace("http://", "https://", 1)
        if origin.startswith("http://")
        else origin.replace("https://", "http://", 1)
    )


@pytest.mark.parametrize(
    "foreign",
    [
        lambda site: "http://evil.example",
        _other_port,  # another port of the same host: a page served there played as the victim
        _other_scheme,
        lambda site: "http://localhost:1234",
        lambda site: "null",  # a sandboxed frame or a file: page
        lambda site: site.replace(
            f"//{urlsplit(site).hostname}", f"//{urlsplit(site).hostname}.evil.example"
        ),
    ],
    ids=["other-host", "other-port", "other-scheme", "localhost-other-port", "null", "suffix"],
)
def test_a_foreign_origin_is_refused(duel: Match, ann: User, foreign: Any) -> None:
    owner = Viewer(ann)
    origin = foreign(origin_of(settings.SITE_URL))

    async def scenario() -> None:
        refused = socket(duel.pk, owner, origin=(b"origin", origin.encode()))
        connected, _ = await refused.connect()
        assert not connected, origin
        await refused.disconnect()  # the socket is gone, as a server says after a refusal
        # Without an Origin header at all (not a browser): refused too.
        bare = WebsocketCommunicator(application, f"/ws/matches/{duel.pk}/", headers=owner.cookie)
        assert not (await bare.connect())[0]
        await bare.disconnect()

    run(scenario)


def test_the_sites_own_origin_and_its_loopback_twin_are_accepted(duel: Match, ann: User) -> None:
    owner = Viewer(ann)
    site = origin_of(settings.SITE_URL)
    accepted = [site]
    if "127.0.0.1" in site or "localhost" in site:
        accepted.append(
            site.replace("127.0.0.1", "localhost")
            if "127.0.0.1" in site
            else site.replace("localhost", "127.0.0.1")
        )

    async def scenario() -> None:
        for origin in accepted:
            ws = socket(duel.pk, owner, origin=(b"origin", origin.encode()))
            assert (await ws.connect())[0], origin
            await ws.disconnect()

    run(scenario)


def test_chat_reaches_everyone_on_the_match(duel: Match, ann: User, bob: User) -> None:
    player, spectator = Viewer(ann), Viewer(None)

    async def scenario() -> None:
        one, two = socket(duel.pk, player), socket(duel.pk, spectator)
        await one.connect()
        await two.connect()
        await one.send_json_to({"type": "chat", "text": "<b>hello</b>"})
        message = await next_of(two, "chat")
        assert "&lt;b&gt;hello&lt;/b&gt;" in message["html"] and "Ann" in message["html"]
        await two.send_json_to({"type": "chat", "text": "spectating"})
        assert (await next_of(two, "error"))["code"] == "login_required"
        await one.disconnect()
        await two.disconnect()

    run(scenario)
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["<b>hello</b>"]


def test_a_flooding_socket_is_slowed_then_closed(duel: Match, ann: User) -> None:
    player = Viewer(ann)

    async def scenario() -> None:
        ws = socket(duel.pk, player)
        await ws.connect()
        for _ in range(100):
            await ws.send_json_to({"type": "ping"})
        kinds: list[str] = []
        while True:
            output = await ws.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                assert output["code"] == 4029
                break
            kinds.append(json.loads(output["text"]).get("code") or json.loads(output["text"])["type"])
        assert kinds.count("pong") <= BURST + 10 and "rate_limited" in kinds

    run(scenario)


def test_a_move_made_elsewhere_is_pushed_with_its_ply(duel: Match, ann: User, bob: User) -> None:
    """A form post (or the API, or a bot) rings the doorbell; the socket pushes the new board."""
    seat, action = to_act(duel)
    mover = ann if seat == 0 else bob
    spectator = Viewer(None)

    async def scenario() -> None:
        ws = socket(duel.pk, spectator)
        await ws.connect()
        assert (await next_of(ws, "board"))["ply"] == 0
        await database_sync_to_async(match_submit_action)(match_id=duel.pk, user=mover, action=action, ply=0)
        assert (await next_of(ws, "board"))["ply"] == 1
        await ws.disconnect()

    run(scenario)


def test_a_move_is_drawn_once_per_kind_of_viewer_where_it_is_stored_and_a_doorbell_read_once_per_process(
    duel: Match, ann: User, bob: User, make_person: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tabs of Ann, Bob, a spectator. The move: no socket reads the match; its boards
    are drawn where it is stored, once per kind of viewer (Ann's tabs get the very same
    text, action ids and all), and each socket gets exactly the board drawn for its viewer
    alone. A doorbell (any other change): one read of the match for the process."""
    reads: list[int] = []
    read = live_fragments.read_live_picture
    drawn: list[str] = []
    draw = push.live_html

    def counting_read(match_id: int) -> live_fragments.LivePicture | None:
        reads.append(match_id)
        return read(match_id)

    def counting_draw(*args: Any, **kwargs: Any) -> str:
        drawn.append(html := draw(*args, **kwargs))
        return html

    seat, action = to_act(duel)
    carl = make_person("carl")
    viewers = {"Ann": Viewer(ann), "Ann's other tab": Viewer(ann), "Bob": Viewer(bob), "Carl": Viewer(carl)}
    mover = "Ann" if seat == 0 else "Bob"
    pushed: dict[str, str] = {}

    async def scenario() -> None:
        sockets = {what: socket(duel.pk, viewer) for what, viewer in viewers.items()}
        for ws in sockets.values():
            assert (await ws.connect())[0]
            await next_of(ws, "board")
        monkeypatch.setattr(live_fragments, "read_live_picture", counting_read)
        monkeypatch.setattr(push, "live_html", counting_draw)
        await sockets[mover].send_json_to({"type": "act", "action": action, "ply": 0})
        await next_of(sockets[mover], "acted")
        for what, ws in sockets.items():
            board = await next_of(ws, "board")
            assert board["ply"] == 1, what
            pushed[what] = board["html"]
        # The mover's board came once, as everyone's did: nothing else is on its way.
        assert await sockets[mover].receive_nothing(timeout=0.3)
        assert reads == [] and len(drawn) == 3  # Ann's seat, Bob's, a signed-in watcher's
        # A doorbell: every socket reads, the process once; each its own viewer's board.
        await database_sync_to_async(send_match_updated)(match_id=duel.pk, ply=1, committed_at=time.time())
        for what, ws in sockets.items():
            board = await next_of(ws, "board")
            assert board["ply"] == 1 and normalised(board["html"]) == normalised(pushed[what]), what
        assert reads == [duel.pk]
        for ws in sockets.values():
            await ws.disconnect()

    run(scenario)
    assert pushed["Ann"] == pushed["Ann's other tab"]
    for what, user in (("Ann", ann), ("Bob", bob), ("Carl", carl)):
        alone = without_presence(normalised(live_html(access(duel.pk, user))))
        assert without_presence(normalised(pushed[what])) == alone, what
    assert len({without_presence(normalised(pushed[what])) for what in ("Ann", "Bob", "Carl")}) == 3


def test_a_socket_showing_a_newer_board_is_not_sent_an_older_one(duel: Match, ann: User, bob: User) -> None:
    """A doorbell answered late, with a read another socket of the process made before
    this socket's own newer one: the page would drop that board, so it is not sent."""
    seat, action = to_act(duel)
    mover, player = (ann if seat == 0 else bob), Viewer(ann)

    async def scenario() -> None:
        ws = socket(duel.pk, player)
        await ws.connect()
        await next_of(ws, "board")
        # Ply 0's picture, read for doorbell "early" by another socket of the process.
        older = await database_sync_to_async(live_fragments.DOORBELL_PICTURES.picture)(
            duel.pk, "early", sockets=2
        )
        assert older is not None and older.ply == 0
        await database_sync_to_async(match_submit_action)(match_id=duel.pk, user=mover, action=action, ply=0)
        assert (await next_of(ws, "board"))["ply"] == 1
        # Doorbell "early" reaches this socket only now.
        layer = get_channel_layer()
        assert layer is not None
        await layer.group_send(match_group(duel.pk), {"type": "match.updated", "ply": 0, "ring": "early"})
        assert await ws.receive_nothing(timeout=0.5)
        await ws.send_json_to({"type": "refresh"})  # a read of its own: the newest board
        assert (await next_of(ws, "board"))["ply"] == 1
        await ws.disconnect()

    run(scenario)
