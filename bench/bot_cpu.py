"""What a bot's move costs the site in CPU: the Celery worker that plays it and the
Daphne whose sockets show it, per move.

    nice -n 10 .venv/bin/python -m bench.bot_cpu                       # ~1 minute
    nice -n 10 .venv/bin/python -m bench.bot_cpu --matches 20 --watchers 2

It starts the whole site as ``make run`` does (embedded Redis and SQLite, Daphne, one
Celery worker and beat, in a throwaway var folder), then makes ``--matches`` Don't Go
Boom matches between two random bots through the services, each watched by
``--watchers`` signed-out sockets opened before the bots begin (the worker stops taking
tasks while the matches are made and their sockets open, then takes them again). Every
move is a bot's. It waits until every match is over and every socket has the last
board, then reads the CPU time
(user + system, ``/proc/<pid>/stat``) the worker processes and the Daphne spent from
the first socket's opening to the end, over the moves stored: milliseconds per bot
move, worker and Daphne apart. The benchmark's own process is not counted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
from typing import Any

from bench.bot_latency import embedded_site, wait_until
from bench.ws_servers import cpu_seconds


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def role(pid: int) -> str | None:
    """ "daphne", "worker" or None (beat, anything else), from the command line."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read().split(b"\0")
    except OSError:
        return None
    if any(word.endswith(b"daphne") for word in words):
        return "daphne"
    if b"worker" in words and b"celery" in words:
        return "worker"
    return None


def cpu_by_role(site_pid: int) -> dict[str, float]:
    totals = {"daphne": 0.0, "worker": 0.0}
    for pid in descendants(site_pid):
        kind = role(pid)
        if kind is not None:
            with contextlib.suppress(OSError):
                totals[kind] += cpu_seconds(pid)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--watchers", type=int, default=1, help="signed-out sockets per match")
    args = parser.parse_args()

    with embedded_site() as (site_pid, port):
        moves, spent = run(site_pid, port, args.matches, args.watchers)
    worker, daphne = spent["worker"] * 1000 / moves, spent["daphne"] * 1000 / moves
    print(
        f"{args.matches} Don't Go Boom matches between random bots, {args.watchers} signed-out socket(s) on "
        f"each, {moves} bot moves (embedded Redis and SQLite, 1 worker); load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after; {os.cpu_count()} cores."
    )
    print("| worker ms/move | Daphne ms/move | site ms/move |")
    print("|---:|---:|---:|")
    print(f"| {worker:.1f} | {daphne:.1f} | {worker + daphne:.1f} |")


def run(site_pid: int, port: int, matches: int, watchers: int) -> tuple[int, dict[str, float]]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from websockets.sync.client import connect
    from websockets.typing import Origin

    from accounts.models import User
    from boomsite.celery import app
    from games.models import Match, Move
    from games.services import SeatRequest, match_create

    organiser = User.objects.create_user(username=f"bench{os.getpid()}", password="x")
    # The bots wait (their first turns stay queued) until every match has its sockets.
    assert app.control.cancel_consumer("celery", reply=True)
    made, sockets = [], []
    for _ in range(matches):
        match = match_create(
            creator=organiser, game_slug="dont-go-boom", options={"rounds": 1},
            seats=[SeatRequest("bot", level="random"), SeatRequest("bot", level="random")],
        )  # fmt: skip
        made.append(match.pk)
        for _ in range(watchers):
            ws = connect(
                f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/", origin=Origin(f"http://127.0.0.1:{port}")
            )
            sockets.append((match.pk, ws))
    for _, ws in sockets:  # each has its first board: it is on the match
        while json.loads(ws.recv(timeout=60))["type"] != "board":
            pass
    before = cpu_by_role(site_pid)
    assert app.control.add_consumer("celery", reply=True)

    def all_over() -> bool:
        return not Match.objects.filter(pk__in=made).exclude(status=Match.Status.FINISHED).exists()

    wait_until(all_over, timeout=600, what="every bot match to finish")
    last_ply = dict(Match.objects.filter(pk__in=made).values_list("pk", "ply"))
    for match_id, ws in sockets:  # each socket shows the last board: every push arrived
        shown = -1
        while shown < last_ply[match_id]:
            message: dict[str, Any] = json.loads(ws.recv(timeout=60))
            if message["type"] == "board":
                shown = message["ply"]
    time.sleep(0.5)  # the worker's last after-commit work, the Daphne's last sends
    spent = {kind: cpu_by_role(site_pid)[kind] - before[kind] for kind in before}
    for _, ws in sockets:
        ws.close()
    return Move.objects.filter(match_id__in=made).count(), spent


if __name__ == "__main__":
    main()
