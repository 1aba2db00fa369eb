"""The database settings and PostgreSQL's pool of connections (boomsite/database.py).

The process-level tests start a real Daphne on the test database. They need
PostgreSQL, where the pool is: on the embedded SQLite there is none to test.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from websockets.exceptions import ConnectionClosed

from accounts.models import User
from accounts.services import api_token_create
from boomsite import database
from games.models import Match
from games.services import SeatRequest, match_create
from tests.boomsite.settings_process import read_settings, run_settings
from tests.conftest import ensure_bot_accounts, wait_for
from tests.processes import daphne, receive_kind, site_socket

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the pool is PostgreSQL's (DATABASE_URL); SQLite has none"
)


# -- the settings ----------------------------------------------------------------


def test_postgresql_gets_a_pool_sized_for_the_kind_of_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_POOL_WEB", raising=False)
    monkeypatch.delenv("DATABASE_POOL_WORKER", raising=False)
    monkeypatch.delenv("DATABASE_POOL_TIMEOUT", raising=False)
    url = "postgres://site:secret@db.example:5432/boomsite"
    web = database.url_database(url, database.WEB)
    worker = database.url_database(url, database.WORKER)
    # Django refuses a pool with persistent connections; each request gives its connection back.
    assert web["CONN_MAX_AGE"] == worker["CONN_MAX_AGE"] == 0
    assert web["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 10, "timeout": 10.0}
    assert worker["OPTIONS"]["pool"]["max_size"] == 2

    monkeypatch.setenv("DATABASE_POOL_WEB", "25")
    monkeypatch.setenv("DATABASE_POOL_WORKER", "3")
    monkeypatch.setenv("DATABASE_POOL_TIMEOUT", "2.5")
    assert database.url_database(url, database.WEB)["OPTIONS"]["pool"] == {
        "min_size": 1,
        "max_size": 25,
        "timeout": 2.5,
    }
    assert database.url_database(url, database.WORKER)["OPTIONS"]["pool"]["max_size"] == 3


def test_the_readme_arithmetic_matches_the_defaults() -> None:
    """The README's example (2 Daphnes, 2 workers of 2 processes) adds up as it says."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    total = 2 * database.POOL_WEB_DEFAULT + 2 * 2 * database.POOL_WORKER_DEFAULT
    assert f"2 × {database.POOL_WEB_DEFAULT} + 2 × 2 × {database.POOL_WORKER_DEFAULT} = {total}" in readme  # noqa: RUF001


def test_the_process_kind_is_web_only_where_asgi_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(database.PROCESS_KIND_VARIABLE, raising=False)
    assert database.process_kind() == database.WORKER
    monkeypatch.setenv(database.PROCESS_KIND_VARIABLE, "web")
    assert database.process_kind() == database.WEB


def test_a_url_other_than_postgresql_has_no_pool() -> None:
    assert "pool" not in database.url_database("sqlite:////tmp/x.sqlite3", database.WEB).get("OPTIONS", {})


def test_sqlite_is_unchanged(tmp_path: Path) -> None:
    settings = read_settings(tmp_path)
    assert settings["DB_ENGINE"] == "django.db.backends.sqlite3"


@pytest.mark.parametrize(
    ("variable", "value", "words"),
    [
        ("DATABASE_POOL_WEB", "0", "DATABASE_POOL_WEB must be at least 1"),
        ("DATABASE_POOL_WORKER", "many", "DATABASE_POOL_WORKER must be a whole number"),
        ("DATABASE_POOL_TIMEOUT", "soon", "DATABASE_POOL_TIMEOUT must be a number of seconds"),
        ("DATABASE_POOL_TIMEOUT", "0", "DATABASE_POOL_TIMEOUT must be more than 0"),
    ],
)
def test_a_bad_pool_setting_stops_the_start(tmp_path: Path, variable: str, value: str, words: str) -> None:
    completed = run_settings(
        tmp_path,
        DATABASE_URL="postgres://site@127.0.0.1:5432/boomsite",
        SECRET_KEY="x" * 50,
        **{variable: value},
    )
    assert completed.returncode != 0
    assert words in completed.stderr


# -- a real Daphne on PostgreSQL ------------------------------------------------


@dataclass
class Player:
    user: User
    match_id: int
    token: str
    cookie: str


def make_players(count: int) -> list[Player]:
    """People each in a match against the random bot, their turn first (no worker runs,
    so the bot never answers): each may make exactly one move."""
    ensure_bot_accounts()
    players = []
    for number in range(count):
        user = User.objects.create_user(username=f"pooled{number}", password="x", display_name=f"P{number}")
        match = match_create(  # in Go Fox! seat 1 begins: the person's seat
            creator=user,
            game_slug="go-fox",
            options={},
            seats=[SeatRequest("bot", level="random"), SeatRequest("me")],
        )
        assert match.seats.get(index=1).owes_decision
        _token, secret = api_token_create(user=user, name="pool test")
        client = Client()
        client.force_login(user)
        players.append(Player(user, match.pk, secret, f"sessionid={client.cookies['sessionid'].value}"))
    return players


def request(site: str, path: str, *, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
    status, answer, _headers = request_with_headers(site, path, headers=headers, body=body)
    return status, answer


def request_with_headers(
    site: str, path: str, *, headers: dict[str, str], body: Any = None
) -> tuple[int, Any, dict[str, str]]:
    data = json.dumps(body).encode() if body is not None else None
    prepared = urllib.request.Request(f"{site}{path}", data=data, headers=headers)
    if data is not None:
        prepared.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(prepared, timeout=60) as answer:
            raw, status, got = answer.read(), answer.status, answer.headers
    except urllib.error.HTTPError as error:
        raw, status, got = error.read(), error.code, error.headers
    content = json.loads(raw) if got.get_content_type() == "application/json" else raw.decode()
    return status, content, dict(got.items())


class ConnectionWatch:
    """The most connections the Daphne under test held at once (``PGAPPNAME`` tells its
    connections from the test's own), sampled every few milliseconds in a thread."""

    def __init__(self, application_name: str) -> None:
        self.application_name = application_name
        self.most = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def count(self, *, waiting_on_a_lock: bool = False) -> int:
        import psycopg
        from django.conf import settings

        database = settings.DATABASES["default"]
        with psycopg.connect(
            host=database["HOST"] or None, port=database["PORT"] or None, user=database["USER"],
            password=database["PASSWORD"] or None, dbname="postgres", autocommit=True,
        ) as watcher:  # fmt: skip
            query = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s"
            if waiting_on_a_lock:
                query += " AND wait_event_type = 'Lock'"
            row = watcher.execute(query, [self.application_name]).fetchone()
        return int(row[0]) if row else 0

    def _watch(self) -> None:
        while not self._stop.is_set():
            self.most = max(self.most, self.count())
            time.sleep(0.02)

    def __enter__(self) -> ConnectionWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


@contextmanager
def pooled_daphne(site_env: dict[str, str], **settings: str) -> Iterator[tuple[str, str]]:
    application = f"pool-test-{uuid.uuid4().hex[:8]}"
    env = {**site_env, "PGAPPNAME": application, **settings}
    with daphne(env) as (site, _process):
        yield site, application


def play_a_client(site: str, player: Player) -> Counter[int]:
    """Ten requests, as a person's tab and a program would make them: pages, the API,
    and one move through the API."""
    statuses: Counter[int] = Counter()
    page = {"Cookie": player.cookie}
    api = {"Authorization": f"Bearer {player.token}"}
    for path in ("/", "/play/", f"/matches/{player.match_id}/", "/matches/"):
        statuses[request(site, path, headers=page)[0]] += 1
    status, seen = request(site, f"/api/matches/{player.match_id}", headers=api)
    statuses[status] += 1
    move = {"action": seen["legal_actions"][0], "ply": seen["ply"], "action_id": str(uuid.uuid4())}
    statuses[request(site, f"/api/matches/{player.match_id}/actions", headers=api, body=move)[0]] += 1
    for path in (f"/matches/{player.match_id}/board", "/play/go-fox/", f"/matches/{player.match_id}/replay"):
        statuses[request(site, path, headers=page)[0]] += 1
    statuses[request(site, f"/api/matches/{player.match_id}", headers=api)[0]] += 1
    return statuses


@on_postgresql
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_forty_clients_hold_at_most_the_pool_and_get_no_5xx(site_env: dict[str, str]) -> None:
    """40 concurrent clients, 400 requests (pages, the API, a move each): a Daphne with a
    pool of 6 holds at most 6 connections and answers every request. Before the pool, one
    Daphne held a connection per request thread (85 after 300 requests)."""
    players = make_players(40)
    with pooled_daphne(site_env, DATABASE_POOL_WEB="6") as (site, application):
        with ConnectionWatch(application) as watch, ThreadPoolExecutor(max_workers=40) as clients:
            totals = sum(
                (outcome for outcome in clients.map(lambda p: play_a_client(site, p), players)), Counter()
            )
        idle = watch.count()
    assert sum(totals.values()) == 400
    assert not {status for status in totals if status >= 500}, totals
    assert set(totals) <= {200, 201}, totals
    # Every move was played, exactly once.
    assert (
        sorted(Match.objects.filter(pk__in=[p.match_id for p in players]).values_list("ply", flat=True))
        == [1] * 40
    )
    # The pool was used (more than one at once) and never overdrawn.
    assert 1 < watch.most <= 6, watch.most
    assert idle <= 6


@on_postgresql
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_empty_pool_answers_503_then_serves_again(site_env: dict[str, str]) -> None:
    """A pool of one connection, held by a move waiting on the match's row lock (which
    this test holds): a page and the API wait their 0.5 s and answer 503 with
    Retry-After (the API in JSON), an open socket says ``busy`` and stays open, a new
    one is closed with 4503 (try again later), and once the lock goes everything is
    served again and the move is played once."""
    (player,) = make_players(1)
    api = {"Authorization": f"Bearer {player.token}"}
    with pooled_daphne(site_env, DATABASE_POOL_WEB="1", DATABASE_POOL_TIMEOUT="0.5") as (site, application):
        status, seen = request(site, f"/api/matches/{player.match_id}", headers=api)
        assert status == 200
        move = {"action": seen["legal_actions"][0], "ply": seen["ply"], "action_id": str(uuid.uuid4())}
        with (
            site_socket(site, f"/ws/matches/{player.match_id}/", player.cookie) as socket,
            ThreadPoolExecutor(1) as mover,
        ):
            receive_kind(socket, "board")
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=player.match_id)
                played = mover.submit(
                    request, site, f"/api/matches/{player.match_id}/actions", headers=api, body=move
                )
                # The move has the pool's one connection and waits for the lock.
                wait_for(
                    lambda: ConnectionWatch(application).count(waiting_on_a_lock=True) == 1,
                    timeout=20,
                    what="the move to wait on the row lock",
                )
                status, answer, headers = request_with_headers(
                    site, f"/api/matches/{player.match_id}", headers=api
                )
                assert (status, answer["error"]["code"]) == (503, "busy"), answer
                assert headers["Retry-After"] == "5"
                page_status, page = request(site, "/", headers={"Cookie": player.cookie})
                assert page_status == 503 and "busy" in page
                socket.send(json.dumps({"type": "refresh"}))
                assert receive_kind(socket, "error")["code"] == "busy"
                # A new socket's handshake needs the session: closed with "try again later".
                with site_socket(site, f"/ws/matches/{player.match_id}/", player.cookie) as newcomer:
                    with pytest.raises(ConnectionClosed) as closed:
                        newcomer.recv(timeout=20)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
            assert played.result(timeout=30)[0] == 201
            socket.send(json.dumps({"type": "refresh"}))
            assert receive_kind(socket, "board")
        assert request(site, "/", headers={"Cookie": player.cookie})[0] == 200
    assert Match.objects.get(pk=player.match_id).ply == 1
