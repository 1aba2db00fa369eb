"""Where a move's CPU goes in the site's Daphne: a py-spy profile split into the parts
of the move path (bench/README.md, "The move path under load").

    nice -n 10 .venv/bin/python -m bench.ws_load --rates 40 --step-seconds 60 --no-baseline &
    sleep 25   # the sockets are open and the step is playing
    .venv/bin/py-spy record -p "$(pgrep -f 'daphne.*boomsite' | head -1)" -d 20 -r 250 --gil \\
        -f raw -o /tmp/move.raw
    .venv/bin/python -m bench.cpu_split /tmp/move.raw --cpu-ms 22   # the step's CPU per move

``--gil`` keeps only the samples of the thread holding the GIL: Daphne runs on one
core, so those are its CPU, whichever thread spends it (the event loop or a socket's
database thread). Each sample goes to the first part whose frame it has, in the order
of ``PARTS``; ``--cpu-ms`` turns the shares into milliseconds per move.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

# (part, a frame that marks it): checked in this order, so a part inside another
# (the session check, run in the move's thread call) comes before the one around it.
PARTS = [
    ("session check before the move", "SiteSocket._signs_in_still"),
    (
        "drawing the move's boards where it is stored (presence, view, presenter, templates)",
        "boards_for_watching",
    ),
    ("after-commit pushes and doorbells, the thread's side", "after_commit.<locals>.run"),
    ("the move's service (engine, SQL, commit)", "match_submit_action"),
    ("reading the match for a doorbell's boards (SQL, presence, decoding)", "read_live_picture"),
    ("rendering a doorbell's boards (view, presenter, templates)", "LivePicture.live_html"),
    ("socket threads, the rest", "_SocketDatabaseCall"),
    ("channel layer (Redis)", "channels_redis"),
    ("sending over the sockets", "send_json"),
    ("receiving from the sockets", "websocket_receive"),
    ("event loop, the rest (Daphne, ASGI, asyncio)", "Server.run"),
]


def split(lines: list[str]) -> tuple[Counter[str], int]:
    """Samples per part of a py-spy ``raw`` profile (``frame;frame;... count`` lines)."""
    parts: Counter[str] = Counter()
    total = 0
    for line in lines:
        line = line.rstrip()
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        samples = int(count)
        total += samples
        part = next((name for name, frame in PARTS if frame in stack), "other")
        parts[part] += samples
    return parts, total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("profile", type=Path, help="py-spy record -f raw output")
    parser.add_argument("--cpu-ms", type=float, help="the run's server CPU per move, to print milliseconds")
    args = parser.parse_args(argv)
    parts, total = split(args.profile.read_text().splitlines())
    if not total:
        raise SystemExit("no samples in the profile")
    print("| part | share | ms per move |\n|---|--:|--:|")
    for name, samples in parts.most_common():
        share = samples / total
        ms = f"{share * args.cpu_ms:.1f}" if args.cpu_ms else ""
        print(f"| {name} | {100 * share:.1f}% | {ms} |")


if __name__ == "__main__":
    main()
