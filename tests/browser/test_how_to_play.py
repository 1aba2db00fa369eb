"""A new player finds a game's rules in two clicks from the home page, in chromium,
and the page's drawings load under the Content-Security-Policy."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every refusal the page sees, from the moment the document starts.
_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def test_a_new_player_goes_from_the_home_page_to_how_to_play_in_two_clicks(
    live_site: str, browser: Any
) -> None:
    page = browser.new_context().new_page()  # nobody logged in: a first visit
    page.add_init_script(_RECORD_VIOLATIONS)

    # Home -> the game (its page) -> How to play.
    page.goto(f"{live_site}/")
    page.get_by_role("link", name="Ka-Blam!", exact=True).click()
    page.get_by_role("link", name="How to play", exact=True).click()
    page.wait_for_url(f"{live_site}/play/ka-blam/how-to-play")
    assert page.get_by_role("heading", level=1).inner_text() == "How to play Ka-Blam!"
    assert page.get_by_role("heading", name="The goal", exact=True).is_visible()
    # The word cards are drawn by the board's own partial, coloured through its style attribute.
    card = page.locator(".wc-card").first
    assert card.bounding_box()["width"] > 40, "the game's stylesheet draws the cards"
    assert page.evaluate("window.__cspViolations") == []

    # Home -> the lobby ("Choose a game") -> the game's How to play.
    page.goto(f"{live_site}/")
    page.get_by_role("link", name="Choose a game").click()
    entry = page.locator(".card", has=page.get_by_role("link", name="It's a Bomb!", exact=True))
    entry.get_by_role("link", name="How to play").click()
    page.wait_for_url(re.compile(r"/play/its-a-bomb/how-to-play$"))
    assert page.get_by_role("heading", name="Scenarios", exact=True).is_visible()
    assert page.evaluate("window.__cspViolations") == []
