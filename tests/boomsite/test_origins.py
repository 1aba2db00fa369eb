"""Which origins the match socket accepts (the socket itself: tests/games/test_consumer.py)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from boomsite.origins import origin_of, socket_origins


def test_the_sites_origin_keeps_scheme_host_and_port() -> None:
    assert origin_of("https://Boom.Example/play/") == "https://boom.example"
    assert origin_of("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert origin_of("http://[::1]:8000/") == "http://[::1]:8000"


def test_socket_origins_are_the_site_its_loopback_twin_and_the_trusted_ones() -> None:
    assert socket_origins("http://127.0.0.1:8000", []) == ["http://127.0.0.1:8000", "http://localhost:8000"]
    assert socket_origins("https://boom.example", ["https://www.boom.example", "https://boom.example"]) == [
        "https://boom.example",
        "https://www.boom.example",
    ]


@pytest.mark.parametrize("bad", ["boom.example", "ftp://boom.example", "https://", ""])
def test_a_site_address_without_scheme_or_host_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="http"):
        socket_origins(bad, [])
