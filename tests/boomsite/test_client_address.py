"""Who the client is behind TRUSTED_PROXIES: the rule, the setting, and the socket scope."""

from __future__ import annotations

import asyncio
import ipaddress
from pathlib import Path
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from boomsite import config
from boomsite.client_address import ClientAddressASGIMiddleware, client_address
from tests.boomsite.settings_process import run_settings

PROXIES = [ipaddress.ip_network(text) for text in ("127.0.0.1", "10.0.0.0/8", "2001:db8:ff::/48")]


def address(peer: str, forwarded_for: str | None = None) -> str:
    return client_address(peer=peer, forwarded_for=forwarded_for, trusted_proxies=PROXIES)


def test_an_untrusted_peer_is_the_client_whatever_it_forwards() -> None:
    assert address("203.0.113.7") == "203.0.113.7"
    assert address("203.0.113.7", "198.51.100.1") == "203.0.113.7"
    assert address("203.0.113.7", "10.0.0.5, 127.0.0.1") == "203.0.113.7"


def test_nobody_is_trusted_by_default() -> None:
    assert client_address(peer="127.0.0.1", forwarded_for="198.51.100.1", trusted_proxies=[]) == "127.0.0.1"


def test_a_trusted_peer_forwards_the_address_it_saw() -> None:
    assert address("127.0.0.1", "198.51.100.1") == "198.51.100.1"
    assert address("10.1.2.3", " 198.51.100.1 ") == "198.51.100.1"


def test_a_trusted_peer_without_forwarded_for_is_the_client() -> None:
    assert address("127.0.0.1") == "127.0.0.1"
    assert address("127.0.0.1", "") == "127.0.0.1"


def test_a_chain_is_walked_from_the_right_past_trusted_proxies_only() -> None:
    # client -> edge proxy 10.0.0.9 -> nginx on this host
    assert address("127.0.0.1", "198.51.100.1, 10.0.0.9") == "198.51.100.1"
    # An untrusted hop in the middle stops the walk: what is left of it is its claim.
    assert address("127.0.0.1", "198.51.100.1, 203.0.113.50, 10.0.0.9") == "203.0.113.50"


def test_an_address_the_client_prepends_is_not_believed() -> None:
    # The client sent "X-Forwarded-For: 10.0.0.1, 192.0.2.66"; nginx appended what it saw.
    assert address("127.0.0.1", "10.0.0.1, 192.0.2.66, 203.0.113.7") == "203.0.113.7"
    assert address("127.0.0.1", "127.0.0.1, 203.0.113.7") == "203.0.113.7"
    # Junk left of the real client is never read, so it cannot push the client into the proxy's bucket.
    assert address("127.0.0.1", "not-an-address, 203.0.113.7") == "203.0.113.7"


def test_when_every_hop_is_trusted_the_furthest_one_is_the_client() -> None:
    assert address("127.0.0.1", "10.0.0.3, 10.0.0.9") == "10.0.0.3"


def test_ipv6_clients_and_proxies() -> None:
    assert address("2001:db8:ff::1", "2001:DB8:1::abcd") == "2001:db8:1::abcd"
    assert address("2001:db8:1::1", "198.51.100.1") == "2001:db8:1::1"
    assert address("127.0.0.1", "[2001:db8:1::abcd]:4711") == "2001:db8:1::abcd"
    assert address("127.0.0.1", "198.51.100.1:4711") == "198.51.100.1"


def test_ipv4_mapped_addresses_of_a_dual_stack_listener_are_given_as_ipv4() -> None:
    assert address("::ffff:127.0.0.1", "198.51.100.1") == "198.51.100.1"
    assert address("::ffff:203.0.113.7") == "203.0.113.7"
    assert address("127.0.0.1", "::ffff:198.51.100.1") == "198.51.100.1"


@pytest.mark.parametrize(
    "forwarded_for", ["unknown", "198.51.100.1, ", "198.51.100.300", "198.51.100.1:port", "_hidden"]
)
def test_a_malformed_forwarded_for_falls_back_to_the_peer(forwarded_for: str) -> None:
    assert address("127.0.0.1", forwarded_for) == "127.0.0.1"


def test_a_peer_that_is_not_an_ip_address_is_left_as_it_is() -> None:
    assert address("", "198.51.100.1") == ""
    assert address("unix-socket", "198.51.100.1") == "unix-socket"


def test_trusted_proxies_are_read_as_addresses_and_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", " 127.0.0.1, 10.0.0.0/8 ,::1,, ")
    assert config.env_networks("TRUSTED_PROXIES") == [
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("::1/128"),
    ]
    monkeypatch.delenv("TRUSTED_PROXIES")
    assert config.env_networks("TRUSTED_PROXIES") == []


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        ("nginx", "'nginx' is not an IP address"),
        ("10.0.0.1/8", "has host bits set"),
        ("10.0.0.0/33", "'10.0.0.0/33'"),
    ],
)
def test_a_trusted_proxies_value_that_is_not_an_address_stops_the_start(
    tmp_path: Path, value: str, complaint: str
) -> None:
    completed = run_settings(tmp_path, TRUSTED_PROXIES=f"127.0.0.1,{value}")
    assert completed.returncode != 0
    assert "TRUSTED_PROXIES" in completed.stderr
    assert complaint in completed.stderr


def client_seen_by_the_socket_app(headers: list[tuple[bytes, bytes]], peer: list[Any]) -> Any:
    seen: dict[str, Any] = {}

    async def socket_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["client"] = scope["client"]

    async def nothing() -> dict[str, Any]:
        return {}

    async def discard(message: dict[str, Any]) -> None:
        pass

    scope = {"type": "websocket", "path": "/ws/", "headers": headers, "client": peer}
    asyncio.run(ClientAddressASGIMiddleware(socket_app)(scope, nothing, discard))
    return seen["client"]


def test_a_socket_through_a_trusted_proxy_has_the_forwarded_client(settings: Settings) -> None:
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    headers = [(b"x-forwarded-for", b"10.9.9.9"), (b"x-forwarded-for", b"198.51.100.1")]
    assert client_seen_by_the_socket_app(headers, ["127.0.0.1", 50123]) == ["198.51.100.1", 0]


def test_a_socket_from_an_untrusted_peer_keeps_its_own_address(settings: Settings) -> None:
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    headers = [(b"x-forwarded-for", b"198.51.100.1")]
    assert client_seen_by_the_socket_app(headers, ["203.0.113.7", 50123]) == ["203.0.113.7", 50123]
