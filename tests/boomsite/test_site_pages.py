"""The site's own icon at /favicon.ico and its own 404 page, with DEBUG on and off (issue 21)."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.models import User
from games.models import Match
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db


def test_the_site_icon_is_served_at_favicon_ico_and_linked_from_every_page(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    assert response.getvalue()[:4] == b"\x00\x00\x01\x00"  # an ICO file
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/icons/bomb.svg" type="image/svg+xml">' in page
    # The linked file is a static file of the site (served from STATIC_ROOT once collected,
    # a deploy step: the test client serves /static/ only with DEBUG on, as on CI it is off).
    assert finders.find("icons/bomb.svg")


@pytest.mark.parametrize("debug", [True, False])
def test_a_missing_match_shows_the_sites_own_404_page(
    settings: Settings, ann: User, debug: bool, duel: Match
) -> None:
    settings.DEBUG = debug
    for path in (f"/matches/{duel.pk + 1000}/", "/players/nobody-at-all/"):
        response = logged_in(ann).get(path)
        assert response.status_code == 404
        page = response.content.decode()
        assert 'class="site-header"' in page and "<h1>Page not found</h1>" in page, page[:500]
        assert "Django" not in page and "URLconf" not in page
        # The site's page, so the site's policy, in both modes.
        assert "script-src 'self'" in response["Content-Security-Policy"]


def test_an_unknown_address_shows_the_sites_own_404_page_in_production(settings: Settings) -> None:
    settings.DEBUG = False
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()
