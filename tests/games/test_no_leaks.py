"""Nothing a seat may not see ever reaches it: not in a socket frame, a page, the API
or a program's stream.

Many random matches of every game are played through the services, with a real
socket open for every seat and for a spectator, and a program's match stream for
every seat and for a stranger (``/api/matches/<id>/stream``, each with its own token),
and each seat's event stream (``/api/stream/events``). Every frame each socket
receives, every line of the streams, and pages and API answers fetched along the way,
are then checked two ways:

- they never hold the match's secret seed, nor the state's generator state (its key),
  while the match runs (once it is over, its page shows the seed for the fair-deal check);
- they are exactly what the same viewer would get if the hidden parts of the game
  were different (the API's answers and the streams' lines: exactly their seat's view
  of the state): the state is re-dealt by ``game.sample`` from the viewer's own
  view, **every id is renamed** to a fresh random one, and the viewer's part is
  re-rendered from it; the two must agree up to the ids' names. Had anything outside
  the view reached the viewer (a card's value, a tile under its back), or had an id
  said anything besides naming a thing (its order, or its value, telling the deal),
  the two would differ.
"""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass, replace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import User
from accounts.services import api_token_create
from games.engine import all_games, get
from games.live.fragments import live_html
from games.models import Match
from games.selectors import access
from games.services import SeatRequest, match_create, match_join
from tests.games.helpers import live_part, normalised, random_move, without_presence
from tests.games.sockets import Viewer, next_of, run, socket
from tests.games.streams import Stream

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_MATCHES_PER_GAME = 6
MAX_PLIES = 30  # per match
CHECKS_PER_GAME = 60
SHORT = {"dont-go-boom": {"rounds": 1}}


@dataclass
class Seen:
    """Something a viewer received at one ply."""

    viewer: int | None  # seat, or None for the spectator
    ply: int
    kind: str  # "frame", "page", "api", "stream" (a match stream's state line) or "events"
    body: str


# An id: eight hex digits standing alone (a generator's 64-digit key does not match).
_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{8}(?![0-9a-f])")


def ids_in(data: Any) -> set[str]:
    """The opaque ids in an encoded state, wherever they stand: as a value, or inside a
    text (a log line, a log entry's facts kept as JSON text)."""
    if isinstance(data, str):
        return set(_ID.findall(data))
    if isinstance(data, dict):
        return {found for value in data.values() for found in ids_in(value)}
    if isinstance(data, list):
        return {found for value in data for found in ids_in(value)}
    return set()


def renamed(data: Any, names: dict[str, str]) -> Any:
    """``data`` with every id renamed by ``names``, inside texts too."""
    if isinstance(data, str):
        return _ID.sub(lambda found: names.get(found.group(0), found.group(0)), data)
    if isinstance(data, dict):
        return {key: renamed(value, names) for key, value in data.items()}
    if isinstance(data, list):
        return [renamed(value, names) for value in data]
    return data


def up_to_id_names(html: str, ids: set[str]) -> str:
    """``html`` with each id replaced by its order of first appearance: two pages that
    differ only in what their ids are called come out the same."""
    if not ids:
        return html
    order: dict[str, str] = {}
    pattern = re.compile("|".join(sorted(ids)))
    return pattern.sub(lambda found: order.setdefault(found.group(0), f"id#{len(order)}"), html)


def what_the_viewer_would_see_with_other_hidden_parts(
    match: Match, snapshot: dict[str, Any], viewer: int | None, rng: random.Random
) -> tuple[str, set[str]]:
    """The viewer's live part rendered from a re-dealt state whose ids are all new,
    and those new ids."""
    game = get(match.game)
    state = game.decode(snapshot["state"])
    resampled = game.encode(game.sample(game.view(state, viewer), viewer, rng))
    old_ids = sorted(ids_in(resampled))
    new_ids = [f"{value:08x}" for value in rng.sample(range(1 << 32), len(old_ids))]
    names = dict(zip(old_ids, new_ids, strict=True))
    other = copy.copy(match)
    other.state, other.ply, other.status = renamed(resampled, names), snapshot["ply"], snapshot["status"]
    acc = access(
        match.pk, User.objects.get(pk=snapshot["users"][viewer]) if viewer is not None else _nobody()
    )
    return normalised(live_html(replace(acc, match=other))), set(new_ids)


def _nobody() -> Any:
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()


def play_and_watch(slug: str, players: int, seed: int) -> tuple[Match, list[Seen], dict[int, dict[str, Any]]]:
    """Play one random match with a socket per seat and a spectator's; return what each received."""
    people = [
        User.objects.create_user(username=f"p{seed}-{seat}", password="x", display_name=f"Seat{seat}")
        for seat in range(players)
    ]
    options = SHORT.get(slug, {})
    match = match_create(
        creator=people[0], game_slug=slug, options=options,
        seats=[SeatRequest("me"), *[SeatRequest("invite", username=p.username) for p in people[1:]]],
    )  # fmt: skip
    viewers = {seat: Viewer(person) for seat, person in enumerate(people)}
    viewers_spectator = Viewer(None)
    tokens = {seat: api_token_create(user=person, name="leak test")[1] for seat, person in enumerate(people)}
    stranger = User.objects.create_user(username=f"p{seed}-stranger", password="x")
    stranger_token = api_token_create(user=stranger, name="leak test")[1]
    clients: dict[int | None, Client] = {None: Client()}
    for seat, person in enumerate(people):
        clients[seat] = Client()
        clients[seat].force_login(person)
    seen: list[Seen] = []
    snapshots: dict[int, dict[str, Any]] = {}
    rng = random.Random(seed)
    users = {seat: person.pk for seat, person in enumerate(people)}

    def snapshot() -> int:
        current = Match.objects.get(pk=match.pk)
        snapshots[current.ply] = {
            "state": current.state, "ply": current.ply, "status": current.status, "users": users,
            "seed": current.seed,
        }  # fmt: skip
        return current.ply

    def fetch_pages(ply: int) -> None:
        for viewer, client in clients.items():
            page = client.get(f"/matches/{match.pk}/").content.decode()
            seen.append(Seen(viewer, ply, "page", page))
        for seat, token in tokens.items():
            answer = Client().get(f"/api/matches/{match.pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
            seen.append(Seen(seat, ply, "api", answer.content.decode()))

    def move() -> bool:
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.RUNNING or current.ply >= MAX_PLIES:
            return False
        random_move(current, dict(enumerate(people)), rng)
        return True

    async def scenario() -> None:
        sockets_all: dict[int | None, Any] = {
            seat: socket(match.pk, viewer) for seat, viewer in viewers.items()
        }
        sockets_all[None] = socket(match.pk, viewers_spectator)
        for ws in sockets_all.values():
            assert (await ws.connect())[0]
            await next_of(ws, "board")  # the open match's lobby board
        streams: dict[int | None, Stream] = {
            seat: Stream(f"/api/matches/{match.pk}/stream", token) for seat, token in tokens.items()
        }
        streams[None] = Stream(f"/api/matches/{match.pk}/stream", stranger_token)
        events = {seat: Stream("/api/stream/events", token) for seat, token in tokens.items()}
        for stream in [*streams.values(), *events.values()]:
            assert await stream.open() == 200
        for person in people[1:]:
            await database_sync_to_async(match_join)(match_id=match.pk, user=person)
        ply = await database_sync_to_async(snapshot)()
        while True:
            for viewer, ws in sockets_all.items():
                # Joins ring the doorbell too: frames of earlier rings are read past.
                while True:
                    frame = await next_of(ws, "board", timeout=10)
                    if frame["ply"] == ply and 'data-status="open"' not in frame["html"]:
                        break
                seen.append(Seen(viewer, ply, "frame", frame["html"]))
            for viewer, stream in streams.items():
                while True:  # the lines of the open match and its joins are read past
                    line = await stream.next_of("state", timeout=10)
                    if line["ply"] == ply and line["status"] != "open":
                        break
                seen.append(Seen(viewer, ply, "stream", json.dumps(line)))
            if ply % 10 == 0:
                await database_sync_to_async(fetch_pages)(ply)
            if not await database_sync_to_async(move)():
                break
            ply = await database_sync_to_async(snapshot)()
        for ws in sockets_all.values():
            await ws.disconnect()
        for seat, stream in events.items():
            told = await stream.lines_until_quiet(0.3)
            seen.extend(Seen(seat, ply, "events", json.dumps(line)) for line in told)
        for stream in [*streams.values(), *events.values()]:
            await stream.close()

    run(scenario)
    return Match.objects.get(pk=match.pk), seen, snapshots


def check(match: Match, seen: list[Seen], snapshots: dict[int, dict[str, Any]], seed: int) -> int:
    rng = random.Random(seed)
    game = get(match.game)
    checked = 0
    every_secret = {str(snapshot["seed"]) for snapshot in snapshots.values()} | {
        generator["key"] if isinstance(generator := snapshot["state"].get("rng"), dict) else str(generator)
        for snapshot in snapshots.values()
    }
    for item in seen:
        if item.kind == "events":
            # A match's summary, never its view: nothing of its state, at any ply, ever.
            assert not any(secret in item.body for secret in every_secret), (match.game, item.viewer)
            assert '"view"' not in item.body and '"state"' not in item.body
            continue
        snapshot = snapshots[item.ply]
        generator = snapshot["state"].get("rng")
        secrets = {str(snapshot["seed"]), generator["key"] if isinstance(generator, dict) else str(generator)}
        # Once the match is over its seed is public (the fair-deal check shows it on the
        # page, games/replays.py); until then nothing may hold it.
        if snapshot["status"] != Match.Status.FINISHED:
            for secret in secrets:
                assert secret not in item.body, (match.game, item.kind, item.viewer, "holds a secret")
        elif item.kind != "page":
            assert str(snapshot["seed"]) not in item.body, (
                match.game,
                item.kind,
                "frames and the API never show it",
            )
        if item.kind in ("api", "stream"):
            data = json.loads(item.body)
            if item.kind == "stream":
                assert data.pop("type") == "state"
            assert (
                set(data) >= {"view", "legal_actions", "ply"} and "state" not in data and "seed" not in data
            )
            state = game.decode(snapshot["state"])
            assert data["view"] == json.loads(json.dumps(game.view(state, item.viewer)))
            continue
        expected, new_ids = what_the_viewer_would_see_with_other_hidden_parts(
            match, snapshot, item.viewer, rng
        )
        true_ids = ids_in(snapshot["state"])
        # Online dots aside: the frames were drawn with every player's socket open.
        assert up_to_id_names(without_presence(live_part(item.body)), true_ids) == up_to_id_names(
            without_presence(live_part(expected)), new_ids
        ), (
            match.game,
            item.kind,
            item.viewer,
            item.ply,
        )
        checked += 1
    return checked


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_no_frame_page_or_api_answer_shows_a_viewer_anything_outside_its_view(slug: str) -> None:
    game = get(slug)
    counts = sorted({max(2, game.min_players), min(game.max_players, 3), game.max_players})
    checked = matches = 0
    # Random matches until enough has been seen (some It's a Bomb! matches blow up at once).
    while checked < CHECKS_PER_GAME and matches < MAX_MATCHES_PER_GAME:
        players = counts[matches % len(counts)]
        match, seen, snapshots = play_and_watch(slug, players, seed=1000 * matches + players)
        assert {item.kind for item in seen} >= {"frame", "page", "api", "stream", "events"}
        checked += check(match, seen, snapshots, seed=matches)
        matches += 1
    assert checked >= CHECKS_PER_GAME
