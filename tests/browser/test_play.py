"""People play through the real pages in chromium: no reloads, the socket keeps boards live."""

from __future__ import annotations

import json
import random
import re
from email import message_from_bytes
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from games.engine import all_games, get
from games.models import Match, Move
from games.services import SeatRequest, match_create, match_join
from tests.browser.helpers import (
    PAGE_STATE,
    live_ply,
    log_in,
    off_the_event_loop,
    take_a_turn,
    turns_seen_live,
)
from tests.conftest import ensure_bot_accounts, wait_for
from tests.mail import body_of

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery 42"
SHORT = {"dont-go-boom": {"rounds": "1"}}


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_a_person_plays_a_whole_match_against_random_bots_through_the_page(
    live_site: str, browser: Any, slug: str
) -> None:
    ensure_bot_accounts()
    person = User.objects.create_user(username="player", email="player@example.com", password=PASSWORD)
    game = get(slug)
    context = browser.new_context()
    log_in(context, live_site, person)
    page = context.new_page()
    page.goto(f"{live_site}/play/{slug}/")
    players = max(2, game.min_players)
    # In It's a Bomb! seat 0 is the Crisis Unit, who often has nothing to decide: play an employee.
    my_seat = 1 if slug == "its-a-bomb" else 0
    for index in range(game.max_players):
        page.select_option(
            f"#id_seat_{index}", "me" if index == my_seat else "bot-random" if index < players else ""
        )
    for name, value in SHORT.get(slug, {}).items():
        page.fill(f"#id_option_{name}", value)
    page.click("#create-match")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector("#match-page[data-connected='yes']")
    rng = random.Random(slug)
    moves = 0
    while True:
        page.wait_for_function(PAGE_STATE, timeout=60_000)
        if page.get_attribute("#match-live", "data-status") == "finished":
            break
        take_a_turn(page, rng)
        moves += 1
        assert moves < 600, "the match should have ended"
    assert moves >= 1 and page.locator("#game-over").is_visible()
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED and match.ply >= moves
    context.close()


def sign_up_in_browser(page: Any, base_url: str, username: str) -> None:
    outbox = Path(settings.EMAIL_OUTBOX_DIR)  # type: ignore[misc]  # our own setting (boomsite.mail)
    before = set(outbox.glob("*.eml")) if outbox.exists() else set()
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()

    def new_mail() -> Path | None:
        fresh = [p for p in outbox.glob("*.eml") if p not in before] if outbox.exists() else []
        return fresh[0] if fresh else None

    mail = wait_for(new_mail, timeout=20, what=f"{username}'s verification email")
    link = re.search(
        r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", body_of(message_from_bytes(mail.read_bytes()))
    )
    assert link
    page.goto(base_url + link.group(1))
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{base_url}/")
    if page.locator("nav a", has_text="Log in").count():  # confirming did not sign in: log in
        page.goto(f"{base_url}/accounts/login/")
        page.fill("input[name=login]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_load_state()
    assert page.locator("nav a", has_text=username).count() >= 1, "signed in"


def test_two_people_sign_up_and_see_each_others_moves_live(live_site: str, browser: Any) -> None:
    ensure_bot_accounts()
    # Ann's browser is in Berlin: her account starts in its time zone (issue 34, item 8).
    ann_context, bob_context = browser.new_context(timezone_id="Europe/Berlin"), browser.new_context()
    ann, bob = ann_context.new_page(), bob_context.new_page()
    sign_up_in_browser(ann, live_site, "ann")
    sign_up_in_browser(bob, live_site, "bob")
    assert User.objects.get(username="ann").time_zone == "Europe/Berlin"

    # Ann creates a Don't Go Boom match and invites Bob.
    ann.goto(f"{live_site}/play/dont-go-boom/")
    ann.select_option("#id_seat_1", "invite")
    ann.fill("#id_seat_1_username", "bob")
    ann.fill("#id_option_rounds", "1")
    ann.click("#create-match")
    ann.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_url = ann.url

    # Bob finds the invitation on his dashboard and accepts it.
    bob.goto(f"{live_site}/matches/")
    bob.locator("#invitations button", has_text="Accept").click()
    bob.wait_for_url(match_url)
    pages = {"ann": ann, "bob": bob}
    for page in pages.values():
        page.goto(match_url)
        page.wait_for_selector("#match-page[data-connected='yes']")
        page.evaluate("window.__loadedOnce = true")  # gone if the page ever reloads

    # Each move: the other player's board moves on by itself.
    seen_by_other = turns_seen_live(pages, random.Random(5), tries=8)
    assert seen_by_other >= 6
    for page in pages.values():
        assert page.evaluate("window.__loadedOnce") is True, "the page was never reloaded"
        assert page.locator(".log-list li").count() >= 1
    ann_context.close()
    bob_context.close()


def ann_and_bob_at_a_private_go_fox(second_seat: SeatRequest) -> tuple[User, User, Match]:
    """Ann and Bob, and a private Go Fox! match Ann made with ``second_seat`` beside her."""
    ann = User.objects.create_user(username="ann", password=PASSWORD, display_name="Ann")
    bob = User.objects.create_user(username="bob", password=PASSWORD, display_name="Bob")
    match = off_the_event_loop(
        lambda: match_create(
            creator=ann,
            game_slug="go-fox",
            options={},
            visibility="private",
            seats=[SeatRequest("me"), second_seat],
        )
    )
    return ann, bob, match


def test_a_signed_in_person_joins_a_private_match_by_its_link(live_site: str, browser: Any) -> None:
    _, bob, match = ann_and_bob_at_a_private_go_fox(SeatRequest("open"))
    context = browser.new_context()
    log_in(context, live_site, bob)
    page = context.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/?invite={match.invite_token}")
    # The socket's first push replaces the live part: it must still offer Bob the seat.
    page.wait_for_selector("#match-page[data-connected='yes']")
    page.wait_for_function("() => document.getElementById('match-live') !== null")
    page.wait_for_timeout(500)  # the push arrives within this in every run (about 0.15 s)
    assert page.locator("#join-match").is_visible(), page.locator("#match-live").inner_text()
    assert "Log in to join" not in page.locator("#match-live").inner_text()
    page.click("#join-match")
    page.wait_for_function("() => document.getElementById('match-live').dataset.status === 'running'")
    assert Match.objects.get(pk=match.pk).seats.get(index=1).user == bob
    context.close()


def test_the_creators_header_follows_the_match_starting_without_a_reload(
    live_site: str, browser: Any
) -> None:
    ann, bob, match = ann_and_bob_at_a_private_go_fox(SeatRequest("invite", username="bob"))
    context = browser.new_context()
    log_in(context, live_site, ann)
    page = context.new_page()
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_selector("#match-page[data-connected='yes']")
    assert page.locator("#invite-link").is_visible() and page.locator("#replay-link").count() == 0
    off_the_event_loop(lambda: match_join(match_id=match.pk, user=bob))
    page.wait_for_function("() => document.getElementById('match-live').dataset.status === 'running'")
    # The link that lets people in is gone once every seat is taken; the replay and the fair deal are there.
    page.wait_for_selector("#replay-link")
    assert page.locator("#invite-link").count() == 0 and page.locator(".fair-deal-box").count() == 1
    context.close()


def test_two_people_choosing_at_the_same_moment_both_count(live_site: str, browser: Any) -> None:
    """Don't Go Boom's first flip: everyone chooses at once. Bob's page is held on the
    board of ply 0 (the board Ann's choice would push is kept back from it) while Ann
    chooses, so his click lands after hers from the same picture: it must count."""
    ann = User.objects.create_user(username="ann", password=PASSWORD, display_name="Ann")
    bob = User.objects.create_user(username="bob", password=PASSWORD, display_name="Bob")
    match = off_the_event_loop(
        lambda: match_create(
            creator=ann,
            game_slug="dont-go-boom",
            options={"rounds": 1},
            seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
        )
    )
    off_the_event_loop(lambda: match_join(match_id=match.pk, user=bob))
    pages = {}
    hold_boards = {"on": False}

    def hold_bobs_boards(route: Any) -> None:
        server = route.connect_to_server()
        route.on_message(server.send)  # what the page sends goes through as usual

        def to_page(message: str | bytes) -> None:
            if hold_boards["on"] and isinstance(message, str) and json.loads(message)["type"] == "board":
                return  # Bob does not see Ann's choice: he is still looking at ply 0
            route.send(message)

        server.on_message(to_page)

    for person in (ann, bob):
        context = browser.new_context()
        log_in(context, live_site, person)
        page = context.new_page()
        if person == bob:
            page.route_web_socket(re.compile(r"/ws/matches/"), hold_bobs_boards)
        page.goto(f"{live_site}/matches/{match.pk}/")
        page.wait_for_selector("#match-page[data-connected='yes']")
        page.wait_for_function(PAGE_STATE)
        pages[person.username] = page
    assert live_ply(pages["bob"]) == 0
    hold_boards["on"] = True
    rng = random.Random(3)
    take_a_turn(pages["ann"], rng)
    assert Move.objects.filter(match=match).count() == 1 and live_ply(pages["bob"]) == 0
    buttons = pages["bob"].locator("#match-live button[data-action]:enabled:visible")
    buttons.nth(rng.randrange(buttons.count())).click()
    wait_for(
        lambda: (
            Move.objects.filter(match=match, seat=1).exists() or pages["bob"].locator("#match-error").count()
        ),
        timeout=15,
        what="Bob's choice to be played or refused",
    )
    error = pages["bob"].locator("#match-error")
    assert not (error.count() and error.is_visible()), f"refused: {error.inner_text()}"
    assert list(Move.objects.filter(match=match).order_by("ply").values_list("ply", "seat")) == [
        (0, 0),
        (1, 1),
    ]
    hold_boards["on"] = False
    for page in pages.values():
        page.context.close()


def test_a_new_player_starts_a_match_against_a_bot_in_one_click(live_site: str, browser: Any) -> None:
    off_the_event_loop(ensure_bot_accounts)
    person = off_the_event_loop(lambda: User.objects.create_user(username="newcomer", password=PASSWORD))
    context = browser.new_context()
    log_in(context, live_site, person)
    page = context.new_page()
    page.goto(f"{live_site}/play/ka-blam/")
    assert page.locator("#quick-level").input_value() == "basic"
    page.click("#quick-start-button")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_function("() => document.getElementById('match-live').dataset.status === 'running'")
    assert "Basic Bot" in page.locator("#match-live").inner_text()
    context.close()
