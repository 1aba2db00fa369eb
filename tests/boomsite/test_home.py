"""The home page (boomsite/views.py: home): a stranger's, what the site is; a signed-in
player's, what waits for them, their running matches, open seats at others' tables,
what features offer, their last results; and /home/live/, what its script draws again.

Matches are made through the services (finished ones written as History's tests do:
tests/games/history/helpers.py), and the page is read as the browser gets it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from games import clocks, selectors
from games.feature_links import FeatureButton, FeatureLink, FeatureSection
from games.history.selectors import history_page
from games.models import Match
from games.services import SeatRequest, match_create, match_join, match_submit_action
from tests.games.helpers import logged_in
from tests.games.history.helpers import finished

pytestmark = pytest.mark.django_db


def on_turn(match: Match) -> int:
    match.refresh_from_db()
    return int(match.engine.to_act(match.decoded_state())[0])


def duel(
    host: User, guest: User, *, to_play: User, turn_limit: int | None = None, visibility: str = "public"
) -> Match:
    """A running Go Fox! match, ``host`` in seat 0, played on until it is ``to_play``'s turn."""
    match = match_create(
        creator=host, game_slug="go-fox", options={}, turn_limit=turn_limit, visibility=visibility,
        seats=[SeatRequest("me"), SeatRequest("invite", username=guest.username)],
    )  # fmt: skip
    match_join(match_id=match.pk, user=guest)
    people = {0: host, 1: guest}
    while people[seat := on_turn(match)] != to_play:
        action = match.engine.legal_actions(match.decoded_state(), seat)[0]
        match_submit_action(match_id=match.pk, user=people[seat], action=action, ply=match.ply)
    match.refresh_from_db()
    return match


def invitation(host: User, guest: User, *, visibility: str = "private") -> Match:
    return match_create(
        creator=host, game_slug="dont-go-boom", options={"rounds": 1}, visibility=visibility,
        seats=[SeatRequest("me"), SeatRequest("invite", username=guest.username)],
    )  # fmt: skip


def open_table(host: User, *, visibility: str = "public") -> Match:
    return match_create(
        creator=host, game_slug="go-fox", options={}, visibility=visibility, turn_limit=clocks.DAY,
        seats=[SeatRequest("me"), SeatRequest("open"), SeatRequest("open")],
    )  # fmt: skip


def part(page: str, section_id: str) -> str:
    """One section of the page, by its id (sections do not nest on this page)."""
    found = re.search(rf'<section id="{section_id}".*?</section>', page, re.S)
    assert found, f"no section #{section_id}"
    return found.group(0)


def match_ids(html: str) -> list[int]:
    """The matches a part links, in its order (each row's first link is its match)."""
    seen: list[int] = []
    for pk in map(int, re.findall(r'href="/matches/(\d+)/"', html)):
        if pk not in seen:
            seen.append(pk)
    return seen


@pytest.fixture
def carl(make_person: Callable[..., User]) -> User:
    return make_person("carl", display_name="Carl")


@pytest.fixture
def dana(make_person: Callable[..., User]) -> User:
    return make_person("dana", display_name="Dana")


def test_a_stranger_gets_the_sites_introduction(client: Client) -> None:
    page = client.get("/").content.decode()
    assert "Play bomb games with friends and bots" in page and "Create an account" in page
    assert 'id="waiting-for-you"' not in page and "home.js" not in page


def test_each_part_shows_the_players_own_matches_and_nobody_elses_private_ones(
    ann: User, bob: User, carl: User, dana: User
) -> None:
    # Ann's turn in two matches: the one with less time left comes first.
    slow = duel(ann, bob, to_play=ann, turn_limit=clocks.DAY)
    urgent = duel(carl, ann, to_play=ann, turn_limit=clocks.HOUR, visibility="private")
    untimed = duel(ann, carl, to_play=ann)
    # Waiting for Bob.
    theirs = duel(ann, bob, to_play=bob, turn_limit=clocks.DAY)
    invited = invitation(carl, ann)
    # Seats Ann could take: Dana's public table; not Dana's private one, not one Ann sits
    # at or is invited to, not her own.
    public_table = open_table(dana)
    private_table = open_table(dana, visibility="private")
    joined_table = open_table(dana)
    match_join(match_id=joined_table.pk, user=ann)
    own_table = open_table(ann)
    # Other people's matches: nowhere on Ann's page.
    others_running = duel(bob, carl, to_play=bob, visibility="private")
    others_finished = finished([bob, carl], visibility="private")
    now = timezone.now()
    won = finished(
        [ann, bob],
        ranks=[1, 2],
        result={"scores": [16, 9], "ranks": [1, 2]},
        finished_at=now - timedelta(days=2),
    )
    lost = finished(
        [carl, ann, dana],
        ranks=[1, 3, 2],
        result={"scores": [12, 1, 7], "ranks": [1, 3, 2]},
        finished_at=now - timedelta(days=1),
    )

    page = logged_in(ann).get("/").content.decode()

    waiting = part(page, "waiting-for-you")
    assert match_ids(waiting) == [urgent.pk, slow.pk, untimed.pk, invited.pk]
    # The count is the tab title's and the badge's: turns and invitations alike.
    assert '<span class="badge turn-badge">4</span>' in waiting
    assert page.count("(4) Waiting for you · Boomsite") == 1
    # Each turn with its clock in words; the untimed one says so.
    turns = re.findall(r'<li class="match-row home-row">.*?</li>', waiting, re.S)
    assert re.search(r"data-countdown[^>]*>(59:\d\d|1 hour) left</time>", turns[0]), turns[0]
    assert re.search(r">23 hours( \d+ minutes?)? left</time>", turns[1]), turns[1]
    assert "no time limit" in turns[2]
    assert "with Carl" in turns[0] and "with Bob" in turns[1]
    # The invitation, answerable here: the match page's own forms, CSRF-protected.
    invitations = part(page, "waiting-for-you").split('id="invitations"')[1]
    assert "from Carl" in invitations and "Rounds: 1" in invitations
    assert f'action="/matches/{invited.pk}/join"' in invitations
    assert f'action="/matches/{invited.pk}/decline"' in invitations
    assert invitations.count('name="csrfmiddlewaretoken"') == 2
    assert 'name="next" value="/"' in invitations
    assert "also at the table" not in invitations  # Carl, who invited her, is named once

    # Waiting for others: Bob's turn, and the tables Ann sits at waiting for players.
    running = part(page, "running")
    assert match_ids(running) == [own_table.pk, joined_table.pk, theirs.pk]
    assert re.search(r"Bob \(<time [^>]*>23 hours( \d+ minutes?)? left</time>\) to play", running), running
    assert "waiting for 2 more players" in running and "waiting for 1 more player<" in running

    seats = part(page, "open-seats")
    assert match_ids(seats) == [public_table.pk]
    assert "by Dana" in seats and "2 seats free of 3" in seats and "1 day per turn" in seats
    assert f'action="/matches/{public_table.pk}/join"' in seats
    assert 'href="/play/#open-matches"' in seats

    results = part(page, "results")
    assert match_ids(results) == [lost.pk, won.pk]
    # History's words: how it went, the place, the score as the game counts it.
    assert "Lost</strong>, 3rd of 3 (1 pair)" in results and "with Carl, Dana" in results
    assert "Won</strong>, 1st of 2 (16 pairs)" in results
    assert f'href="/matches/{won.pk}/replay"' in results

    shown = set(match_ids(page))
    assert not {private_table.pk, others_running.pk, others_finished.pk} & shown
    # Headings in order: one h1, then the parts' h2s (and the h3s inside "Waiting for you").
    levels = [int(level) for level in re.findall(r"<h([1-6])[ >]", page)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(later - earlier <= 1 for earlier, later in itertools.pairwise(levels))


def test_a_player_with_nothing_going_on_gets_empty_states_with_somewhere_to_go(ann: User) -> None:
    page = logged_in(ann).get("/").content.decode()
    assert "<h1>Hello, Ann</h1>" in page
    assert "Nothing waits for you." in part(page, "waiting-for-you")
    assert 'href="/play/"' in part(page, "waiting-for-you")
    assert "None right now." in part(page, "running")
    assert "No open public match right now." in part(page, "open-seats")
    assert "No finished match yet" in part(page, "results")
    assert "<title>Boomsite</title>" in page


def test_an_invitation_is_accepted_or_declined_from_the_home_page(ann: User, bob: User, carl: User) -> None:
    accepted, declined = invitation(bob, ann), invitation(carl, ann)
    client = logged_in(ann)
    response = client.post(f"/matches/{declined.pk}/decline", {"next": "/"})
    # Back home (a private match declined is no longer Ann's to see), saying so.
    assert response.status_code == 302 and response["Location"] == "/"
    page = client.get("/").content.decode()
    assert "You declined the invitation." in page
    assert match_ids(part(page, "waiting-for-you")) == [accepted.pk]
    response = client.post(f"/matches/{accepted.pk}/join")
    assert response.status_code == 302 and response["Location"] == f"/matches/{accepted.pk}/"
    accepted.refresh_from_db()
    assert accepted.status == Match.Status.RUNNING
    # Declined, a private match is no longer Ann's to see: answering again finds nothing.
    assert client.post(f"/matches/{declined.pk}/decline", {"next": "/"}).status_code == 404
    # A public one she may still see: answering twice says why, back home.
    public = invitation(carl, ann, visibility="public")
    client.post(f"/matches/{public.pk}/decline", {"next": "/"})
    response = client.post(f"/matches/{public.pk}/decline", {"next": "/"})
    assert response["Location"] == "/"
    assert "You have no invitation to this match." in client.get("/").content.decode()


def test_my_matches_declines_back_to_itself_too(ann: User, bob: User) -> None:
    """The same bug there: a private invitation declined led to the match page, a 404."""
    match = invitation(bob, ann)
    client = logged_in(ann)
    assert 'name="next" value="/matches/"' in client.get("/matches/").content.decode()
    assert client.post(f"/matches/{match.pk}/decline", {"next": "/matches/"})["Location"] == "/matches/"


@pytest.mark.parametrize("elsewhere", ["https://evil.example/", "//evil.example/", "javascript:alert(1)", ""])
def test_a_decline_goes_back_only_to_an_address_of_the_site(ann: User, bob: User, elsewhere: str) -> None:
    match = invitation(bob, ann, visibility="public")
    response = logged_in(ann).post(f"/matches/{match.pk}/decline", {"next": elsewhere})
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"


def test_the_live_parts_alone_for_the_pages_script(ann: User, bob: User, client: Client) -> None:
    mine = duel(ann, bob, to_play=ann)
    response = logged_in(ann).get("/home/live/")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert html.lstrip().startswith("<section") and "<html" not in html
    assert match_ids(part(html, "waiting-for-you")) == [mine.pk] and 'data-count="1"' in html
    assert 'id="running"' in html and 'id="open-seats"' not in html
    assert client.get("/home/live/")["Location"].startswith("/accounts/login/")


def test_results_say_what_history_says_of_each_kind_of_game(ann: User, bob: User, carl: User) -> None:
    """The home page's words for a result are History's (the core keeps its own copy of
    the rule: it imports no feature), over the cases History's own test walks."""
    finished([ann, bob], ranks=[1, 2])
    finished([ann, bob, carl], ranks=[3, 1, 2])
    finished([ann, bob, carl], ranks=[1, 1, 3])
    finished(
        [ann, bob], game="its-a-bomb", ranks=[1, 1], result={"won": True, "scores": [3, 3], "ranks": [1, 1]}
    )
    finished([ann], game="booby-trap", ranks=[1], result={"won": False, "scores": [4], "ranks": [1]})
    finished([ann, bob], ranks=[1, 1], resigned={0: True})
    history = {row.match.pk: row for row in history_page(player=ann, viewer=ann, limit=10).rows}
    home = selectors.home(ann).results
    assert len(home) == selectors.HOME_RESULTS and len(history) == 6
    for row in home:
        expected = history[row.match.pk]
        assert (row.outcome, row.outcome_text, row.rank_text, row.score_text) == (
            expected.outcome,
            expected.outcome_text,
            expected.rank_text,
            expected.score_text,
        )
        assert [seat.pk for seat in row.others] == [seat.pk for seat in expected.others]


# -- what features offer the home page -----------------------------------------------------


def offered_section(user: User | AnonymousUser) -> FeatureSection:
    """A feature's section with a button per row and a link to all (settings.HOME_SECTIONS)."""
    return FeatureSection(
        title="Friends online",
        id="friends-online",
        links=[
            FeatureLink(
                text="Bob",
                url="/somewhere/bob/",
                hint="online now",
                buttons=(
                    FeatureButton(text="Challenge", url="/somewhere/bob/challenge", label="Challenge Bob"),
                    FeatureButton(text="Unfollow", url="/somewhere/bob/unfollow", secondary=True),
                ),
            )
        ],
        more=FeatureLink(text="Everyone you follow", url="/somewhere/"),
    )


def empty_section(user: User | AnonymousUser) -> FeatureSection:
    return FeatureSection(title="Challenges", id="challenges", links=[], empty="No challenge waits for you.")


def silent_section(user: User | AnonymousUser) -> FeatureSection:
    return FeatureSection(title="Nothing", id="nothing-at-all", links=[])


def test_features_sections_stand_in_the_side_column_with_their_buttons_and_empty_words(
    ann: User, settings: Settings
) -> None:
    settings.HOME_SECTIONS = [
        f"{__name__}.offered_section",
        f"{__name__}.empty_section",
        f"{__name__}.silent_section",
    ]
    page = logged_in(ann).get("/").content.decode()
    side = page.split('<div class="home-side">')[1]
    assert side.index('id="friends-online"') < side.index('id="challenges"') < side.index('id="open-seats"')
    friends = side.split('id="friends-online"')[1].split("</section>")[0]
    assert 'action="/somewhere/bob/challenge"' in friends and 'aria-label="Challenge Bob"' in friends
    assert '<button type="submit" class="button secondary">Unfollow</button>' in friends
    assert friends.count('name="csrfmiddlewaretoken"') == 2
    assert "online now" in friends and 'href="/somewhere/"' in friends
    assert "No challenge waits for you." in side
    assert "nothing-at-all" not in page  # no links and no words: not drawn
    # A stranger's page draws the same sections, after its introduction.
    stranger = Client().get("/").content.decode()
    assert 'id="friends-online"' in stranger and 'action="/somewhere/bob/challenge"' in stranger
