from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann() -> User:
    return User.objects.create_user(username="ann", email="ann@example.com", password="pw-ann-123456")


def test_settings_change_display_name_and_time_zone(client: Client, ann: User) -> None:
    client.force_login(ann)
    response = client.post(
        "/accounts/settings/", {"display_name": "Ann the Bold", "time_zone": "Europe/Paris"}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert (ann.display_name, ann.time_zone) == ("Ann the Bold", "Europe/Paris")
    assert "Ann the Bold" in client.get("/").content.decode()  # the navigation uses it


def test_settings_with_bad_input_show_errors_and_change_nothing(client: Client, ann: User) -> None:
    client.force_login(ann)
    response = client.post("/accounts/settings/", {"display_name": "Sneaky Bot", "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "kept for the site" in page
    assert "Select a valid choice" in page
    ann.refresh_from_db()
    assert (ann.display_name, ann.time_zone) == ("", "UTC")


def test_settings_need_a_login(client: Client) -> None:
    response = client.get("/accounts/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    "path", ["/", "/play/", "/history/", "/tournaments/", "/accounts/login/", "/accounts/signup/"]
)
def test_base_pages_render_with_the_navigation_and_without_javascript(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    for label, href in [
        ("Play", "/play/"),
        ("My matches", "/matches/"),
        ("History", "/history/"),
        ("Tournaments", "/tournaments/"),
    ]:
        # The link by its address and words (it may carry an id and, signed in, a badge).
        assert re.search(rf'<a href="{re.escape(href)}"[^>]*>{re.escape(label)}\b', page), label
    assert 'name="viewport"' in page  # phone-sized screens
    assert "Log in" in page and "Sign up" in page


def test_navigation_shows_the_account_when_logged_in(client: Client, ann: User) -> None:
    client.force_login(ann)
    page = client.get("/").content.decode()
    assert 'href="/players/ann/"' in page and "Log out" in page and "Sign up" not in page
    assert client.get("/matches/").status_code == 200


def test_the_time_zones_offered_are_utc_and_places(client: Client, ann: User) -> None:
    client.force_login(ann)
    page = client.get("/accounts/settings/").content.decode()
    offered = re.findall(
        r'<option value="([^"]+)"', page.split('name="time_zone"', 1)[1].split("</select>", 1)[0]
    )
    assert offered[0] == "UTC" and "Europe/Paris" in offered and "Pacific/Kiritimati" in offered
    assert not {"localtime", "Factory", "posixrules", "Etc/GMT+5"} & set(offered)
    refused = client.post("/accounts/settings/", {"display_name": "", "time_zone": "Factory"})
    assert "Select a valid choice" in refused.content.decode()
    assert User.objects.get(pk=ann.pk).time_zone == "UTC"
