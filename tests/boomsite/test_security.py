"""Deployment hygiene: a strict Content-Security-Policy on pages, private match answers,
and no Server banner from the Daphne that ``make run`` starts."""

from __future__ import annotations

import re
import subprocess
import urllib.request
from http.client import HTTPResponse
from pathlib import Path

import pytest
from django.test import Client
from websockets.datastructures import Headers
from websockets.sync.client import connect
from websockets.typing import Origin

from accounts.models import User
from accounts.services import api_token_create
from boomsite.run import children
from games.models import Match
from games.services import SeatRequest, match_create, match_join
from tests.boomsite.test_run import free_port
from tests.conftest import ROOT, wait_for

TEMPLATES = ROOT / "templates"


def policy_of(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: values for name, *values in directives}


@pytest.fixture
def running_match(db: None) -> Match:
    ann = User.objects.create_user(username="ann", email="ann@example.com", password="pw-ann")
    bob = User.objects.create_user(username="bob", email="bob@example.com", password="pw-bob")
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


@pytest.mark.django_db
def test_html_pages_carry_a_strict_content_security_policy(running_match: Match) -> None:
    ann = running_match.seats.get(index=0).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    for url in ("/", "/play/go-fox/", f"/matches/{running_match.pk}/", "/admin/login/"):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = policy_of(response)
        assert policy["default-src"] == ["'self'"], url
        assert policy["script-src"] == ["'self'"], url  # no inline script, no eval
        assert policy["style-src"] == ["'self'"], url  # no <style> element
        assert policy["connect-src"] == ["'self'"], url  # the socket goes back to the same host
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"], url
        assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"], url


@pytest.mark.django_db
def test_json_answers_carry_no_page_policy(running_match: Match) -> None:
    ann = running_match.seats.get(index=0).user
    assert ann is not None
    _, secret = api_token_create(user=ann, name="bot")
    response = Client().get(f"/api/matches/{running_match.pk}", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200 and "Content-Security-Policy" not in response


def test_templates_have_no_inline_script_or_event_handler() -> None:
    """What the policy would refuse: kept out of the templates, so nothing breaks silently."""
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"{path}: inline script {tag}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"{path}: inline event handler"
        assert "javascript:" not in text, f"{path}: javascript: URL"
        assert not re.search(r"<style\b", text), f"{path}: <style> element"


@pytest.mark.django_db
def test_match_page_board_and_api_answers_are_private_and_not_stored(running_match: Match) -> None:
    ann = running_match.seats.get(index=0).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    _, secret = api_token_create(user=ann, name="bot")
    api = {"Authorization": f"Bearer {secret}"}
    answers = {
        "page": client.get(f"/matches/{running_match.pk}/"),
        "board": client.get(f"/matches/{running_match.pk}/board"),
        "api view": client.get(f"/api/matches/{running_match.pk}", headers=api),
        "api move": client.post(
            f"/api/matches/{running_match.pk}/actions", '{"action": {"type": "draw"}, "ply": 0}',
            content_type="application/json", headers=api,
        ),
    }  # fmt: skip
    for name, response in answers.items():
        directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
        assert {"private", "no-store"} <= directives, f"{name}: {response.get('Cache-Control')!r}"


def answer(url: str) -> HTTPResponse | None:
    try:
        return urllib.request.urlopen(url, timeout=5)
    except OSError:
        return None


def handshake_headers(url: str, origin: str) -> Headers:
    """The headers of an accepted WebSocket handshake's answer."""
    with connect(url, origin=Origin(origin), open_timeout=10) as socket:
        assert socket.response is not None
        return socket.response.headers


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_daphne_of_make_run_sends_no_server_banner(site_env: dict[str, str]) -> None:
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    # A public match waiting for players: anyone's socket to it is accepted (a refused
    # handshake is a bare 403 with no headers at all, which would prove nothing).
    owner = User.objects.create_user(username="owner", password="pw-owner")
    match = match_create(
        creator=owner, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    web = next(child for child in children("127.0.0.1", str(port)) if child.name == "web")
    log_path = Path(site_env["BOOMSITE_VAR_DIR"]) / f"daphne-banner-{port}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            list(web.argv), cwd=ROOT, env={**site_env, "SITE_URL": site}, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        response = wait_for(
            lambda: process.poll() is not None or answer(f"{site}/"), timeout=60, what="Daphne"
        )
        assert process.poll() is None, f"Daphne exited at start: see {log_path}"
        with response:
            assert response.status == 200 and response.headers.get("Server") is None
        handshake = handshake_headers(f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/", site)
        assert "Upgrade" in handshake and "Server" not in handshake
    finally:
        process.terminate()
        process.wait(timeout=20)
