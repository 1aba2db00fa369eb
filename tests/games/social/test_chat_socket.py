"""Over the match socket, a chat line is not sent to someone its author blocked or was
blocked by; everyone else gets it, and the block holds from the moment it is made. And
a match socket counts as being on the site."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.live import presence
from games.models import Match
from games.social import services
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_blocked_author_s_chat_lines_do_not_reach_the_blocker_s_socket(
    duel: Match, ann: User, bob: User, cat: User
) -> None:
    viewers = Viewer(ann), Viewer(bob), Viewer(cat)

    async def scenario() -> None:
        anns, bobs, cats = (socket(duel.pk, viewer) for viewer in viewers)
        for ws in (anns, bobs, cats):
            assert (await ws.connect())[0]
            await next_of(ws, "board")  # sent once the socket has said where it is
        # A match socket marks its person seen on the site (no page was asked for).
        assert presence.online_among([ann.pk, bob.pk, cat.pk]) == {ann.pk, bob.pk, cat.pk}
        await bobs.send_json_to({"type": "chat", "text": "before the block"})
        for ws in (anns, cats):
            assert "before the block" in (await next_of(ws, "chat"))["html"]
        # Mid-match, with the sockets open: Ann blocks Bob.
        await database_sync_to_async(services.block)(blocker=ann, blocked=bob)
        await bobs.send_json_to({"type": "chat", "text": "after the block"})
        assert "after the block" in (await next_of(cats, "chat"))["html"]  # Cat watches: she sees it
        await anns.send_json_to({"type": "chat", "text": "Ann speaks"})
        # Ann's socket's next line is her own: Bob's was never sent to it; nor hers to him.
        assert "Ann speaks" in (await next_of(anns, "chat"))["html"]
        assert "Ann speaks" in (await next_of(cats, "chat"))["html"]
        for line in ("before the block", "after the block"):
            assert line in (await next_of(bobs, "chat"))["html"]
        await bobs.send_json_to({"type": "ping"})
        assert (await next_of(bobs, "pong")) == {"type": "pong"}
        assert await bobs.receive_nothing(timeout=0.2)
        for ws in (anns, bobs, cats):
            await ws.disconnect()

    run(scenario)
