"""The tournament page's socket (``/ws/tournaments/<id>/``), in process, with the real ASGI
stack and the real Redis channel layer: it rings after each committed change, anyone may
watch a published tournament, and a draft or a missing one is refused."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from boomsite.asgi import application
from games.tournaments import consumers, services
from games.tournaments.models import Tournament
from tests.games.sockets import ORIGIN, Viewer, next_of, run
from tests.games.tournaments.helpers import finish_table, make_tournament, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def tournament_socket(
    tournament_id: int, viewer: Viewer, origin: tuple[bytes, bytes] = ORIGIN
) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/", headers=[origin, *viewer.cookie]
    )


async def nothing_more(ws: WebsocketCommunicator) -> None:
    assert await ws.receive_nothing(timeout=0.3)


def test_a_watcher_hears_each_committed_change(organiser: User, ann: User, bob: User) -> None:
    tournament = make_tournament(organiser)

    async def scenario() -> None:
        ws = tournament_socket(tournament.pk, Viewer(None))  # signed out: anyone may watch
        assert (await ws.connect())[0]
        await nothing_more(ws)
        await database_sync_to_async(services.tournament_register)(tournament_id=tournament.pk, user=ann)
        assert await next_of(ws, "changed") == {"type": "changed"}
        await database_sync_to_async(services.tournament_register)(tournament_id=tournament.pk, user=bob)
        await next_of(ws, "changed")
        await database_sync_to_async(services.tournament_start)(tournament_id=tournament.pk)
        await next_of(ws, "changed")
        final = (await database_sync_to_async(tables_of)(tournament, 1))[0]
        await database_sync_to_async(finish_table)(final)
        # The finished match reaches the tournament through its announcement (a Celery
        # task in the site); here the service it calls.
        await database_sync_to_async(services.tournament_advance)(tournament_id=tournament.pk)
        await next_of(ws, "changed")
        await ws.disconnect()

    run(scenario)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_a_refused_write_rings_nothing(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    viewer = Viewer(ann)

    async def scenario() -> None:
        ws = tournament_socket(tournament.pk, viewer)
        assert (await ws.connect())[0]
        with pytest.raises(services.TournamentError):
            await database_sync_to_async(services.tournament_withdraw)(tournament_id=tournament.pk, user=ann)
        await nothing_more(ws)
        await ws.disconnect()

    run(scenario)


def test_a_socket_on_another_tournament_hears_nothing(organiser: User, ann: User) -> None:
    watched, other = make_tournament(organiser), make_tournament(organiser)

    async def scenario() -> None:
        ws = tournament_socket(watched.pk, Viewer(None))
        assert (await ws.connect())[0]
        await database_sync_to_async(services.tournament_register)(tournament_id=other.pk, user=ann)
        await nothing_more(ws)
        await ws.disconnect()

    run(scenario)


def test_a_draft_or_missing_tournament_is_refused_but_staff_may_watch_a_draft(
    organiser: User, ann: User
) -> None:
    draft = make_tournament(organiser, status=Tournament.Status.DRAFT)
    staff_viewer = Viewer(organiser)
    refusals = [(draft.pk, Viewer(None)), (draft.pk, Viewer(ann)), (10**6, staff_viewer)]

    async def scenario() -> None:
        for tournament_id, viewer in refusals:
            refused = tournament_socket(tournament_id, viewer)
            connected, code = await refused.connect()
            assert not connected and code == 4404
            await refused.disconnect()
        staff = tournament_socket(draft.pk, staff_viewer)
        assert (await staff.connect())[0]
        await database_sync_to_async(services.tournament_open)(tournament_id=draft.pk)
        await next_of(staff, "changed")
        await staff.disconnect()

    run(scenario)


def test_a_foreign_origin_is_refused(organiser: User) -> None:
    tournament = make_tournament(organiser)

    async def scenario() -> None:
        refused = tournament_socket(tournament.pk, Viewer(None), origin=(b"origin", b"https://evil.example"))
        assert not (await refused.connect())[0]
        await refused.disconnect()

    run(scenario)


def test_the_socket_answers_pings_and_refuses_other_messages(organiser: User) -> None:
    tournament = make_tournament(organiser)

    async def scenario() -> None:
        ws = tournament_socket(tournament.pk, Viewer(None))
        assert (await ws.connect())[0]
        await ws.send_json_to({"type": "ping"})
        assert await next_of(ws, "pong") == {"type": "pong"}
        await ws.send_json_to({"type": "register"})
        error: dict[str, Any] = await next_of(ws, "error")
        assert error["code"] == "unknown_message"
        await ws.send_to(text_data="not json")
        assert (await next_of(ws, "error"))["code"] == "malformed_message"
        await ws.disconnect()

    run(scenario)


def test_one_client_may_not_hold_too_many_sockets(organiser: User, ann: User) -> None:
    tournament = make_tournament(organiser)
    viewer = Viewer(ann)

    async def scenario() -> None:
        opened = []
        for _ in range(consumers.SOCKETS_PER_CLIENT):
            ws = tournament_socket(tournament.pk, viewer)
            assert (await ws.connect())[0]
            opened.append(ws)
        extra = tournament_socket(tournament.pk, viewer)
        assert (await extra.connect())[0]
        assert (await next_of(extra, "error"))["code"] == "too_many_sockets"
        closed = await extra.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4008}
        await extra.disconnect()
        await opened.pop().disconnect()
        again = tournament_socket(tournament.pk, viewer)  # one closed: room for one more
        assert (await again.connect())[0]
        await nothing_more(again)
        for ws in [*opened, again]:
            await ws.disconnect()

    run(scenario)
