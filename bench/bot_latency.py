"""Bot reply time: from a person's move to the bot's answer reaching that person's socket.

    nice -n 10 .venv/bin/python -m bench.bot_latency                      # ~1 minute
    nice -n 10 .venv/bin/python -m bench.bot_latency --game go-fox --moves 200 --level random

It starts the whole site as ``make run`` does (embedded Redis, Daphne, a Celery
worker and beat, in a throwaway var folder), makes a person and a match against a
bot through the services, then plays the person's moves over the match WebSocket
like the page does. For every move that hands the turn to the bot, it times from
sending ``act`` to receiving the first board on which the bot has moved (its ply
is past the person's move). That path is: the consumer, the service's transaction,
the doorbell, the Celery queue, the worker's decision and its transaction, the
doorbell again, the consumer rendering the board. Prints the median, the 90th and
99th percentiles and the maximum, in milliseconds.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_DATA_ACTION = re.compile(r'<button[^>]*\bdata-action="([^"]*)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="dont-go-boom")
    parser.add_argument("--level", default="random")
    parser.add_argument("--moves", type=int, default=150, help="bot replies to time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with embedded_site() as (_, port):
        samples = run(port, args.game, args.level, args.moves, args.seed)
    ms = [sample * 1000 for sample in samples]
    print(
        f"{args.game}, {args.level} bot, {len(ms)} replies over the socket (embedded Redis and SQLite, 1 worker):"
    )
    print("| median | p90 | p99 | max |")
    print("|---:|---:|---:|---:|")
    print(
        f"| {statistics.median(ms):.0f} ms | {percentile(ms, 0.9):.0f} ms "
        f"| {percentile(ms, 0.99):.0f} ms | {max(ms):.0f} ms |"
    )


@contextmanager
def embedded_site() -> Iterator[tuple[int, int]]:
    """The whole site as ``make run`` starts it (embedded Redis and SQLite, Daphne, one
    Celery worker, beat) in a throwaway var folder, this process set up to use the same
    folder; yields the site's process id and port once ``/healthz`` is green."""
    var_dir = Path(tempfile.mkdtemp(prefix="boomsite-bench-"))
    port = free_port()
    env = {**os.environ, "BOOMSITE_VAR_DIR": str(var_dir), "PORT": str(port), "CELERY_CONCURRENCY": "1"}
    for name in ("DATABASE_URL", "REDIS_URL"):  # the embedded default, as a fresh machine runs it
        env.pop(name, None)
    os.environ.update({key: value for key, value in env.items() if key in ("BOOMSITE_VAR_DIR", "PORT")})
    site = subprocess.Popen(
        [sys.executable, "-m", "boomsite.run"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        wait_until(lambda: _healthy(port), timeout=180, what="the site's /healthz")
        yield site.pid, port
    finally:
        os.killpg(site.pid, signal.SIGTERM)
        site.wait(timeout=60)
        shutil.rmtree(var_dir, ignore_errors=True)


def _healthy(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return bool(json.load(answer).get("ok"))
    except Exception:
        return False


def run(port: int, slug: str, level: str, wanted: int, seed: int) -> list[float]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from websockets.sync.client import connect
    from websockets.typing import Origin

    from accounts.models import User
    from games.services import SeatRequest, match_create

    person = User.objects.create_user(username=f"bench{uuid.uuid4().hex[:6]}", password="x")
    session = SessionStore()
    session["_auth_user_id"] = str(person.pk)
    session["_auth_user_backend"] = "accounts.backends.HumansOnlyModelBackend"
    session["_auth_user_hash"] = person.get_session_auth_hash()
    session.create()
    rng = random.Random(seed)
    samples: list[float] = []
    while len(samples) < wanted:
        match = match_create(
            creator=person, game_slug=slug, options={},
            seats=[SeatRequest("me"), SeatRequest("bot", level=level)],
        )  # fmt: skip
        with connect(
            f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/",
            origin=Origin(f"http://127.0.0.1:{port}"),
            additional_headers={"Cookie": f"sessionid={session.session_key}"},
        ) as ws:
            samples += play_one(ws, rng, wanted - len(samples))
    return samples


def _boards(ws: Any, timeout: float = 60) -> Any:
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        if message["type"] == "board":
            yield message


def play_one(ws: Any, rng: random.Random, wanted: int) -> list[float]:
    """Play one match from the page's point of view; time every bot reply."""
    samples: list[float] = []
    boards = _boards(ws)
    board = next(boards)
    while len(samples) < wanted:
        if 'data-status="finished"' in board["html"]:
            break
        buttons = [json.loads(html.unescape(raw)) for raw in _DATA_ACTION.findall(board["html"])]
        if not buttons:  # the bot's turn (at the start of a match, say): wait for it
            board = next(boards)
            continue
        ply = board["ply"]
        sent = time.perf_counter()
        ws.send(
            json.dumps(
                {"type": "act", "action": rng.choice(buttons), "ply": ply, "action_id": str(uuid.uuid4())}
            )
        )
        board = next(boards)
        while board["ply"] <= ply:
            board = next(boards)
        if "Your turn." in board["html"] or 'data-status="finished"' in board["html"]:
            continue  # still the person's turn (or over): no bot reply to time
        while board["ply"] <= ply + 1:  # the bot's move is the next ply
            board = next(boards)
        samples.append(time.perf_counter() - sent)
    return samples


if __name__ == "__main__":
    main()
