"""The client's address when Daphne sits behind proxies we run (TRUSTED_PROXIES, README).

Behind a proxy every request comes from the proxy, so allauth's per-address rate
limits would put all users in one bucket. ``X-Forwarded-For`` names the client, but
anyone can send that header: it is believed only when the direct peer is a
configured proxy, and only as far as the chain of trusted proxies reaches. Daphne's
own ``--proxy-headers`` believes the header from any peer and takes its leftmost
entry, which the client writes, so it is not used.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# Some proxies (Azure's gateway, for one) add the port: "192.0.2.1:4711", "[2001:db8::1]:4711".
_WITH_PORT = re.compile(r"\[(?P<bracketed>[^\]]+)\](?::\d+)?|(?P<ipv4>[0-9.]+):\d+")


def client_address(*, peer: str, forwarded_for: str | None, trusted_proxies: Sequence[Network]) -> str:
    """The first address from the right of X-Forwarded-For + peer that is not a trusted proxy.

    ``peer`` is the direct peer (REMOTE_ADDR). Unless it is a trusted proxy,
    X-Forwarded-For is ignored: a client cannot choose its address. Every trusted
    proxy appends the address it saw, so walking from the right stops at the first
    entry no trusted proxy could have written; entries left of it are the client's
    own claims and are never read. A malformed entry in the part we walk means a
    proxy is misconfigured: the peer's address is used. IPv4-mapped IPv6 addresses
    (a dual-stack listener) are given as IPv4, so they are not all truncated into
    one IPv6 /64 rate-limit bucket.
    """
    peer_address = _parse_address(peer)
    if peer_address is None:
        return peer
    if not forwarded_for or not _is_trusted(peer_address, trusted_proxies):
        return str(peer_address)
    client = peer_address
    for entry in reversed(forwarded_for.split(",")):
        address = _parse_address(entry)
        if address is None:
            return str(peer_address)
        client = address
        if not _is_trusted(address, trusted_proxies):
            break
    return str(client)


def _parse_address(text: str) -> Address | None:
    text = text.strip()
    with_port = _WITH_PORT.fullmatch(text)
    if with_port:
        text = with_port["bracketed"] or with_port["ipv4"]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def _is_trusted(address: Address, trusted_proxies: Sequence[Network]) -> bool:
    return any(address in network for network in trusted_proxies)


class ClientAddressMiddleware:
    """HTTP: puts the client's address in REMOTE_ADDR, where allauth's rate limits read it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.META["REMOTE_ADDR"] = client_address(
            peer=request.META.get("REMOTE_ADDR", ""),
            forwarded_for=request.META.get("HTTP_X_FORWARDED_FOR"),
            trusted_proxies=settings.TRUSTED_PROXIES,
        )
        return self.get_response(request)


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ClientAddressASGIMiddleware:
    """WebSockets: the same rule for ``scope["client"]`` (HTTP goes through the middleware above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("client"):
            peer, port = scope["client"]
            # Repeated headers are one list, as in Django's ASGI requests.
            forwarded_for = ",".join(
                value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name == b"x-forwarded-for"
            )
            address = client_address(
                peer=peer, forwarded_for=forwarded_for, trusted_proxies=settings.TRUSTED_PROXIES
            )
            peer_as_given = client_address(peer=peer, forwarded_for=None, trusted_proxies=())
            # Through a proxy, the port we saw is the proxy's and the client's is unknown
            # (Daphne's --proxy-headers gives 0 too).
            scope = {**scope, "client": [address, port if address == peer_as_given else 0]}
        await self.app(scope, receive, send)
