"""Turn clocks as people see them (games/templatetags/turn_clocks.py): the time left on
the match page's players list and in My matches' "Your turn" rows, a clock paused by a
vacation, and the timeouts the autopilot played. Time moves with time-machine."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from accounts.models import User
from games.models import Match, Seat
from games.services import SeatRequest, match_create, match_join
from games.services.clocks import seat_time_out, vacation_begin
from games.templatetags.turn_clocks import countdown_words
from tests.games.helpers import logged_in

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
_PLAYERS = re.compile(r'<ol class="player-list">(.*?)</ol>', re.S)
_CLOCK = re.compile(
    r'<time class="time-left" datetime="([^"]+)" data-countdown aria-live="off">([^<]*)</time>'
)


@pytest.fixture
def traveller() -> Any:
    with time_machine.travel(START, tick=False) as moving:
        yield moving


@pytest.fixture
def daily(traveller: Any, ann: User, bob: User) -> Match:
    """Go Fox! between Ann and Bob, one day per turn, started at START."""
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, turn_limit=86400,
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def on_turn(match: Match) -> Seat:
    match.refresh_from_db()
    index = match.engine.to_act(match.decoded_state())[0]
    return Seat.objects.select_related("user").get(match=match, index=index)


def players_list(user: User, match: Match) -> str:
    page = logged_in(user).get(f"/matches/{match.pk}/").content.decode()
    found = _PLAYERS.search(page)
    assert found, "the page has no players list"
    return found.group(1)


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_time_left_reads_in_hours_then_to_the_second_in_the_last_hour() -> None:
    assert countdown_words(timedelta(days=2, hours=3, minutes=5)) == "2 days 3 hours left"
    assert countdown_words(timedelta(hours=2, minutes=14, seconds=59)) == "2 hours 14 minutes left"
    assert countdown_words(timedelta(hours=1)) == "1 hour left"
    assert countdown_words(timedelta(minutes=59, seconds=59)) == "59:59 left"
    assert countdown_words(timedelta(minutes=3, seconds=12)) == "3:12 left"
    assert countdown_words(timedelta(seconds=5)) == "0:05 left"
    assert countdown_words(timedelta(milliseconds=400)) == "time is up"
    assert countdown_words(timedelta(0)) == "time is up"


def test_the_players_list_counts_down_the_clock_of_whoever_owes_a_decision(
    daily: Match, traveller: Any, ann: User, bob: User
) -> None:
    player = on_turn(daily)
    deadline = START + DAY
    assert player.deadline_at == deadline
    traveller.move_to(START + timedelta(hours=6, minutes=14))
    for viewer in (ann, bob):  # the player and the other one alike
        clocks = _CLOCK.findall(players_list(viewer, daily))
        # One clock, the machine-readable deadline for the page's script and the words without it.
        assert clocks == [("2026-03-11T12:00:00.000+00:00", "17 hours 46 minutes left")]
    traveller.move_to(deadline - timedelta(minutes=3, seconds=12))
    assert _CLOCK.findall(players_list(ann, daily))[0][1] == "3:12 left"
    traveller.move_to(deadline + timedelta(seconds=1))  # the sweep has not played yet
    assert _CLOCK.findall(players_list(ann, daily))[0][1] == "time is up"


def test_a_match_without_a_clock_shows_none(duel: Match, ann: User) -> None:
    assert "time-left" not in players_list(ann, duel)


def test_my_matches_shows_the_time_left_in_each_of_my_turns(
    daily: Match, traveller: Any, ann: User, bob: User, make_person: Any
) -> None:
    player = on_turn(daily)
    person = player.user
    assert person is not None
    # A second match waiting for the same person, without a clock: its row shows none.
    other = bob if person == ann else ann
    unclocked = match_create(
        creator=other, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username=person.username)],
    )  # fmt: skip
    match_join(match_id=unclocked.pk, user=person)
    traveller.move_to(START + timedelta(hours=23, minutes=10))
    page = logged_in(person).get("/matches/").content.decode()
    your_turn = page[page.index('id="your-turn"') : page.index('id="waiting"')]
    assert _CLOCK.findall(your_turn) == [("2026-03-11T12:00:00.000+00:00", "50:00 left")]
    rows = re.findall(r'<li class="match-row">.*?</li>', your_turn, re.S)
    clocked_rows = [row for row in rows if "time-left" in row]
    assert len(clocked_rows) == 1 and f"/matches/{daily.pk}/" in clocked_rows[0]


def test_a_clock_paused_by_a_vacation_says_until_when(
    daily: Match, traveller: Any, ann: User, bob: User
) -> None:
    player = on_turn(daily)
    assert player.user is not None
    traveller.move_to(START + timedelta(hours=1))
    vacation_begin(user=player.user, days=3)  # until 13 March, 13:00 UTC
    other = bob if player.user == ann else ann
    for viewer in (player.user, other):
        shown = text_of(players_list(viewer, daily))
        assert "paused: on vacation until 13 March" in shown
        assert "left" not in shown  # no countdown while paused
    page = logged_in(player.user).get("/matches/").content.decode()
    assert "paused: on vacation until 13 March" in text_of(page)


def test_the_others_see_that_the_autopilot_played_for_a_player_out_of_time(
    daily: Match, traveller: Any, ann: User, bob: User
) -> None:
    player = on_turn(daily)
    late, other = (ann, bob) if player.user == ann else (bob, ann)
    traveller.move_to(START + DAY + timedelta(seconds=1))
    assert seat_time_out(match_id=daily.pk, seat_index=player.index, deadline=START + DAY)
    name = late.display_name
    assert f"{name} ran out of time: the autopilot played for them (1 of 3)." in text_of(
        players_list(other, daily)
    )
    assert "You ran out of time: the autopilot played for you (1 of 3)." in text_of(players_list(late, daily))


def test_a_player_who_forfeited_on_time_is_shown_so(
    daily: Match, traveller: Any, ann: User, bob: User
) -> None:
    Match.objects.filter(pk=daily.pk).update(timeouts_to_forfeit=1)
    player = on_turn(daily)
    other = bob if player.user == ann else ann
    traveller.move_to(START + DAY + timedelta(seconds=1))
    assert seat_time_out(match_id=daily.pk, seat_index=player.index, deadline=START + DAY)
    shown = text_of(players_list(other, daily))
    assert "forfeited on time" in shown and "resigned" not in shown and "ran out of time" not in shown
