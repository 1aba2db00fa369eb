"""The site's ASGI application with ``tracemalloc`` on, for ``bench/soak.py --trace-memory``.

Daphne serves ``bench.soak_traced_asgi:application`` instead of the site's own; a thread
writes a snapshot of the process's allocations every ``SOAK_TRACE_SECONDS`` (60) into
``SOAK_TRACE_DIR`` as ``<pid>-<unix time>.snapshot``, and the soak's report compares the
one nearest minute 2 with the last, by line of code. Tracing costs memory and CPU of its
own (every allocation is recorded), so a traced soak says *where* memory grows, not how
much the site uses: the untraced soak says that.
"""

from __future__ import annotations

import os
import threading
import time
import tracemalloc

tracemalloc.start(1)

from boomsite.asgi import application  # noqa: E402  (traced from its first import on)

__all__ = ["application"]


def _write_snapshots(folder: str, every: float) -> None:
    while True:
        time.sleep(every)
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        path = os.path.join(folder, f"{os.getpid()}-{time.time():.0f}.snapshot")
        snapshot.dump(path + ".part")
        os.replace(path + ".part", path)  # a snapshot is read only once it is whole


threading.Thread(
    target=_write_snapshots,
    args=(os.environ["SOAK_TRACE_DIR"], float(os.environ.get("SOAK_TRACE_SECONDS", "60"))),
    name="soak-tracemalloc",
    daemon=True,
).start()
