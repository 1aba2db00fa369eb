"""A match socket keeps no authority its session lost: logout, a password change
elsewhere, a deactivation, a session gone (accounts/sessions.py)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import time_machine
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.sessions import CLOSE_SIGNED_OUT
from boomsite.asgi import application
from games.live.consumers import SESSION_RECHECK_SECONDS
from games.models import ChatMessage, Match, Move
from tests.games.sockets import ORIGIN, next_of, run, to_act

pytestmark = pytest.mark.django_db(transaction=True)


class Browser:
    """A signed-in browser: its own session, and a socket opened with that session."""

    def __init__(self, user: User) -> None:
        self.client = Client()
        self.client.force_login(user)
        self.cookie = (b"cookie", f"sessionid={self.client.cookies['sessionid'].value}".encode())

    def socket(self, match_id: int) -> WebsocketCommunicator:
        return WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=[ORIGIN, self.cookie])


async def closed_as_signed_out(ws: WebsocketCommunicator) -> None:
    """The socket says so, then closes with 4401 (within the timeout: a few seconds)."""
    error = await next_of(ws, "error", timeout=5)
    assert error["code"] == "signed_out"
    while True:
        message: dict[str, Any] = await ws.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            assert message["code"] == CLOSE_SIGNED_OUT
            return


def test_logging_out_closes_that_sessions_sockets_and_only_those(duel: Match, ann: User) -> None:
    here, elsewhere = Browser(ann), Browser(ann)

    async def scenario() -> None:
        mine, other = here.socket(duel.pk), elsewhere.socket(duel.pk)
        for ws in (mine, other):
            assert (await ws.connect())[0]
            await next_of(ws, "board")
        answer = await database_sync_to_async(here.client.post)("/accounts/logout/")
        assert answer.status_code in (200, 302)
        await closed_as_signed_out(mine)
        # The other browser is still signed in: its socket stays and still answers.
        await other.send_json_to({"type": "ping"})
        assert (await next_of(other, "pong"))["type"] == "pong"
        await other.disconnect()

    run(scenario)


@pytest.mark.parametrize("change", ["password", "deactivation"])
def test_a_password_change_or_deactivation_closes_the_accounts_sockets(
    duel: Match,
    ann: User,
    change: str,
) -> None:
    browser = Browser(ann)

    def change_the_account() -> None:
        user = User.objects.get(pk=ann.pk)
        if change == "password":
            user.set_password("a new secret, set elsewhere")
        else:
            user.is_active = False
        user.save()

    async def scenario() -> None:
        ws = browser.socket(duel.pk)
        assert (await ws.connect())[0]
        await next_of(ws, "board")
        await database_sync_to_async(change_the_account)()
        await closed_as_signed_out(ws)

    run(scenario)


def test_a_move_or_chat_from_a_socket_whose_session_ended_is_refused_and_changes_nothing(
    duel: Match,
    ann: User,
    bob: User,
) -> None:
    """The session row goes without any announcement (expired, cleared by hand): a move
    reads the session again once it was last read a while ago (a logout, a password
    change or a deactivation close the socket at once, above), and is refused; a chat
    message reads it every time."""
    seat, action = to_act(duel)
    browser = Browser(ann if seat == 0 else bob)

    async def scenario() -> None:
        with time_machine.travel(timezone.now(), tick=False) as clock:
            ws = browser.socket(duel.pk)
            assert (await ws.connect())[0]
            board = await next_of(ws, "board")
            await database_sync_to_async(Session.objects.all().delete)()
            clock.shift(SESSION_RECHECK_SECONDS)
            move = {"type": "act", "action": action, "ply": board["ply"], "action_id": str(uuid.uuid4())}
            await ws.send_json_to(move)
            await closed_as_signed_out(ws)

    run(scenario)
    assert Move.objects.filter(match=duel).count() == 0

    chatter = Browser(ann)

    async def chat() -> None:
        ws = chatter.socket(duel.pk)
        assert (await ws.connect())[0]
        await next_of(ws, "board")
        await database_sync_to_async(Session.objects.all().delete)()
        await ws.send_json_to({"type": "chat", "text": "hello"})
        await closed_as_signed_out(ws)

    run(chat)
    assert not ChatMessage.objects.filter(match=duel).exists()
