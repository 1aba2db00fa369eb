"""A programmer, in chromium, makes a token that may only export, then turns a fresh
account into a bot account for their program; a person then sees it labelled a bot on
its profile and at the table, and the page refuses the bot account's own click. Every
page passes axe-core (issue 35, item 4)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import ApiToken, User
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_submit_action
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.games.sockets import to_act

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def people() -> tuple[User, User]:
    ann = User.objects.create_user(username="ann", password="pw-ann-1234", display_name="Ann")
    robo = User.objects.create_user(username="robo", password="pw-robo-1234", display_name="Robo")
    return ann, robo


def a_match(ann: User, robo: User) -> Match:
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="robo")],
    )
    match_join(match_id=match.pk, user=robo)
    seat, action = to_act(match)
    if seat == 0:  # Ann moves first, so that the robot's turn comes
        match_submit_action(match_id=match.pk, user=ann, action=action, ply=0)
    return Match.objects.get(pk=match.pk)


def test_a_programmer_scopes_a_token_and_makes_a_bot_account_that_people_see_as_one(
    live_site: str, browser: Any
) -> None:
    ann, robo = off_the_event_loop(people)
    context = browser.new_context()
    log_in(context, live_site, robo)
    page = context.new_page()
    page.goto(f"{live_site}/accounts/settings/")
    assert serious_findings(page) == []
    page.get_by_label("New token's name").fill("archive")
    page.get_by_label("Play:", exact=False).uncheck()
    page.get_by_label("Read:", exact=False).uncheck()
    page.get_by_label("Export:", exact=False).check()
    page.get_by_role("button", name="Create a token").click()
    page.wait_for_selector("#new-token")
    assert off_the_event_loop(lambda: ApiToken.objects.get(user=robo).scopes) == "export"
    assert "may export" in page.locator(".token-list").inner_text()
    page.get_by_label("I understand that robo becomes a bot account for good.").check()
    page.get_by_role("button", name="Make this a bot account").click()
    page.wait_for_selector("text=This is a bot account since")
    assert serious_findings(page) == []
    match = off_the_event_loop(lambda: a_match(ann, robo))
    # Its own click on the match page is refused, in words.
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.locator("#match-live button[data-action]:enabled:visible").first.click()
    error = page.locator("#match-error")
    error.wait_for(state="visible")
    assert "This is a bot account: its moves come from its program, through the API" in error.inner_text()
    assert off_the_event_loop(lambda: Match.objects.get(pk=match.pk).ply) == match.ply
    assert serious_findings(page) == []
    # Ann sees the bot label at the table and on its profile.
    anns = browser.new_context()
    log_in(anns, live_site, ann)
    her = anns.new_page()
    her.goto(f"{live_site}/matches/{match.pk}/")
    assert her.locator(".player", has_text="Robo").locator(".badge").inner_text() == "bot"
    assert serious_findings(her) == []
    her.goto(f"{live_site}/players/robo/")
    assert her.locator("h1 .badge").inner_text() == "Bot"
    assert serious_findings(her) == []
    context.close()
    anns.close()
