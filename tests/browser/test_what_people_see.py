"""What a person sees of the lobby and the match page in chromium, as drawn (issue 21):
rows and boxes where they belong, the site's own icons (this machine has no emoji
font, as many do not), a log that can be read back to its first event while boards
are pushed, and a silenced seat told why it cannot chat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import User
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_resign, match_submit_action
from tests.browser.helpers import live_ply, log_in, off_the_event_loop

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Characters drawn as emoji by default (💣 ⏳ 🔊): empty boxes without an emoji font.
NO_EMOJI = "(selector) => !/\\p{Emoji_Presentation}/u.test(document.querySelector(selector).innerText)"
ICON_DRAWN = "(img) => img.complete && img.naturalWidth > 0"


def running(creator: User, other: User, slug: str, options: dict[str, Any] | None = None) -> Match:
    def start() -> Match:
        match = match_create(
            creator=creator, game_slug=slug, options=options or {}, visibility="public",
            seats=[SeatRequest("me"), SeatRequest("invite", username=other.username)],
        )  # fmt: skip
        match_join(match_id=match.pk, user=other)
        return Match.objects.get(pk=match.pk)

    return off_the_event_loop(start)


def play_one_move(match: Match, players: dict[int, User], rng: random.Random) -> int:
    """One random legal move by whoever is to act; returns the number of log entries after it."""

    def move() -> int:
        match.refresh_from_db()
        state = match.decoded_state()
        seat = match.engine.to_act(state)[0]
        action = rng.choice(match.engine.legal_actions(state, seat))
        match_submit_action(match_id=match.pk, user=players[seat], action=action, ply=match.ply)
        match.refresh_from_db()
        return len(match.engine.view(match.decoded_state(), None)["log"])

    return off_the_event_loop(move)


def wait_for_push(page: Any, ply: int) -> None:
    page.wait_for_function(
        f"() => parseInt(document.getElementById('match-live').dataset.ply, 10) > {ply}", timeout=15_000
    )


def test_the_lobby_shows_one_row_per_open_match_and_only_the_invite_boxes_asked_for(
    live_site: str, browser: Any, ann: User, bob: User
) -> None:
    off_the_event_loop(
        lambda: match_create(
            creator=bob, game_slug="dont-go-boom", options={}, visibility="public",
            seats=[SeatRequest("me"), SeatRequest("open")],
        )
    )  # fmt: skip
    context = browser.new_context()
    log_in(context, live_site, ann)
    page = context.new_page()
    page.goto(f"{live_site}/play/dont-go-boom/")

    # The brand is the site's own bomb, drawn from its SVG, with no emoji in the header.
    assert page.eval_on_selector(".brand img", ICON_DRAWN)
    assert page.evaluate(NO_EMOJI, ".site-header")

    # One open match, one row, with its Join button inside it (no empty row above).
    rows = page.locator("#main .match-row")
    assert rows.count() == 1
    row, join = rows.first.bounding_box(), rows.first.get_by_role("button", name="Join").bounding_box()
    assert row and join and row["y"] <= join["y"] and join["y"] + join["height"] <= row["y"] + row["height"]
    assert rows.first.inner_text().strip().startswith("Don't Go Boom")

    # Only a seat set to "Invite a player…" shows its username box, labelled.
    boxes = [f"#id_seat_{index}_username" for index in range(6)]
    assert not any(page.locator(box).is_visible() for box in boxes)
    page.select_option("#id_seat_1", "invite")
    assert page.get_by_label("Seat 2: username to invite").is_visible()
    assert [page.locator(box).is_visible() for box in boxes] == [False, True, False, False, False, False]
    page.select_option("#id_seat_1", "open")
    assert not page.locator(boxes[1]).is_visible()

    # The site-wide stylesheet hides what is only for screen readers, on every page.
    hidden_width = page.evaluate(
        """() => { const probe = document.createElement('span');
                   probe.className = 'visually-hidden'; probe.textContent = 'only for screen readers';
                   document.body.appendChild(probe);
                   const width = probe.getBoundingClientRect().width; probe.remove(); return width; }"""
    )
    assert hidden_width <= 1
    context.close()


# The room before a log entry for its number, and the width that number's marker needs.
MARKER_ROOM = """() => {
  const list = document.querySelector('.log-list');
  const probe = document.createElement('span');
  probe.style.whiteSpace = 'pre';
  probe.textContent = list.getAttribute('start') + '. ';
  list.querySelector('li').appendChild(probe);  // in the entries' own font, as the marker
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  return {needed: needed, room: parseFloat(getComputedStyle(list).paddingLeft)};
}"""
# Whether the log's oldest entry (number 1) is in sight inside the scrolled list.
FIRST_EVENT_IN_SIGHT = """() => {
  const list = document.querySelector('.log-list');
  const box = list.getBoundingClientRect(), first = list.lastElementChild.getBoundingClientRect();
  return first.top >= box.top - 1 && first.bottom <= box.bottom + 1;
}"""


def test_the_match_page_reads_back_to_the_first_event_draws_its_icons_and_tells_a_silenced_seat_why(
    live_site: str, browser: Any, ann: User, bob: User
) -> None:
    rng = random.Random(3)
    players = {0: ann, 1: bob}
    long_match = running(ann, bob, "dont-go-boom", {"rounds": 5})
    logged = 0
    while logged < 105:
        logged = play_one_move(long_match, players, rng)

    context = browser.new_context()
    log_in(context, live_site, ann)
    page = context.new_page()
    page.goto(f"{live_site}/matches/{long_match.pk}/")
    page.wait_for_selector("#match-page[data-connected='yes']")

    # Every event, under its real number: three digits fit beside the entries.
    assert page.locator(".log-list li").count() == logged
    assert page.get_attribute(".log-list", "start") == str(logged)
    fit = page.evaluate(MARKER_ROOM)
    assert fit["needed"] <= fit["room"], fit
    # The turn mark is the site's hourglass, named for screen readers; no emoji anywhere.
    mark = page.locator(".player.owes img.turn-mark")
    assert mark.count() >= 1, "the turn mark is not the site's icon"
    assert mark.first.get_attribute("alt") == "owes a decision" and mark.first.evaluate(ICON_DRAWN)
    assert page.evaluate(NO_EMOJI, "#match-page")

    # A reader who scrolled back to the first event stays there while boards are pushed,
    # and a log they closed stays closed.
    page.eval_on_selector(".log-list", "list => { list.scrollTop = list.scrollHeight; }")
    assert page.evaluate(FIRST_EVENT_IN_SIGHT)
    ply = live_ply(page)
    play_one_move(long_match, players, rng)
    wait_for_push(page, ply)
    assert page.locator(".log-list li").count() > logged
    assert page.evaluate(FIRST_EVENT_IN_SIGHT), "the pushed board scrolled the log away from its start"
    page.eval_on_selector(".match-log", "details => { details.open = false; }")
    ply = live_ply(page)
    play_one_move(long_match, players, rng)
    wait_for_push(page, ply)
    assert not page.locator(".log-list").is_visible(), "the pushed board opened the log again"

    # Ka-Blam!'s word cards say their word with the site's speaker icon.
    cards = running(ann, bob, "ka-blam")
    page.goto(f"{live_site}/matches/{cards.pk}/")
    speaker = page.get_by_role("button", name="Say ").first.locator("img")
    assert speaker.count() == 1, "the speaker is not the site's icon"
    assert speaker.evaluate(ICON_DRAWN)
    assert page.evaluate(NO_EMOJI, "#match-page")

    # It's a Bomb!'s Crisis Unit is told why it cannot write, instead of given a box that
    # refuses every message; the box comes back when the match is over.
    bomb = running(ann, bob, "its-a-bomb")
    page.goto(f"{live_site}/matches/{bomb.pk}/")
    page.wait_for_selector("#match-page[data-connected='yes']")
    assert page.locator("#chat-closed").is_visible() and "keeps silent" in page.inner_text("#chat-closed")
    assert not page.locator("#chat-text").is_visible()
    off_the_event_loop(lambda: match_resign(match_id=bomb.pk, user=ann))
    off_the_event_loop(lambda: match_resign(match_id=bomb.pk, user=bob))  # no person plays on: it ends
    page.wait_for_selector("#match-live[data-status='finished']", timeout=15_000)
    assert page.locator("#chat-text").is_visible() and not page.locator("#chat-closed").is_visible()
    context.close()
