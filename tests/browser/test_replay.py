"""A person steps through a finished match in chromium: buttons, keys, the slider, and
an address that shows the step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join
from tests.browser.helpers import log_in, off_the_event_loop
from tests.games.helpers import random_move

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_duel() -> tuple[Match, User]:
    ann = User.objects.create_user(username="ann", password="pw-ann-1234", display_name="Ann")
    bob = User.objects.create_user(username="bob", password="pw-bob-1234", display_name="Bob")
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_join(match_id=match.pk, user=bob)
    rng = random.Random(8)
    match.refresh_from_db()
    while match.status == Match.Status.RUNNING:
        random_move(match, {0: ann, 1: bob}, rng)
        match.refresh_from_db()
    return match, ann


def test_a_person_steps_through_a_finished_match(live_site: str, browser: Any) -> None:
    match, ann = off_the_event_loop(finished_duel)
    context = browser.new_context()
    log_in(context, live_site, ann)
    page = context.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/replay?step=0")

    def step() -> int:
        return int(page.get_attribute("#replay-frame", "data-step"))

    assert step() == 0
    # The script shows a frame as soon as the menu changes: its "Show" button is not shown
    # (issue 34, bug 2: a stylesheet's display outranked the hidden attribute).
    assert not page.is_visible("#replay-eyes-go")
    page.click("#replay-forward")
    page.wait_for_function("() => document.getElementById('replay-frame').dataset.step === '1'")
    assert "step=1" in page.url and page.locator(".replay-log li.is-current").count() >= 1
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('replay-frame').dataset.step === '{match.ply}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        f"() => document.getElementById('replay-frame').dataset.step === '{match.ply - 1}'"
    )
    # The menu's form, sent as a page without the script would, keeps the reader's place.
    assert page.get_attribute("#replay-page form.replay-eyes input[name=step]", "value") == str(match.ply - 1)
    page.keyboard.press("Home")
    page.wait_for_function("() => document.getElementById('replay-frame').dataset.step === '0'")
    page.select_option("#replay-eyes", "all")
    page.wait_for_function("() => document.getElementById('replay-frame').dataset.eyes === 'all'")
    page.go_back()  # the browser's Back returns to the previous step and eyes
    page.wait_for_function("() => document.getElementById('replay-frame').dataset.eyes === 'seat-0'")
    assert page.eval_on_selector("#replay-eyes", "menu => menu.value") == "seat-0"  # and so does the menu
    # The address of a step is a link to it.
    shared = context.new_page()
    shared.goto(f"{live_site}/matches/{match.pk}/replay?step=2&eyes=seat-1")
    assert shared.get_attribute("#replay-frame", "data-step") == "2"
    context.close()
