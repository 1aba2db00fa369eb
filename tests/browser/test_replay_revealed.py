"""A person replays a finished Don't Go Boom match in chromium with everything revealed:
a card that lay face down is drawn with its face, and marked as one that was face down."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import User
from games import replays
from games.models import Match
from games.services import SeatRequest, match_create, match_join
from tests.browser.helpers import log_in, off_the_event_loop
from tests.games.helpers import random_move

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_dont_go_boom() -> tuple[Match, User]:
    ann = User.objects.create_user(username="ann", password="pw-ann-1234", display_name="Ann")
    bob = User.objects.create_user(username="bob", password="pw-bob-1234", display_name="Bob")
    match = match_create(
        creator=ann,
        game_slug="dont-go-boom",
        options={"rounds": 1},  # one round: a whole game, played quickly
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    rng = random.Random(4)
    match.refresh_from_db()
    while match.status == Match.Status.RUNNING:
        random_move(match, {0: ann, 1: bob}, rng)
        match.refresh_from_db()
    return match, ann


def test_everything_revealed_draws_a_face_down_card_with_its_face_and_its_mark(
    live_site: str, browser: Any
) -> None:
    match, ann = off_the_event_loop(finished_dont_go_boom)
    # Before the first move every card lies face down: Bob's card in row 1, column 1 too.
    revealed = match.engine.reveal(replays.state_at(match, 0))
    card = revealed["minefields"][1]["cards"][0]
    assert card["face_up"] is False
    context = browser.new_context()
    log_in(context, live_site, ann)
    page = context.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/replay?step=0&eyes=seat-0")
    bobs = page.locator('section.dgb-field[aria-label="Bob\'s minefield"] .dgb-cell').first
    assert bobs.locator(".dgb-card--back").count() == 1  # through Ann's eyes: a card back

    page.select_option("#replay-eyes", "all")
    page.wait_for_function("() => document.getElementById('replay-frame').dataset.eyes === 'all'")
    bobs = page.locator('section.dgb-field[aria-label="Bob\'s minefield"] .dgb-cell').first
    drawn = bobs.locator(".dgb-card--was-down")
    assert drawn.is_visible()
    assert bobs.locator(".dgb-card--back").count() == 0
    assert drawn.locator(".dgb-card__value").inner_text() == (
        "15" if card["kind"] == "bomb" else str(card["value"])
    )
    assert drawn.locator(".dgb-card__down").is_visible()  # the mark, drawn on the card
    assert drawn.get_attribute("title") == f"Was face down: {card['label']}"
    assert drawn.locator(".dgb-sr").text_content() == f"Face down, revealed: {card['label']}. "
    # The mark is a drawing, not a colour: a dashed outline round the card.
    assert drawn.evaluate("element => getComputedStyle(element).outlineStyle") == "dashed"
    context.close()
