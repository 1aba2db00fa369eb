"""The site's channel layer (boomsite/channel_layer.py): ``group_send_many`` delivers what
``group_send`` would, in order, and ``run_sends`` keeps one event loop for the sends of
code that has none."""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Any, cast

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from boomsite import channel_layer
from boomsite.channel_layer import SiteChannelLayer, run_sends


def a_layer(prefix: str, **config: Any) -> SiteChannelLayer:
    """A process's layer on the site's Redis, under ``prefix``."""
    site = cast(dict[str, Any], settings.CHANNEL_LAYERS["default"]["CONFIG"])
    return SiteChannelLayer(hosts=site["hosts"], prefix=prefix, **config)


def a_prefix() -> str:
    """A prefix no other test uses."""
    return f"test-{uuid.uuid4().hex[:8]}"


async def received(layer: SiteChannelLayer, channel: str, count: int) -> list[dict[str, Any]]:
    return [await asyncio.wait_for(layer.receive(channel), timeout=5) for _ in range(count)]


def test_group_send_many_delivers_what_group_send_would_to_every_member_in_order() -> None:
    async def scenario() -> None:
        prefix = a_prefix()
        layer, other_process = a_layer(prefix), a_layer(prefix)
        # Three sockets of one process (one Redis key between them) and one of another.
        here = [await layer.new_channel() for _ in range(3)]
        elsewhere = await other_process.new_channel()
        await layer.group_add("seats", here[0])
        await layer.group_add("seats", here[1])
        await layer.group_add("seats", elsewhere)
        await layer.group_add("watchers", here[2])
        await layer.group_add("watchers", here[0])
        sends = [
            ("seats", {"type": "board", "n": 1}),
            ("watchers", {"type": "board", "n": 2}),
            ("nobody", {"type": "board", "n": 3}),  # a group with no member: nothing, no error
            ("seats", {"type": "board", "n": 4}),
        ]
        await layer.group_send_many(sends)
        assert [m["n"] for m in await received(layer, here[0], 3)] == [1, 2, 4]
        assert [m["n"] for m in await received(layer, here[1], 2)] == [1, 4]
        assert [m["n"] for m in await received(layer, here[2], 1)] == [2]
        assert [m["n"] for m in await received(other_process, elsewhere, 2)] == [1, 4]
        # group_send's deliveries of the same, received the same way.
        for group, message in sends:
            await layer.group_send(group, message)
        assert [m["n"] for m in await received(layer, here[0], 3)] == [1, 2, 4]
        assert [m["n"] for m in await received(other_process, elsewhere, 2)] == [1, 4]
        await layer.flush()

    asyncio.run(scenario())


def test_a_channel_at_capacity_drops_what_is_over_and_the_rest_still_go(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        prefix = a_prefix()
        layer, other_process = a_layer(prefix, capacity=2), a_layer(prefix, capacity=2)
        full, free = await layer.new_channel(), await other_process.new_channel()
        await layer.group_add("g", full)
        await layer.group_add("h", free)
        await layer.group_send_many(
            [("g", {"type": "m", "n": n}) for n in range(3)] + [("h", {"type": "m", "n": 9})]
        )
        assert [m["n"] for m in await received(layer, full, 2)] == [0, 1]
        assert [m["n"] for m in await received(other_process, free, 1)] == [9]
        with pytest.raises(TimeoutError):  # the third was dropped
            await asyncio.wait_for(layer.receive(full), timeout=0.3)
        await layer.flush()

    asyncio.run(scenario())
    assert "1 of 4 messages dropped" in caplog.text


def test_sends_from_code_without_an_event_loop_share_one_kept_loop() -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    async def note_the_loop() -> None:
        loops.append(asyncio.get_running_loop())

    run_sends(note_the_loop)
    thread = threading.Thread(target=run_sends, args=(note_the_loop,))
    thread.start()
    thread.join()
    assert len(loops) == 2 and loops[0] is loops[1] and loops[0].is_running()
    assert loops[0] is channel_layer._own_loop()

    async def from_a_views_thread() -> asyncio.AbstractEventLoop:
        # A Daphne's view or socket thread: its sends go to its own event loop.
        await sync_to_async(run_sends, thread_sensitive=False)(note_the_loop)
        return asyncio.get_running_loop()

    main = asyncio.run(from_a_views_thread())
    assert loops[2] is main


def test_the_site_uses_it() -> None:
    assert isinstance(get_channel_layer(), SiteChannelLayer)


def test_a_closed_socket_s_late_messages_are_let_go_and_an_open_one_s_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Messages that reach a process for a socket that has closed wait in a buffer nobody
    takes from (django/channels_redis#212): once that has lasted longer than the expiry
    the buffer goes, and a socket still receiving keeps its own."""
    clock = [1000.0]
    monkeypatch.setattr(channel_layer, "_now", lambda: clock[0])

    async def scenario() -> None:
        layer = a_layer(a_prefix())
        closed, open_ = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", closed)
        await layer.group_add("g", open_)
        # The closed socket's receive ended (cancelled), as a consumer's does when it closes.
        gone = asyncio.ensure_future(layer.receive(closed))
        await asyncio.sleep(0.05)
        gone.cancel()
        await layer.group_send_many([("g", {"type": "board", "n": n}) for n in range(3)])
        assert [m["n"] for m in await received(layer, open_, 3)] == [0, 1, 2]
        assert layer.receive_buffer[closed].qsize() == 3  # nobody will take these
        await layer.group_discard("g", closed)  # its consumer's disconnect, done at last
        clock[0] += layer.expiry + channel_layer.SWEEP_SECONDS + 1
        await layer.group_send_many([("g", {"type": "board", "n": 3})])
        assert [m["n"] for m in await received(layer, open_, 1)] == [3]  # a receive sweeps
        assert closed not in layer.receive_buffer
        await layer.flush()

    asyncio.run(scenario())


def test_a_cancelled_receive_always_ends() -> None:
    """A socket that closes cancels its receive. Cancelled at any moment, even while
    redis-py is inside one of its ``asyncio.wait_for`` calls (Python 3.11's drops a
    cancellation that comes as the operation finishes), the receive ends, and the layer
    is left with nobody receiving."""
    stuck: list[float] = []

    async def scenario() -> None:
        for step in range(60):
            delay = step * 0.00005  # 0 to 3 ms: making the connection, the first commands
            layer = a_layer(a_prefix())
            receiving = asyncio.ensure_future(layer.receive(await layer.new_channel()))
            await asyncio.sleep(delay)
            receiving.cancel()
            await asyncio.wait({receiving}, timeout=1)
            if not receiving.done():
                stuck.append(delay)
                receiving.cancel()  # a second time, to end the test
                await asyncio.wait({receiving}, timeout=1)
            assert layer.receive_count == 0
            await layer.flush()

    asyncio.run(scenario())
    assert not stuck, f"receives cancelled after these delays (s) went on: {stuck}"
