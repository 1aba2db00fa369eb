"""What a person reads in a match against two bots of one level (issue 21, items 8 and
9): the bots have names of their own, and no box id shows, in text or in what a screen
reader says."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from accounts.models import User
from games.models import Match
from tests.browser.helpers import PAGE_STATE, log_in, take_a_turn
from tests.conftest import ensure_bot_accounts

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEX_ID = re.compile(r"\b[0-9a-f]{8}\b")
SEAT_NUMBER = re.compile(r"\bSeat \d")
# What a screen reader says besides the text: labels and titles.
SPOKEN = """() => [...document.querySelectorAll('#match-live [aria-label], #match-live [title]')]
  .map(e => [e.getAttribute('aria-label'), e.getAttribute('title')].filter(Boolean).join(' | '))"""


def _program_words(page: Any) -> list[str]:
    words = HEX_ID.findall(page.inner_text("#match-live"))
    words += [label for label in page.evaluate(SPOKEN) if HEX_ID.search(label) or SEAT_NUMBER.search(label)]
    return words


def test_two_basic_bots_are_told_apart_and_boxes_read_as_letters(live_site: str, browser: Any) -> None:
    ensure_bot_accounts()
    person = User.objects.create_user(
        username="reader", email="reader@example.com", password="pw-reader-1234"
    )
    context = browser.new_context()
    log_in(context, live_site, person)
    page = context.new_page()
    page.goto(f"{live_site}/play/boom-box/")
    for index, choice in enumerate(["me", "bot-basic", "bot-basic"]):
        page.select_option(f"#id_seat_{index}", choice)
    page.click("#create-match")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector("#match-page[data-connected='yes']")
    rng = random.Random(21)
    moves = 0
    while True:
        page.wait_for_function(PAGE_STATE, timeout=60_000)
        assert _program_words(page) == [], f"after {moves} moves"
        if page.get_attribute("#match-live", "data-status") == "finished":
            break
        take_a_turn(page, rng)
        moves += 1
        assert moves < 400, "the match should have ended"

    players = page.inner_text(".player-list")
    assert "Basic Bot A" in players and "Basic Bot B" in players
    log = page.inner_text(".match-log")
    assert "Basic Bot A" in log and "Basic Bot B" in log
    assert re.search(r"\bbox [A-L]\b", log), "the log names boxes by letter"
    standings = page.locator("section[aria-label='Final standings'] li").all_inner_texts()
    assert len(standings) == 3
    for name in ("reader", "Basic Bot A", "Basic Bot B"):
        assert sum(1 for row in standings if re.search(rf"^\d+\. {name} ", row)) == 1, (name, standings)
    assert Match.objects.get().status == Match.Status.FINISHED
    context.close()
