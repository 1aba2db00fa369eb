"""What an operator watches: ``GET /metrics`` in Prometheus's text format (docs/site.md, "Metrics").

Every metric of the site is defined here. The places that count call one helper (an
increment or an observation: never database work on the way of a move), and this
module answers the scrape.

Which process answers for which counts:

- With ``PROMETHEUS_MULTIPROC_DIR`` set (``make run`` sets it: boomsite/run.py), every
  process of the host (each Daphne, each Celery worker and the children of its pool,
  beat) writes its values to files in that folder, and a scrape of any one Daphne adds
  them up for the whole host (prometheus-client's multiprocess mode). The folder is
  emptied whenever the site starts, and a process that ends is marked dead, so that its
  open sockets stop counting while its counts stay in the totals.
- Without it, each process counts in its own memory and a scrape answers for that
  process alone; the Celery workers, which serve no HTTP, are then not seen at all.

Only clients in ``METRICS_ALLOWED`` are answered (``may_read_metrics``); anyone else
gets the site's 404, as for an address nothing answers.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterable
from enum import StrEnum
from pathlib import Path
from typing import Any

from celery import signals
from django.conf import settings
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import GaugeMetricFamily, Metric

from boomsite.client_address import client_address

logger = logging.getLogger(__name__)

# No "_created" series beside each counter and histogram: multiprocess mode has none,
# and the two modes should answer the same names.
disable_created_metrics()


class SocketKind(StrEnum):
    MATCH = "match"  # /ws/matches/<id>/
    PERSONAL = "personal"  # /ws/me/, the count of matches waiting for a person
    # The programs' streams (games/live/streams.py): long HTTP responses, not sockets,
    # but held open as sockets are.
    EVENT_STREAM = "event_stream"  # /api/stream/events
    MATCH_STREAM = "match_stream"  # /api/matches/<id>/stream


class TaskOutcome(StrEnum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    RETRIED = "retried"
    REJECTED = "rejected"  # a message the worker could not take (unknown task, bad body)


MOVES = Counter("boomsite_moves_total", "Moves stored, counted when their transaction commits.", ["game"])
MOVE_SECONDS = Histogram(
    "boomsite_move_seconds",
    "Time in the service that stores a move, a person's or a bot's (lock, rules, writes, "
    "commit), refused moves included.",
)
PUSH_SECONDS = Histogram(
    "boomsite_push_seconds",
    "From the commit of a change to a match (its doorbell) to its board sent on a match socket, per socket.",
)
BOARDS_DRAWN_SECONDS = Histogram(
    "boomsite_move_boards_seconds",
    "Drawing a move's boards where it was stored, once per kind of viewer looking (games/live/push.py).",
)
BOARDS_DRAWN = Counter(
    "boomsite_move_boards_total", "A move's boards drawn where it was stored, one per kind of viewer looking."
)
# livesum: the open sockets of the processes alive now (a dead one's are dropped).
SOCKETS_OPEN = Gauge(
    "boomsite_sockets_open",
    "WebSockets open (match sockets and personal ones, /ws/me/), and programs' streams.",
    ["kind"],
    multiprocess_mode="livesum",
)
HTTP_RESPONSES = Counter(
    "boomsite_http_responses_total",
    "HTTP answers by status class, the 500 of a view's unhandled exception included.",
    ["status_class"],
)
EMAILS = Counter(
    "boomsite_emails_total",
    "Notification emails by kind and outcome: sent, failed (tried again later), dropped (no longer due).",
    ["kind", "outcome"],
)
PUSHES = Counter(
    "boomsite_pushes_total",
    "Web Push notifications by kind and outcome: sent (some device took it), failed (tried again later), dropped.",
    ["kind", "outcome"],
)
BOT_TURN_SECONDS = Histogram(
    "boomsite_bot_turn_seconds",
    "A bot's turn that played a move: reading its seat, deciding from its view, storing the move.",
    ["level"],
    # The expert bot searches for seconds; the others answer in milliseconds.
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
CELERY_TASKS = Counter(
    "boomsite_celery_tasks_total", "Celery tasks by name and outcome.", ["task", "outcome"]
)

# Known label values start at zero, so that a rate over them exists before the first event.
for status_class in ("2xx", "3xx", "4xx", "5xx"):
    HTTP_RESPONSES.labels(status_class=status_class)
for kind in SocketKind:
    SOCKETS_OPEN.labels(kind=kind)


# -- counting (called where things happen) ----------------------------------------


def count_move(game: str) -> None:
    MOVES.labels(game=game).inc()


def observe_push(committed_at: float) -> None:
    """A board sent for a doorbell rung at ``committed_at`` (``time.time()``). Wall clocks,
    since the commit and the socket may be in two processes (a worker's bot move, a
    Daphne's socket): on one host they read one clock; across hosts the figure holds
    their difference too (never below zero)."""
    PUSH_SECONDS.observe(max(0.0, time.time() - committed_at))


def observe_push_render(seconds: float, boards: int) -> None:
    """A move's ``boards`` (one per kind of viewer looking) drawn in ``seconds``."""
    BOARDS_DRAWN_SECONDS.observe(seconds)
    BOARDS_DRAWN.inc(boards)


def socket_opened(kind: SocketKind) -> None:
    SOCKETS_OPEN.labels(kind=kind).inc()


def socket_closed(kind: SocketKind) -> None:
    SOCKETS_OPEN.labels(kind=kind).dec()


def count_email(*, kind: str, outcome: str) -> None:
    EMAILS.labels(kind=kind, outcome=outcome).inc()


def count_push(*, kind: str, outcome: str) -> None:
    PUSHES.labels(kind=kind, outcome=outcome).inc()


def observe_bot_turn(*, level: str, seconds: float) -> None:
    BOT_TURN_SECONDS.labels(level=level).observe(seconds)


class CountResponsesMiddleware:
    """Counts every HTTP answer by status class (``boomsite_http_responses_total``).

    First in MIDDLEWARE: Django turns an exception into its 500 around each middleware,
    so the outermost one sees every answer as it leaves, a view's 500 and the answers
    the other middlewares give themselves (a NUL's 400, the HTTPS redirect) alike."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        HTTP_RESPONSES.labels(status_class=f"{response.status_code // 100}xx").inc()
        return response


# -- Celery ---------------------------------------------------------------------------


def count_celery_tasks() -> None:
    """Connect the task-outcome counters, and the bookkeeping of a pool child that ends
    (called as a worker starts: boomsite/celery.py)."""
    signals.task_success.connect(_task_succeeded, weak=False, dispatch_uid="metrics.task_success")
    signals.task_failure.connect(_task_failed, weak=False, dispatch_uid="metrics.task_failure")
    signals.task_retry.connect(_task_retried, weak=False, dispatch_uid="metrics.task_retry")
    signals.task_rejected.connect(_message_rejected, weak=False, dispatch_uid="metrics.task_rejected")
    signals.task_unknown.connect(_message_rejected, weak=False, dispatch_uid="metrics.task_unknown")
    signals.worker_process_shutdown.connect(_pool_child_ends, weak=False, dispatch_uid="metrics.child_ends")


def _task_succeeded(sender: Any = None, **_: Any) -> None:
    CELERY_TASKS.labels(task=getattr(sender, "name", "unknown"), outcome=TaskOutcome.SUCCEEDED).inc()


def _task_failed(sender: Any = None, **_: Any) -> None:
    CELERY_TASKS.labels(task=getattr(sender, "name", "unknown"), outcome=TaskOutcome.FAILED).inc()


def _task_retried(sender: Any = None, **_: Any) -> None:
    CELERY_TASKS.labels(task=getattr(sender, "name", "unknown"), outcome=TaskOutcome.RETRIED).inc()


def _message_rejected(sender: Any = None, message: Any = None, name: str | None = None, **_: Any) -> None:
    """In the worker's main process: a message it could not run (unknown task, bad body)."""
    headers = getattr(message, "headers", None) or {}
    CELERY_TASKS.labels(task=name or headers.get("task") or "unknown", outcome=TaskOutcome.REJECTED).inc()


def _pool_child_ends(pid: int | None = None, **_: Any) -> None:
    # What prometheus-client asks of every process that ends: its live gauges go.
    if pid is not None and multiprocess_dir():
        multiprocess.mark_process_dead(pid)


# -- the scrape -----------------------------------------------------------------------


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def may_read_metrics(request: HttpRequest) -> bool:
    """Whether the client asking is in ``METRICS_ALLOWED``.

    Judged by the *client's* address, which ClientAddressMiddleware has put in
    REMOTE_ADDR (boomsite/client_address.py), not by the direct peer's: nginx on this
    host connects from 127.0.0.1, so by the peer every request it relays from the
    internet would pass as loopback. For the same reason a request that names a client
    in X-Forwarded-For whom we did not believe (its proxy is not in TRUSTED_PROXIES) is
    refused: its REMOTE_ADDR is that proxy's, and who stands behind it is unknown."""
    client = request.META.get("REMOTE_ADDR", "")
    forwarded_for = request.META.get("HTTP_X_FORWARDED_FOR")
    if forwarded_for and client not in _addresses_named(forwarded_for):
        return False
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return False
    return any(address in network for network in settings.METRICS_ALLOWED)


def _addresses_named(forwarded_for: str) -> set[str]:
    """The entries of X-Forwarded-For, written as ``client_address`` writes an address."""
    return {
        client_address(peer=entry, forwarded_for=None, trusted_proxies=())
        for entry in forwarded_for.split(",")
    }


@never_cache
def serve_metrics(request: HttpRequest) -> HttpResponse:
    if not may_read_metrics(request):
        # The site's own 404 (boomsite/not_found.py): to others there is no such page.
        raise Http404
    return HttpResponse(scrape(), content_type=CONTENT_TYPE_PLAIN_0_0_4)


def scrape() -> bytes:
    """The text a scrape answers: the host's processes (multiprocess mode) or this one's,
    and the outbox read now."""
    registry = CollectorRegistry()
    directory = multiprocess_dir()
    if directory:
        forget_dead_processes(directory)
        multiprocess.MultiProcessCollector(registry, path=directory)
    else:
        registry.register(REGISTRY)
    registry.register(UndeliveredAnnouncements())
    return generate_latest(registry)


def forget_dead_processes(directory: str) -> None:
    """Mark dead every process whose live gauges are still in ``directory`` but which no
    longer runs: a Daphne killed, or restarted alone by its unit, would otherwise add its
    last count of open sockets forever. (One folder per host: process ids are this host's.)"""
    for path in Path(directory).glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _is_running(int(pid)):
            multiprocess.mark_process_dead(int(pid), directory)


def _is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as someone else
    return True


class UndeliveredAnnouncements:
    """``boomsite_announcements_undelivered``, counted from the outbox table at each scrape."""

    def collect(self) -> Iterable[Metric]:
        # Imported here: models cannot be imported before Django is set up, and this module
        # may be (a worker imports it as it starts: boomsite/celery.py).
        from games.selectors import announcements_undelivered_count

        try:
            count = announcements_undelivered_count()
        except DatabaseError:
            # Without the database this one gauge is missing; the rest of the scrape still answers.
            logger.warning("metrics: the outbox could not be counted", exc_info=True)
            return []
        return [
            GaugeMetricFamily(
                "boomsite_announcements_undelivered",
                "Match-finished announcements a subscriber has not finished (the outbox).",
                value=count,
            )
        ]
