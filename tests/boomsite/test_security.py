"""Deployment hygiene: a strict Content-Security-Policy on pages, private match answers,
and no Server banner from the Daphne that ``make run`` starts."""

from __future__ import annotations

import re
import urllib.request

import pytest
from django.test import Client
from websockets.datastructures import Headers
from websockets.sync.client import connect
from websockets.typing import Origin

from accounts.models import User
from accounts.services import api_token_create
from boomsite.run import children
from games.models import Match
from games.services import SeatRequest, match_create
from tests.conftest import ROOT
from tests.processes import daphne, free_port

TEMPLATES = ROOT / "templates"


def policy_of(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: values for name, *values in directives}


@pytest.mark.django_db
def test_html_pages_carry_a_strict_content_security_policy(duel: Match) -> None:
    ann = duel.seats.get(index=0).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    for url in ("/", "/play/go-fox/", f"/matches/{duel.pk}/", "/admin/login/"):
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
def test_json_answers_carry_no_page_policy(duel: Match) -> None:
    ann = duel.seats.get(index=0).user
    assert ann is not None
    _, secret = api_token_create(user=ann, name="bot")
    response = Client().get(f"/api/matches/{duel.pk}", HTTP_AUTHORIZATION=f"Bearer {secret}")
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
def test_match_page_board_and_api_answers_are_private_and_not_stored(duel: Match) -> None:
    ann = duel.seats.get(index=0).user
    assert ann is not None
    client = Client()
    client.force_login(ann)
    _, secret = api_token_create(user=ann, name="bot")
    api = {"Authorization": f"Bearer {secret}"}
    answers = {
        "page": client.get(f"/matches/{duel.pk}/"),
        "board": client.get(f"/matches/{duel.pk}/board"),
        "api view": client.get(f"/api/matches/{duel.pk}", headers=api),
        "api move": client.post(
            f"/api/matches/{duel.pk}/actions", '{"action": {"type": "draw"}, "ply": 0}',
            content_type="application/json", headers=api,
        ),
    }  # fmt: skip
    for name, response in answers.items():
        directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
        assert {"private", "no-store"} <= directives, f"{name}: {response.get('Cache-Control')!r}"


def handshake_headers(url: str, origin: str) -> Headers:
    """The headers of an accepted WebSocket handshake's answer."""
    with connect(url, origin=Origin(origin), open_timeout=10) as socket:
        assert socket.response is not None
        return socket.response.headers


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_daphne_of_make_run_sends_no_server_banner(site_env: dict[str, str]) -> None:
    port = free_port()
    # A public match waiting for players: anyone's socket to it is accepted (a refused
    # handshake is a bare 403 with no headers at all, which would prove nothing).
    owner = User.objects.create_user(username="owner", password="pw-owner")
    match = match_create(
        creator=owner, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    web = next(child for child in children("127.0.0.1", str(port)) if child.name == "web")
    with daphne(site_env, port, argv=web.argv) as (site, _process):
        with urllib.request.urlopen(f"{site}/", timeout=10) as response:
            assert response.status == 200 and response.headers.get("Server") is None
        handshake = handshake_headers(f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/", site)
        assert "Upgrade" in handshake and "Server" not in handshake
