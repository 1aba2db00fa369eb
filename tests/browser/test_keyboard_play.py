"""One turn of every game played with the keyboard alone (issue 34, item 1): from the
page's first Tab stop, "Skip to your move", to the board's prompt, Tab to a move, Enter
or Space to play it; the board moves on and the focus is on the new prompt. And the
site-wide "Skip to content" link, by keyboard, where the viewer has no move to make.

One site, one chromium and one browser context for the module; each test signs its own
person in (a transactional test's rows are gone after it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from accounts.models import User
from games.engine import all_games
from games.models import Match, Move
from games.services import SeatRequest, match_create
from tests.browser.helpers import PAGE_STATE, live_ply, log_in, off_the_event_loop
from tests.conftest import ensure_bot_accounts

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = [game.slug for game in all_games()]
# How many Tabs from the prompt to the first move at most: the skip link's promise is a
# short way, not a walk past the whole board. A hand of word cards puts each card's "Say"
# button (the word read aloud) before its play button, and a deal may make only the last
# of eight cards playable (CI once met 7 Tabs in Ka-Blam!): so 2 per card of a full hand.
MOST_TABS = 16
# What has the keyboard's focus, in words a failing assertion can show.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {id: '', tag: 'body', action: false, text: ''};
  return {id: el.id, tag: el.tagName.toLowerCase(), text: (el.innerText || '').trim().slice(0, 60),
          action: el.matches('#match-live button[data-action]:enabled'),
          label: el.getAttribute('aria-label') || ''};
}"""
# Whether the focused element is drawn inside the window (the skip link is off-screen until focused).
ON_SCREEN = """() => {
  const box = document.activeElement.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
    && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
}"""


@pytest.fixture(scope="module")
def keyboard(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    yield context
    context.close()


def person_at_a_bot_table(slug: str) -> tuple[User, Match]:
    """Ann and a random bot at ``slug``, Ann seated where she plays (an employee in It's a Bomb!)."""

    def make() -> tuple[User, Match]:
        ensure_bot_accounts()
        ann = User.objects.create_user(username="ann", display_name="Ann", password="pw-ann")
        seats = [SeatRequest("me"), SeatRequest("bot", level="random")]
        if slug == "its-a-bomb":  # seat 0 is the Crisis Unit, whose turns are few
            seats.reverse()
        options = {"rounds": 1} if slug == "dont-go-boom" else {}
        return ann, match_create(
            creator=ann, game_slug=slug, options=options, visibility="public", seats=seats
        )

    return off_the_event_loop(make)


def first_tab_stop(page: Any) -> dict[str, Any]:
    """Tab once from the top of a freshly loaded page: what has the focus, and is it seen."""
    page.keyboard.press("Tab")
    return {**page.evaluate(FOCUSED), "on_screen": page.evaluate(ON_SCREEN)}


@pytest.mark.parametrize("slug", SLUGS)
def test_one_turn_of_each_game_by_keyboard_alone(live_site: str, keyboard: Any, slug: str) -> None:
    ann, match = person_at_a_bot_table(slug)
    log_in(keyboard, live_site, ann)
    page = keyboard.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_selector("#match-page[data-connected='yes']")
    # The bot may move first (a Celery worker plays it): the page is pushed Ann's turn.
    page.wait_for_function(f"() => ({PAGE_STATE})() === 'turn'", timeout=30_000)
    page.wait_for_function("() => document.getElementById('skip-link').textContent === 'Skip to your move'")
    page.reload()  # the turn as a page drawn for it, the focus at its top
    page.wait_for_selector("#match-page[data-connected='yes']")

    # The first Tab: the skip link, shown; Enter takes the focus to the board's prompt.
    stop = first_tab_stop(page)
    assert stop["id"] == "skip-link" and stop["text"] == "Skip to your move", stop
    assert stop["on_screen"], "the skip link stays off-screen when focused"
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED)["id"] == "board-prompt"

    # Tab to the first move (a word card's speaker, say, may come first), and play it.
    tabs = 0
    while not page.evaluate(FOCUSED)["action"]:
        assert tabs < MOST_TABS, f"no move within {MOST_TABS} Tabs of the prompt: at {page.evaluate(FOCUSED)}"
        page.keyboard.press("Tab")
        tabs += 1
    # Shift+Tab goes back the way it came, Tab forward again: the Tab order is the page's order.
    if tabs > 1:
        chosen = page.evaluate(FOCUSED)
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(FOCUSED) != chosen
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUSED) == chosen
    ply = live_ply(page)
    # A button is pressed by Enter or Space alike: the games take turns using each.
    page.keyboard.press("Enter" if SLUGS.index(slug) % 2 else "Space")
    page.wait_for_function(
        f"() => parseInt(document.getElementById('match-live').dataset.ply, 10) > {ply}", timeout=15_000
    )

    # The move was Ann's, the board moved on, and the focus is on the new board's prompt.
    assert Move.objects.filter(match=match, ply=ply, user=ann).exists()
    assert page.evaluate(FOCUSED)["id"] == "board-prompt"
    page.close()


def test_skip_to_content_where_there_is_no_move_to_make(live_site: str, keyboard: Any) -> None:
    def make() -> tuple[User, Match]:
        people = [
            User.objects.create_user(username=name, display_name=name.title())
            for name in ("ann", "bob", "cy")
        ]
        match = match_create(
            creator=people[1], game_slug="go-fox", options={}, visibility="public",
            seats=[SeatRequest("me"), SeatRequest("invite", username="cy")],
        )  # fmt: skip
        return people[0], match

    ann, watched = off_the_event_loop(make)
    log_in(keyboard, live_site, ann)
    page = keyboard.new_page()
    for path in ("/", "/play/", f"/matches/{watched.pk}/"):
        page.goto(live_site + path)
        stop = first_tab_stop(page)
        assert stop["id"] == "skip-link" and stop["text"] == "Skip to content", (path, stop)
        assert stop["on_screen"], path
        page.keyboard.press("Enter")
        assert page.evaluate(FOCUSED)["id"] == "main", path
        # The next Tab goes on inside the page's content, not back to the menu.
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.getElementById('main').contains(document.activeElement)"), path
    assert re.search(r"/matches/\d+/$", page.url)
    page.close()
