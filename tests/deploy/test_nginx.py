"""The production stack of deploy/: Debian's nginx, with deploy/nginx/boomsite.conf, in
front of two Daphnes, on the suite's database and Redis (PostgreSQL and Redis in CI).

The site file is used as shipped; only what names this machine changes (the ports,
the certificate, the static folder), each replacement checked to match exactly once,
so an edit of the shipped file is an edit of what this test runs. The certificate is
a self-signed one made here; the Daphnes run as in production (HTTPS_ONLY, DEBUG off,
TRUSTED_PROXIES naming nginx's address).

Clients come from other loopback addresses (127.0.0.2, 127.0.0.3: Linux routes all of
127.0.0.0/8 to this machine), so nginx sees each as a client of its own and appends it
to X-Forwarded-For, as it would a visitor's address.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from accounts.models import User
from games.services import SeatRequest, match_create, match_join
from tests.browser.helpers import log_in, off_the_event_loop, turns_seen_live
from tests.conftest import ROOT, ensure_bot_accounts, wait_for
from tests.processes import accepts, daphne, free_port, stop

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NGINX = "/usr/sbin/nginx"
SHIPPED = ROOT / "deploy" / "nginx" / "boomsite.conf"
UNVERIFIED = ssl._create_unverified_context()  # the test's own self-signed certificate


@dataclass
class Stack:
    https: str  # the site's public address, through nginx
    https_port: int
    http_port: int
    daphne_ports: tuple[int, int]


def render_site_file(
    *, http_port: int, https_port: int, daphne_ports: tuple[int, int], cert: Path, key: Path, static: Path
) -> str:
    text = SHIPPED.read_text()
    replacements = {
        "server 127.0.0.1:8001;": f"server 127.0.0.1:{daphne_ports[0]};",
        "server 127.0.0.1:8002;": f"server 127.0.0.1:{daphne_ports[1]};",
        "    listen 80;\n": f"    listen 127.0.0.1:{http_port};\n",
        "    listen [::]:80;\n": "",
        "    listen 443 ssl http2;\n": f"    listen 127.0.0.1:{https_port} ssl http2;\n",
        "    listen [::]:443 ssl http2;\n": "",
        "/etc/letsencrypt/live/boom.example/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/boom.example/privkey.pem": str(key),
        "alias /var/lib/boomsite/static/;": f"alias {static}/;",
    }
    for shipped, here in replacements.items():
        assert text.count(shipped) == 1, f"deploy/nginx/boomsite.conf no longer has {shipped!r} once"
        text = text.replace(shipped, here)
    return text


def main_config(folder: Path, site_file: Path) -> str:
    """What /etc/nginx/nginx.conf gives a site on Debian, in a folder of the test's own."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # the static files are in the test's folder
    temp = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        "events { worker_connections 512; }\n"
        "http {\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
        f"    access_log {folder / 'access.log'};\n{temp}    include {site_file};\n}}\n"
    )


@pytest.fixture(scope="module")
def stack(site_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not shutil.which(NGINX):
        pytest.fail(f"{NGINX} is missing: `make test` installs Debian's nginx package")
    folder = tmp_path_factory.mktemp("nginx")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    http_port, https_port = free_port(), free_port()
    site_url = f"https://127.0.0.1:{https_port}"
    env = {
        **{name: value for name, value in site_env.items() if name != "PROMETHEUS_MULTIPROC_DIR"},
        "DEBUG": "false",
        "HTTPS_ONLY": "true",
        "TRUSTED_PROXIES": "127.0.0.1",
        "CSRF_TRUSTED_ORIGINS": site_url,
    }
    static = Path(env["BOOMSITE_VAR_DIR"]) / "static"  # the run's STATIC_ROOT
    # nginx serves /static/ from collectstatic's output, as in production.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    with daphne(env, site_url=site_url) as (first, _), daphne(env, site_url=site_url) as (second, _):
        ports = (int(first.rsplit(":", 1)[1]), int(second.rsplit(":", 1)[1]))
        site_file = folder / "boomsite.conf"
        site_file.write_text(
            render_site_file(
                http_port=http_port, https_port=https_port, daphne_ports=ports, cert=cert, key=key,
                static=static,
            )
        )  # fmt: skip
        config = folder / "nginx.conf"
        config.write_text(main_config(folder, site_file))
        checked = subprocess.run([NGINX, "-t", "-c", config, "-p", folder], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen([NGINX, "-c", config, "-p", folder], stderr=subprocess.PIPE)
        try:
            wait_for(lambda: process.poll() is not None or accepts(https_port), timeout=20, what="nginx")
            assert process.poll() is None, process.stderr.read() if process.stderr else "nginx exited"
            yield Stack(site_url, https_port, http_port, ports)
        finally:
            stop(process)


def get(
    port: int, path: str, *, tls: bool = True, source: str = "127.0.0.1", method: str = "GET",
    headers: dict[str, str] | None = None, body: str | None = None,
) -> tuple[int, dict[str, str], list[str], str]:  # fmt: skip
    """One request from ``source`` (a loopback address): status, headers, Set-Cookie lines, body."""
    connection: http.client.HTTPConnection
    if tls:
        connection = http.client.HTTPSConnection(
            "127.0.0.1", port, source_address=(source, 0), context=UNVERIFIED, timeout=30
        )
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0), timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return (
            answer.status,
            {name.lower(): value for name, value in answer.getheaders()},
            answer.headers.get_all("Set-Cookie") or [],
            answer.read().decode(errors="replace"),
        )
    finally:
        connection.close()


def test_nginx_answers_for_the_site_without_saying_daphne(stack: Stack) -> None:
    status, headers, _cookies, body = get(stack.https_port, "/")
    assert status == 200 and "Boomsite" in body
    # server_tokens off: nginx without its version; Daphne says nothing of itself.
    assert headers["server"] == "nginx"
    assert not any("daphne" in value.lower() for value in headers.values())
    assert headers["strict-transport-security"].startswith("max-age=")
    # The WebSocket handshake, upgraded through nginx, says no more.
    with connect(
        f"wss://127.0.0.1:{stack.https_port}/ws/me/",
        origin=Origin(stack.https),
        ssl=UNVERIFIED,
        open_timeout=10,
    ) as socket:
        assert socket.response is not None
        handshake = {name.lower(): value for name, value in socket.response.headers.raw_items()}
        assert handshake.get("server") == "nginx"
        assert "daphne" not in json.dumps(handshake).lower()
    # Static files come from nginx itself, cached for ever (their names carry no hash
    # in the test's storage, but the header is the shipped one).
    status, headers, _cookies, body = get(stack.https_port, "/static/css/site.css")
    assert status == 200 and "immutable" in headers["cache-control"] and "color" in body
    # Plain HTTP goes to HTTPS, but for the load balancer's /healthz; /metrics never passes.
    status, headers, _cookies, _body = get(stack.http_port, "/play/", tls=False)
    assert status == 301 and headers["location"].startswith("https://")
    # (503 here: no Celery worker runs in this test, and /healthz says so.)
    status, _headers, _cookies, body = get(stack.http_port, "/healthz", tls=False)
    assert status in (200, 503) and "database" in json.loads(body)
    assert get(stack.https_port, "/metrics")[0] == 404


TOO_MANY = "Too many failed login attempts"


def failed_login(stack: Stack, source: str, username: str, *, forged_for: str | None = None) -> bool:
    """A wrong password for ``username`` from ``source``, with the form's CSRF token:
    whether the site refused to try (too many failures from that address)."""
    _status, _headers, cookies, page = get(stack.https_port, "/accounts/login/", source=source)
    csrf_cookie = next(cookie.split(";")[0] for cookie in cookies if cookie.startswith("csrftoken="))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "the login form has no CSRF token"
    headers = {
        "Cookie": csrf_cookie,
        "Origin": stack.https,
        "Referer": f"{stack.https}/accounts/login/",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    if forged_for:
        headers["X-Forwarded-For"] = forged_for
    form = f"csrfmiddlewaretoken={token[1]}&login={username}&password=wrong-password"
    status, _headers, _cookies, body = get(
        stack.https_port, "/accounts/login/", source=source, method="POST", headers=headers, body=form
    )
    assert status == 200, status  # the form again, with its error
    return TOO_MANY in body


def test_the_rate_limits_count_the_client_behind_nginx_not_nginx(stack: Stack) -> None:
    """Failed logins are limited to 10 a minute per address (each name to 5 in 5
    minutes, so each try uses another name). The 11th from 127.0.0.2 is refused; from
    127.0.0.3, even claiming to be 127.0.0.2 in its own X-Forwarded-For, the first is
    not: the site counts the address nginx saw, not nginx's, nor the client's claim."""
    refused = [failed_login(stack, "127.0.0.2", f"nobody{number}") for number in range(10)]
    assert refused == [False] * 10
    assert failed_login(stack, "127.0.0.2", "nobody10")
    assert not failed_login(stack, "127.0.0.3", "somebody", forged_for="127.0.0.2")


def match_sockets_of(daphne_port: int) -> float:
    """The match sockets one Daphne holds, from its own /metrics (each process answers
    for itself here: no PROMETHEUS_MULTIPROC_DIR)."""
    connection = http.client.HTTPConnection("127.0.0.1", daphne_port, timeout=10)
    try:
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
    finally:
        connection.close()
    found = re.search(r'^boomsite_sockets_open\{kind="match"\} (\S+)$', text, re.MULTILINE)
    return float(found[1]) if found else 0.0


@pytest.mark.browser
def test_two_browsers_play_live_with_their_sockets_on_different_daphnes(stack: Stack, browser: Any) -> None:
    ensure_bot_accounts()
    ann, bob = off_the_event_loop(
        lambda: [
            User.objects.create_user(username=name, password="x", display_name=name.title())
            for name in ("ann", "bob")
        ]
    )
    match = off_the_event_loop(
        lambda: match_create(
            creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("invite", username="bob")]
        )
    )  # fmt: skip
    off_the_event_loop(lambda: match_join(match_id=match.pk, user=bob))
    match_url = f"{stack.https}/matches/{match.pk}/"
    pages = {}
    for name, user in (("ann", ann), ("bob", bob)):
        context = browser.new_context(ignore_https_errors=True)
        log_in(context, stack.https, user)
        pages[name] = context.new_page()
    pages["ann"].goto(match_url)
    pages["ann"].wait_for_selector("#match-page[data-connected='yes']")
    # least_conn sends each new socket to the Daphne holding fewer connections, so
    # where Bob's lands depends on what else is open (each page has a personal socket
    # too). Watchers' sockets held open through nginx while Bob's page connects tip
    # the balance: one more each try, until his match socket is on the other Daphne.
    for spacers in range(4):
        with ExitStack() as watchers:
            for _ in range(spacers):
                watchers.enter_context(
                    connect(f"wss://127.0.0.1:{stack.https_port}/ws/matches/{match.pk}/",
                            origin=Origin(stack.https), ssl=UNVERIFIED, open_timeout=10)
                )  # fmt: skip
            pages["bob"].goto(match_url)
            pages["bob"].wait_for_selector("#match-page[data-connected='yes']")
        wait_for(lambda: sum(match_sockets_of(port) for port in stack.daphne_ports) == 2, timeout=10,
                 what="the watchers' sockets to close")  # fmt: skip
        on_each = [match_sockets_of(port) for port in stack.daphne_ports]
        if on_each == [1.0, 1.0]:
            break
        pages["bob"].goto("about:blank")
        wait_for(lambda: sum(match_sockets_of(port) for port in stack.daphne_ports) == 1, timeout=10,
                 what="Bob's socket to close")  # fmt: skip
    assert on_each == [1.0, 1.0], f"the two match sockets were never on different Daphnes: {on_each}"

    # Each move: the other player's board moves on by itself, pushed from the other Daphne.
    seen_by_other = turns_seen_live(pages, random.Random(7), tries=8)
    assert seen_by_other >= 6
    for page in pages.values():
        page.context.close()


def test_a_programs_stream_comes_through_nginx_line_by_line(stack: Stack, ann: User, bob: User) -> None:
    """nginx passes a stream's lines on as they come, never holding them for a buffer to
    fill or the response to end (``proxy_buffering off``; the stream says
    ``X-Accel-Buffering: no`` too): the first line, then a move's, on one open response."""
    from accounts.services import api_token_create
    from tests.games.helpers import on_turn, play

    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username=bob.username)],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    token = api_token_create(user=ann, name="bot")[1]
    connection = http.client.HTTPSConnection("127.0.0.1", stack.https_port, context=UNVERIFIED, timeout=10)
    try:
        connection.request(
            "GET", f"/api/matches/{match.pk}/stream", headers={"Authorization": f"Bearer {token}"}
        )
        answer = connection.getresponse()
        assert answer.status == 200 and answer.getheader("content-type", "").startswith(
            "application/x-ndjson"
        )
        first = json.loads(answer.readline())
        assert (first["type"], first["ply"], first["seat"]) == ("state", 0, 0)
        play(match, on_turn(match))
        line = answer.readline()
        while line == b"\n":  # keep-alives
            line = answer.readline()
        assert json.loads(line)["ply"] == 1
    finally:
        connection.close()
