"""Ann opens Bob's profile, follows him and challenges him to a game with options; Bob, in
a browser of his own, sees the challenge and accepts, and the match starts. Ann's home
page then shows Bob online. axe-core on the profile and the home page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from games.models import Match
from games.social.models import Follow
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def people() -> tuple[User, User]:
    ann = User.objects.create_user(username="ann", password="pw-ann-1234", display_name="Ann")
    bob = User.objects.create_user(username="bob", password="pw-bob-1234", display_name="Bob")
    return ann, bob


def test_ann_follows_and_challenges_bob_from_his_profile_and_he_accepts(live_site: str, browser: Any) -> None:
    ann, bob = off_the_event_loop(people)
    anns_context, bobs_context = browser.new_context(), browser.new_context()
    log_in(anns_context, live_site, ann)
    log_in(bobs_context, live_site, bob)
    anns, bobs = anns_context.new_page(), bobs_context.new_page()
    bobs.goto(f"{live_site}/")  # Bob is on the site

    anns.goto(f"{live_site}/players/bob/")
    assert anns.locator("#online-now").inner_text().strip() == "Online now"
    assert serious_findings(anns) == []
    anns.locator("#follow").click()
    anns.wait_for_selector("#unfollow")
    assert "You follow Bob" in anns.locator("main").inner_text()
    assert off_the_event_loop(lambda: Follow.objects.filter(follower=ann, followed=bob).exists())

    # The game first (its options come with the page), then its options and the clock.
    anns.locator("#challenge-game").select_option("ka-blam")
    with anns.expect_navigation(url=re.compile(r"/players/bob/\?game=ka-blam#challenge$")):
        anns.locator("#challenge-choose-game").click()
    form = anns.locator("#challenge-form")
    form.get_by_label("Game length").select_option("short")
    form.get_by_label("Time control").select_option(label="1 hour per turn")
    assert serious_findings(anns) == []
    with anns.expect_navigation(url=re.compile(r"/matches/\d+/$")):
        form.get_by_role("button", name="Challenge Bob").click()
    assert "You challenged Bob to Ka-Blam!" in anns.locator("main").inner_text()
    match = off_the_event_loop(lambda: Match.objects.get())
    assert match.options["length"] == "short" and match.turn_limit == 3600 and match.is_challenge

    # Bob's browser: the challenge waits for him, as a challenge, and he accepts it.
    bobs.goto(f"{live_site}/matches/")
    invitation = bobs.locator("#invitations li", has_text="Ann challenges you")
    assert "Ka-Blam!" in invitation.inner_text()
    invitation.get_by_role("button", name="Accept").click()
    bobs.wait_for_selector("#match-live[data-status='running']")
    assert off_the_event_loop(lambda: Match.objects.get(pk=match.pk).status) == Match.Status.RUNNING
    # Ann's page, open on the match, moves on by itself.
    anns.wait_for_selector("#match-live[data-status='running']", timeout=15_000)

    # Ann's home page: Bob is among her friends online, with a way to challenge him again.
    anns.goto(f"{live_site}/")
    friends = anns.locator("section[aria-labelledby='friends-online']")
    assert friends.get_by_role("link", name="Challenge Bob").get_attribute("href") == "/players/bob/challenge"
    assert serious_findings(anns) == []
    # Ann's own profile lists Bob under Following.
    anns.goto(f"{live_site}/players/ann/")
    assert "Bob" in anns.locator("#following-list").inner_text()
    assert serious_findings(anns) == []
