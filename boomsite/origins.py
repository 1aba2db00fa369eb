"""The origins the match socket accepts: exactly the site's own.

A browser sends the page's origin (scheme, host and port) when it opens a
WebSocket, and the socket acts with the person's session cookie, so a page served
from anywhere else (another port of the same host included) must be refused:
otherwise it could play as whoever visits it. Channels' ``OriginValidator``
compares scheme, host and port when a pattern has a scheme; these are those patterns.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_LOOPBACK_TWINS = {"127.0.0.1": "localhost", "localhost": "127.0.0.1"}


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, as a browser would send it (lower case)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ImproperlyConfigured(f"{url!r} is not an http(s) address with a host")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")


def socket_origins(site_url: str, trusted_origins: list[str]) -> list[str]:
    """SITE_URL's origin and CSRF_TRUSTED_ORIGINS (the same list that may post forms).

    **Decision**: when the site is served on a loopback name (the embedded default,
    http://127.0.0.1:8000), its twin (localhost, same scheme and port) is accepted too:
    both reach the same process on the same machine, and ALLOWED_HOSTS serves both.
    """
    site = origin_of(site_url)
    origins = [site, *(origin_of(origin) for origin in trusted_origins)]
    parts = urlsplit(site)
    if parts.hostname in _LOOPBACK_TWINS:
        origins.append(site.replace(f"//{parts.hostname}", f"//{_LOOPBACK_TWINS[parts.hostname]}", 1))
    return list(dict.fromkeys(origins))
