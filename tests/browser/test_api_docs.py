"""A bot author reads the API reference in chromium: from the account page's link to the
reference, through its contents to a game's page of views and actions, and to that
game's JSON Schema; every page styled, without serious accessibility findings, on a
phone and at a desktop's width."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.axe import ALSO_CHECKED, serious_findings

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = "/tmp/boomsite-api-docs"


def test_a_bot_author_reads_the_reference_and_a_game_s_page(live_site: str, browser: Any) -> None:
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{live_site}/api/")
        assert page.get_by_role("heading", level=1).inner_text() == "The JSON API"
        # Styled: code blocks are dark panels, tables have borders (static/css/api.css).
        assert page.locator("pre").first.evaluate("node => getComputedStyle(node).backgroundColor") != (
            "rgba(0, 0, 0, 0)"
        )
        assert page.locator("article table").count() >= 2
        assert serious_findings(page, also=ALSO_CHECKED) == []
        page.screenshot(path=f"{SHOTS}-reference-{viewport['width']}.png")

        # The contents lead to a section, and the section to each game's page.
        page.get_by_role("navigation", name="Contents").get_by_role("link", name="Errors").click()
        assert page.url.endswith("#errors")
        page.locator("article").get_by_role("link", name="go-fox", exact=True).click()
        page.wait_for_url(f"{live_site}/api/games/go-fox/")
        assert page.get_by_role("heading", level=1).inner_text() == "Go Fox!: views and actions"
        assert page.get_by_role("heading", name="ask action", exact=True).is_visible()
        # A type named in the view's table links to its own section.
        page.locator("#view + p + .table-scroll").get_by_role("link", name="card").first.click()
        assert page.url.endswith("#type-card")
        assert serious_findings(page, also=ALSO_CHECKED) == []
        page.screenshot(path=f"{SHOTS}-go-fox-{viewport['width']}.png", full_page=False)

        # The machine-readable form, one click away.
        with page.expect_navigation():
            page.get_by_role("link", name="the view", exact=True).click()
        document = json.loads(page.locator("body").inner_text())
        assert document["$id"] == f"{live_site}/api/schemas/go-fox/view.json"
        page.context.close()


def test_every_game_s_page_has_no_serious_accessibility_finding(live_site: str, browser: Any) -> None:
    from games.engine import all_games

    page = browser.new_context(viewport=PHONE).new_page()
    found = {}
    for game in all_games():
        page.goto(f"{live_site}/api/games/{game.slug}/")
        if findings := serious_findings(page, also=ALSO_CHECKED):
            found[game.slug] = findings
    page.context.close()
    assert found == {}
