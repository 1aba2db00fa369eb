"""The site under a burst of health checks and with its Redis gone, in real processes.

A Daphne serving the site (and, for the burst, a Celery worker) on the tests'
database; for the outage, Daphne's Redis is a server of this test's own, stopped
halfway through.
"""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import api_token_create
from boomsite import embedded_redis
from games.models import Match, Move, Seat
from games.services import SeatRequest, match_create
from tests.conftest import ensure_bot_accounts, wait_for
from tests.processes import daphne, free_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def fetch(
    url: str, *, data: dict[str, Any] | None = None, token: str = "", timeout: float = 30
) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=None if data is None else json.dumps(data).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
        method="GET" if data is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def a_match_against_a_bot(person: User) -> Match:
    ensure_bot_accounts()
    return match_create(
        creator=person,
        game_slug="go-fox",
        options={},
        # Go Fox!'s first turn is the seat left of the dealer (seat 0): the person's.
        seats=[SeatRequest("bot", level="random"), SeatRequest("me")],
    )


def first_legal_action(base: str, match_id: int, token: str) -> tuple[int, dict[str, Any]]:
    status, body = fetch(f"{base}/api/matches/{match_id}", token=token)
    assert status == 200, body
    if not body["legal_actions"]:
        return body["ply"], {}
    return body["ply"], body["legal_actions"][0]


def test_a_burst_of_health_checks_blocks_nothing_and_bots_still_answer_at_once(
    site_env: dict[str, str], celery_worker_process: str
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    person = User.objects.create_user(username="burst", password="x", display_name="Burst")
    token = api_token_create(user=person, name="burst")[1]
    match = a_match_against_a_bot(person)
    with daphne(site_env, port):
        # The security test's repro: 40 at once (seq 40 | xargs -P40 curl -m30 /healthz).
        with ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(pool.map(lambda _: fetch(f"{base}/healthz", timeout=30)[0], range(40)))
        assert set(answers) <= {200, 503} and answers.count(200) >= 1, answers
        assert fetch(f"{base}/healthz", timeout=10)[0] == 200  # still answering, and a worker is seen

        # A request that queues a task still goes through, and the bot's reply comes from
        # that task, not from the sweep (which would take 30 s or more). The person plays
        # until the turn passes to the bot (a good ask in Go Fox! keeps the turn).
        for _ in range(20):
            ply, action = first_legal_action(base, match.pk, token)
            if not action:
                break
            status, body = fetch(
                f"{base}/api/matches/{match.pk}/actions",
                data={"action": action, "ply": ply},
                token=token,
                timeout=10,
            )
            assert status == 201, body
        wait_for(
            lambda: Move.objects.filter(match=match, seat=0).exists(),
            timeout=15,
            what="the bot's answer",
        )


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[bytes]]]:
    socket_path = tmp_path / "redis" / "redis.sock"
    process = embedded_redis.start(
        socket_path, persistent=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    try:
        yield socket_path, process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


def test_a_move_made_while_redis_is_down_is_answered_as_stored(
    site_env: dict[str, str], private_redis: tuple[Path, subprocess.Popen[bytes]]
) -> None:
    socket_path, redis_process = private_redis
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    person = User.objects.create_user(username="outage", password="x", display_name="Outage")
    token = api_token_create(user=person, name="outage")[1]
    match = a_match_against_a_bot(person)
    env = {**site_env, "REDIS_URL": f"unix://{socket_path}"}
    with daphne(env, port):
        ply, action = first_legal_action(base, match.pk, token)
        assert action, "the person moves first in this deal"
        redis_process.terminate()
        redis_process.wait(timeout=10)

        status, body = fetch(
            f"{base}/api/matches/{match.pk}/actions",
            data={"action": action, "ply": ply},
            token=token,
            timeout=30,
        )
        assert status == 201, body
        assert body == {"ply": ply + 1, "duplicate": False}
        assert Move.objects.filter(match=match, ply=ply).exists()
        # The doorbell failed and was logged; so was queueing the bot's turn when it owes
        # one (a good ask in Go Fox! keeps the turn), the one not keeping the other from running.
        log = (Path(env["BOOMSITE_VAR_DIR"]) / f"daphne-{port}.log").read_text
        bot_owes = Seat.objects.filter(match=match, index=0, owes_decision=True).exists()
        wanted = ["_ring", "_queue_bot_turn"] if bot_owes else ["_ring"]
        wait_for(
            lambda: all(name in log() for name in wanted), timeout=10, what=f"{wanted} failing in the log"
        )
        # The site still answers (the doorbell is gone, not the site).
        assert fetch(f"{base}/api/matches/{match.pk}", token=token)[0] == 200
