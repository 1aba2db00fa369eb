"""The match page, and the admin, work in chromium under the Content-Security-Policy:
the page loads, the live board connects and takes a move, and nothing is refused."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from accounts.models import User
from games.engine import get
from games.models import Move
from tests.browser.helpers import PAGE_STATE, log_in, take_a_turn
from tests.conftest import ensure_bot_accounts

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every refusal the page sees, from the moment the document starts (before any script runs).
_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI + " " + event.sourceFile);
});
"""


def refusals(page: Any, console: list[str]) -> list[str]:
    seen: list[str] = page.evaluate("window.__cspViolations")
    return seen + [text for text in console if "Content Security Policy" in text]


def test_the_match_page_plays_live_under_the_content_security_policy(live_site: str, browser: Any) -> None:
    ensure_bot_accounts()
    person = User.objects.create_superuser(
        username="player", email="player@example.com", password="pw-player"
    )
    context = browser.new_context()
    log_in(context, live_site, person)
    page = context.new_page()
    page.add_init_script(_RECORD_VIOLATIONS)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))

    # Ka-Blam! boards colour their cards through style attributes (style-src-attr).
    page.goto(f"{live_site}/play/ka-blam/")
    for index in range(get("ka-blam").max_players):
        page.select_option(f"#id_seat_{index}", {0: "me", 1: "bot-random"}.get(index, ""))
    with page.expect_navigation(url=re.compile(r"/matches/\d+/$")) as navigation:
        page.click("#create-match")
    response = navigation.value
    assert response is not None and response.status == 200
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src-attr")[0]
    page.wait_for_selector("#match-page[data-connected='yes']")  # the socket, under connect-src 'self'
    page.wait_for_function(PAGE_STATE, timeout=60_000)
    take_a_turn(page, random.Random(1))  # sent up the socket, the new board pushed back down it
    # A colour from a style attribute is applied, not refused.
    colour = page.evaluate(
        """() => { const card = document.querySelector('#match-live [style*="--wc"]');
                   return card ? getComputedStyle(card).getPropertyValue('--wc').trim() : 'no coloured card'; }"""
    )
    assert colour.startswith("#"), colour
    assert page.evaluate("typeof htmx") == "object"  # htmx loaded, and added no <style> of its own
    assert refusals(page, console) == []

    # The admin's own scripts and styles pass too.
    console.clear()
    move = Move.objects.filter(match__game="ka-blam").order_by("ply").first()
    assert move is not None
    admin = page.goto(f"{live_site}/admin/games/move/{move.pk}/change/?secret=1")
    assert admin is not None and admin.status == 200 and "content-security-policy" in admin.headers
    page.wait_for_load_state("load")
    assert page.locator("#nav-sidebar, #content").count() >= 1
    assert refusals(page, console) == []
    context.close()
