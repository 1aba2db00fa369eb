"""The count of matches waiting for me, live on a page that is not the match: the
opponent moves and the tab title and the navigation's badge change without a reload
(static/js/me.js over /ws/me/), and so does the home page's "Waiting for you"
(static/js/home.js), where an invitation is declined; My matches counts my turn's clock
down (countdown.js). The home page is checked with axe, at a phone's width and a desktop's,
with its empty states and with every part filled."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_submit_action
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.games.history.helpers import finished
from tests.games.tournaments.helpers import make_tournament

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every refusal of the Content-Security-Policy, from before any script runs.
_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def on_turn(match: Match) -> int:
    match.refresh_from_db()
    return int(match.engine.to_act(match.decoded_state())[0])


def play_until_the_turn_passes(match: Match, mover: User) -> None:
    """The mover plays (Go Fox! may keep the turn) until the other player is on."""
    first = on_turn(match)
    while on_turn(match) == first:
        action = match.engine.legal_actions(match.decoded_state(), first)[0]
        match_submit_action(match_id=match.pk, user=mover, action=action, ply=match.ply)


# The page reads well on a phone and on a desktop: nothing wider than the window, the
# headings in order (one h1, then no level skipped), and no serious axe finding.
_LAYOUT = """() => ({
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  levels: [...document.querySelectorAll('main h1, main h2, main h3')].map(h => parseInt(h.tagName[1], 10)),
})"""


def reads_well_at_both_widths(page: Any) -> None:
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        layout = page.evaluate(_LAYOUT)
        assert layout["overflow"] <= 0, (width, layout)
        levels = layout["levels"]
        assert levels[0] == 1 and levels.count(1) == 1, levels
        assert all(later - earlier <= 1 for earlier, later in itertools.pairwise(levels)), levels
        assert serious_findings(page) == [], width


def test_the_title_and_badge_follow_the_opponents_move_on_another_page(live_site: str, browser: Any) -> None:
    ann = User.objects.create_user(username="ann", display_name="Ann", password="x")
    bob = User.objects.create_user(username="bob", display_name="Bob", password="x")
    carl = User.objects.create_user(username="carl", display_name="Carl", password="x")

    def start() -> Match:
        match = match_create(
            creator=ann, game_slug="go-fox", options={}, turn_limit=300,
            seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
        )  # fmt: skip
        match_join(match_id=match.pk, user=bob)
        return match

    match = off_the_event_loop(start)
    mover, waiting = (ann, bob) if on_turn(match) == 0 else (bob, ann)
    context = browser.new_context()
    log_in(context, live_site, waiting)
    page = context.new_page()
    page.add_init_script(_RECORD_VIOLATIONS)
    page.goto(f"{live_site}/")
    assert page.title() == "Boomsite"
    assert not page.is_visible("#your-turn-badge")
    page.wait_for_selector("#your-turn-badge[data-live='yes']", state="attached")  # its socket is open

    # The home page, nothing waiting yet: its empty states, and the match waiting for the other.
    assert page.is_visible("#nothing-waiting")
    assert page.locator(f"#running a[href='/matches/{match.pk}/']").count() == 1
    reads_well_at_both_widths(page)

    off_the_event_loop(lambda: play_until_the_turn_passes(match, mover))
    page.wait_for_function("() => document.title === '(1) Waiting for you · Boomsite'", timeout=10_000)
    assert page.is_visible("#your-turn-badge") and page.inner_text("#your-turn-badge") == "1"
    # "Waiting for you" follows without a reload: the turn, with its clock counting down.
    page.wait_for_selector(f"#your-turn a[href='/matches/{match.pk}/']", timeout=10_000)
    assert not page.is_visible("#nothing-waiting")
    assert page.locator(f"#running a[href='/matches/{match.pk}/']").count() == 0
    assert re.fullmatch(r"[0-4]:[0-5]\d left", page.inner_text("#your-turn time[data-countdown]"))

    # An invitation arrives, live too; with an open seat and a result, every part is filled.
    def more_for_the_home_page() -> Match:
        invitation = match_create(
            creator=carl, game_slug="go-fox", options={}, visibility="private",
            seats=[SeatRequest("me"), SeatRequest("invite", username=waiting.username)],
        )  # fmt: skip
        match_create(
            creator=carl, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
        )
        finished([waiting, carl], ranks=[1, 2], result={"scores": [9, 4], "ranks": [1, 2]})
        make_tournament(carl, name="Winter Cup")  # a feature's section (HOME_SECTIONS) in the side column
        return invitation

    invitation = off_the_event_loop(more_for_the_home_page)
    page.wait_for_selector(f"#invitations a[href='/matches/{invitation.pk}/']", timeout=10_000)
    assert page.title() == "(2) Waiting for you · Boomsite"
    page.reload()
    assert page.locator("#open-seats button", has_text="Join").count() == 1
    assert "Won, 1st of 2 (9 " in page.inner_text("#results")
    assert (
        page.locator(".home-side section[aria-labelledby='tournaments'] a", has_text="Winter Cup").count()
        == 1
    )
    reads_well_at_both_widths(page)
    # Declined here, the invitation is gone and the page says so.
    page.click(f"#invitations button[aria-label='Decline the invitation to Go Fox! #{invitation.pk}']")
    page.wait_for_url(f"{live_site}/")
    assert "You declined the invitation." in page.inner_text("main")
    assert page.locator("#invitations").count() == 0
    assert page.title() == "(1) Waiting for you · Boomsite"
    # On a phone the links fold behind the menu button, which shows the count too.
    page.set_viewport_size({"width": 390, "height": 844})
    assert not page.is_visible("#your-turn-badge")
    assert page.is_visible("#menu-badge") and page.inner_text("#menu-badge") == "1"
    page.set_viewport_size({"width": 1280, "height": 800})

    # My matches: the same count, and the turn's clock counting down (5 minutes a turn).
    page.goto(f"{live_site}/matches/")
    assert page.title() == "(1) Waiting for you · My matches · Boomsite"
    clock = page.locator("#your-turn time[data-countdown]")
    first = clock.inner_text()
    assert re.fullmatch(r"[0-4]:[0-5]\d left", first), first
    page.wait_for_function(
        "(first) => document.querySelector('#your-turn time[data-countdown]').textContent !== first",
        arg=first,
        timeout=5_000,
    )
    # "Notify me" is offered where the browser can still be asked.
    askable = page.evaluate("'Notification' in window && Notification.permission === 'default'")
    assert page.is_visible("#notify-me") == askable
    assert page.evaluate("window.__cspViolations") == []
    context.close()
