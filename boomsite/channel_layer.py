"""The site's channel layer: channels-redis's, with one more way to send, and how
synchronous code sends on it.

``SiteChannelLayer.group_send_many`` sends several messages, each to its group, in two
round trips to Redis (the groups' members read in one pipeline, every delivery in one
script) where ``group_send`` takes two to four per group. A move sends a board to each
kind of viewer looking and a doorbell to each player's badge
(``games/live/broadcast.py``): with two players and no watcher, 12 round trips became 2.
Deliveries go exactly where ``group_send``'s would, in channels-redis's own format and
through its own mapping of channels to Redis keys (``_map_channel_keys_to_connection``,
which ``group_send`` uses too): a socket's ``receive`` cannot tell them apart.
channels-redis is pinned (requirements.txt) and ``tests/boomsite/test_channel_layer.py``
receives what was sent both ways, so an upgrade that changes its internals fails there.

Its receive buffers let go of closed sockets' messages. channels-redis keeps, per
process, a queue of received messages for each of its sockets' channels; a message that
arrives for a socket that has closed (sent before its group_discard, or on its way)
starts a queue nobody takes from, kept for the process's life (django/channels_redis#212,
bounded only by the capacity: 10,000 here). A move's boards made those messages tens of
kilobytes: in the soak each Daphne grew by 45 MB in 8 minutes of sockets opening and
closing. Here a queue nobody has taken from for longer than the layer's expiry (60 s:
Redis drops a message that old anyway) is let go, looked for every ``SWEEP_SECONDS``.

``run_sends`` runs a coroutine of sends from synchronous code. From a thread asgiref
runs for an event loop (a Daphne's views and sockets) it goes to that loop, as
``async_to_sync`` does. Anywhere else (a Celery worker's bot turn, a management
command, a test) ``async_to_sync`` would make a new event loop in a new thread for
every call, and channels-redis a new connection pool for it: a connection to Redis
per move. Those go instead to one loop the process keeps in a thread of its own, made
on first use (after a fork, in the child), whose connections stay open.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels_redis.core import BoundedQueue, RedisChannelLayer

logger = logging.getLogger(__name__)

# For each message: drop its channel's expired messages, add it unless the channel is
# at capacity, renew the channel's expiry (group_send's own script, with the expired
# ones dropped here rather than in a pipeline before). KEYS: the channels' Redis keys,
# a key more than once for several messages to one process. ARGV: the messages, their
# channels' capacities, their scores (rising, so they are received in the order sent),
# then the expiry cutoff and the expiry.
_DELIVER = """
local n = #KEYS
local cutoff = ARGV[3 * n + 1]
local expiry = ARGV[3 * n + 2]
local over_capacity = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], ARGV[2 * n + i], ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


SWEEP_SECONDS = 10.0
# How long a cancelled receive gets to end before it is cancelled again (receive).
_RECANCEL_SECONDS = 0.01
_now = time.monotonic  # the receive buffers' clock (a test moves it)


class _Buffer(BoundedQueue):
    """A process-local channel's received messages, and when a receiver last took one."""

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize)
        self.taken_at = _now()

    def get_nowait(self) -> Any:  # asyncio.Queue.get() takes through it too
        self.taken_at = _now()
        return super().get_nowait()

    def put_nowait(self, item: Any) -> None:
        if self.full():
            asyncio.Queue.get_nowait(self)  # the oldest goes, as BoundedQueue drops it: nobody took it
        asyncio.Queue.put_nowait(self, item)


class SiteChannelLayer(RedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_buffer: collections.defaultdict[str, _Buffer] = collections.defaultdict(
            functools.partial(_Buffer, self.capacity)
        )
        self._swept_at = _now()

    async def receive(self, channel: str) -> Any:
        """channels-redis's, run so that a cancellation always ends it.

        A socket that closes cancels its receive. Python 3.11's ``asyncio.wait_for``
        drops a cancellation that comes as the operation it waits on finishes
        (python/cpython#86296, fixed in 3.12), and redis-py sends every command through
        it: a receive cancelled there goes on blocking on Redis for the process's life,
        and the closing consumer waits on it until Daphne cancels the consumer itself
        (a refused socket's test sat out a second; ``tests/boomsite/test_channel_layer.py``
        shows it). Here the receive runs in a task of its own, cancelled again until
        it has ended."""
        receiving = asyncio.ensure_future(super().receive(channel))
        try:
            return await asyncio.shield(receiving)
        except asyncio.CancelledError:
            while not receiving.done():
                receiving.cancel()
                await asyncio.wait({receiving}, timeout=_RECANCEL_SECONDS)
            raise

    async def receive_single(self, channel: str) -> Any:
        """channels-redis's, after letting go of closed sockets' buffers now and then."""
        self.let_go_of_closed_channels()
        return await super().receive_single(channel)

    def let_go_of_closed_channels(self) -> int:
        """Drop each receive buffer holding messages nobody has taken for longer than the
        expiry (its socket closed); how many. At most once every ``SWEEP_SECONDS``."""
        now = _now()
        if now - self._swept_at < SWEEP_SECONDS:
            return 0
        self._swept_at = now
        closed = [
            name
            for name, queue in self.receive_buffer.items()
            if not queue.empty() and now - queue.taken_at > self.expiry
        ]
        for name in closed:
            del self.receive_buffer[name]
        return len(closed)

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """Send each ``(group, message)`` to its group's channels, as ``group_send`` would."""
        by_host: dict[int, list[tuple[str, dict[str, Any]]]] = collections.defaultdict(list)
        for group, message in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
            by_host[self.consistent_hash(group)].append((group, message))
        deliveries: dict[int, list[tuple[bytes, bytes, int]]] = collections.defaultdict(list)
        for host, items in by_host.items():
            async with self.connection(host).pipeline(transaction=False) as pipe:
                for group, _ in items:
                    key = self._group_key(group)
                    pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
                    pipe.zrange(key, 0, -1)
                answers = await pipe.execute()
            for (_, message), members in zip(items, answers[1::2], strict=True):
                channels = [member.decode("utf8") for member in members]
                if not channels:
                    continue
                to_keys, messages, capacities = self._map_channel_keys_to_connection(channels, message)
                for index, keys in to_keys.items():
                    deliveries[index] += [(key, messages[key], capacities[key]) for key in keys]
        for index, batch in deliveries.items():
            now = time.time()
            over = await self.connection(index).eval(
                _DELIVER,
                len(batch),
                *(key for key, _, _ in batch),
                *(message for _, message, _ in batch),
                *(capacity for _, _, capacity in batch),
                *(now + position * 1e-6 for position in range(len(batch))),
                int(now) - int(self.expiry),
                self.expiry,
            )
            if over:
                logger.warning("%s of %s messages dropped: their channels are at capacity", over, len(batch))


# Long enough for Redis at its slowest, short enough that a stuck send does not hold a
# move's after-commit work for long (a socket reads its board again when it reconnects).
SEND_TIMEOUT_SECONDS = 10.0

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0


def run_sends(send: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``send()`` to its end from synchronous code; its errors are raised here."""
    if _in_an_event_loops_thread():
        async_to_sync(send)()
        return
    asyncio.run_coroutine_threadsafe(send(), _own_loop()).result(timeout=SEND_TIMEOUT_SECONDS)


def _in_an_event_loops_thread() -> bool:
    # asgiref's own test (AsyncToSync.__init__): a SyncToAsync thread of this process's loop.
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    pid = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None)
    return loop is not None and pid == os.getpid() and loop.is_running()


def _own_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-layer-sends", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop
