"""How long the live part of the match page takes to draw, per game and kind of viewer.

    psql -U postgres -h 127.0.0.1 -c "create database boom_jinja"   # once
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/boom_jinja REDIS_URL=redis://127.0.0.1:6379/11 \\
        SECRET_KEY=bench-key-0123456789abcdefghijklmnopqrstuvwxyz DEBUG=0 BOOMSITE_VAR_DIR=/tmp/bench-live/var
    .venv/bin/python manage.py collectstatic --noinput && .venv/bin/python manage.py migrate
    nice -n 10 .venv/bin/python -m bench.live_render                # every game, ~1 minute
    nice -n 10 .venv/bin/python -m bench.live_render --games dont-go-boom --repeats 500

After every move the site draws the live part (``games.live.fragments.live_html``) once
per kind of viewer with the match open (each seat, the watchers) and pushes it: its
template rendering was a quarter of a move's CPU under load. For every game (or
``--games``), this makes a match of ``min_players`` people (two at least) through the
services, with the deal fixed by ``--seed`` so that two runs draw the same positions,
plays ``--moves`` random legal moves through the services (stopping before a move that
would end the game: a running board, with its buttons, as most pushes are), and
times ``live_html`` for the kinds ``seat-0``, ``seat-1`` and ``watch-out`` as the push
draws them (``access_for_kind``, no request, the state decoded once). Each kind is drawn
``--repeats`` times after a warm-up, and the median CPU time of the drawing thread is
reported (``time.thread_time``: the time on the clock counts the moments the process
waited for a core while other jobs ran, and the process's CPU time counts its other
threads: the database pool's, the channel layer's loop). ``board_for`` alone (the
engine's view, the legal actions, the presenter: no template) is timed the same way, so
the template's share is the difference.

It prints a Markdown table: per game, the ply measured, the median ms per kind, their
mean ("ms per board"), the board-building part of it, and the size of a seat's live part.
It needs a database (PostgreSQL through DATABASE_URL, or the embedded SQLite under
BOOMSITE_VAR_DIR) and the Redis a move's push reads who is watching from; the accounts
and matches it makes are deleted at the end.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

KINDS = ("seat-0", "seat-1", "watch-out")
PREFIX = "bench-live-"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="", help="slugs, comma-separated (default: every game)")
    parser.add_argument("--moves", type=int, default=30, help="random moves played before timing")
    parser.add_argument("--repeats", type=int, default=300, help="timed draws per kind of viewer")
    parser.add_argument("--seed", type=int, default=1, help="the matches' deal and the moves' choices")
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
    django.setup()
    from django.conf import settings

    from games.engine import all_games

    wanted = [slug for slug in args.games.split(",") if slug]
    games = [game for game in all_games() if not wanted or game.slug in wanted]
    print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, DEBUG={settings.DEBUG}")
    print()
    print(
        "| game | ply | "
        + " | ".join(f"{kind} ms" for kind in KINDS)
        + " | ms per board | of which board_for | seat-0 KB |"
    )
    print("|---|---:|" + "---:|" * (len(KINDS) + 3))
    try:
        for game in games:
            print(measure(game.slug, max(2, game.min_players), args), flush=True)
    finally:
        clean_up()


def measure(slug: str, players: int, args: argparse.Namespace) -> str:
    from accounts.models import User
    from games.live.fragments import access_for_kind, live_html
    from games.selectors import board_for
    from games.services import SeatRequest, match_create, match_join, match_submit_action

    tag = f"{PREFIX}{slug}-{random.randrange(10**9)}"
    people = [
        User.objects.create_user(username=f"{tag}-{index}", email=f"{tag}-{index}@example.com")
        for index in range(players)
    ]
    seats = [SeatRequest("me")] + [SeatRequest("invite", username=person.username) for person in people[1:]]
    # The same deal on every run, so that two runs (before and after a change) time the same positions.
    with mock.patch("games.services.matches.secrets.randbits", return_value=args.seed):
        match = match_create(creator=people[0], game_slug=slug, options={}, seats=seats)
        for person in people[1:]:
            match_join(match_id=match.pk, user=person)
    rng = random.Random(args.seed)
    game = match.engine
    for _ in range(args.moves):
        match.refresh_from_db()
        state = match.decoded_state()
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        if game.result(game.apply(state, seat, action)) is not None:
            break  # time a running board, with its buttons, as most pushes are
        match_submit_action(match_id=match.pk, user=people[seat], action=action, ply=match.ply)

    match.refresh_from_db()
    match_seats = list(match.seats.select_related("user"))
    state = match.decoded_state()
    drawn: dict[str, float] = {}
    built: dict[str, float] = {}
    sizes: dict[str, int] = {}
    for kind in KINDS:
        access = access_for_kind(match, match_seats, kind)
        assert access is not None, kind
        # As the push draws it: no request, nobody else online, the state decoded once.
        draw = functools.partial(live_html, access, online=set(), state=state)
        drawn[kind] = median_ms(draw, args.repeats)
        built[kind] = median_ms(functools.partial(board_for, access, state=state), args.repeats)
        sizes[kind] = len(draw().encode())
    cells = " | ".join(f"{drawn[kind]:.2f}" for kind in KINDS)
    return (
        f"| {slug} | {match.ply} | {cells} | **{statistics.mean(drawn.values()):.2f}** "
        f"| {statistics.mean(built.values()):.2f} | {sizes['seat-0'] / 1024:.0f} |"
    )


def median_ms(draw: Callable[[], Any], repeats: int) -> float:
    for _ in range(max(10, repeats // 10)):  # warm-up: templates compiled, caches filled
        draw()
    times = []
    for _ in range(repeats):
        started = time.thread_time()
        draw()
        times.append(time.thread_time() - started)
    return statistics.median(times) * 1000


def clean_up() -> None:
    from accounts.models import User
    from games.models import Match

    Match.objects.filter(created_by__username__startswith=PREFIX).delete()
    User.objects.filter(username__startswith=PREFIX).delete()


if __name__ == "__main__":
    main()
