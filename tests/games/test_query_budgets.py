"""Query budgets: the SQL of the hot paths, capped, so that later features cannot
quietly add queries (an N+1 over seats, a second load of the state).

Each cap is the count measured when it was set (2026-11-25; the move and the socket's
lowered for issue 25); fewer is always fine. Raising one is a decision the commit that
does it must explain.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.live.fragments import live_html, read_live_picture
from games.models import Match
from games.selectors import access
from games.services import SeatRequest, match_create, match_join, match_resign, match_submit_action
from games.services.state import SEAT_STATE_FIELDS

pytestmark = pytest.mark.django_db

# The same for every game: none of these paths may grow with the table's size.
# match_submit_action with an action id: BEGIN (SQLite's; PostgreSQL's is not logged),
# the lock, the seats, their players (a query of its own: cheaper in CPU than the join,
# games/services/rows.py), the move, the match, COMMIT, and one UPDATE per seat the
# move changed (its decision or clock: one or two in a Go Fox! move, depending on the
# deal). The action id is looked up only when a move is refused or its id is taken; no
# query after the commit (the seats say whether a bot owes a turn).
MOVE = 7  # plus one per changed seat
BOARD_PAGE = 2  # the live part for the page or /board: the match and its seats, then render
# Per doorbell and process: one read (the match, its seats) for all its sockets on the
# match, then a render per kind of viewer, which asks the database nothing.
BOARD_PUSH_READ = 2
MATCH_PAGE = 8  # the whole match page for a player (session, user, match, seats, chat, the tournament note)
# The signed-in home page (set 2026-11-28): session, user, the badge's count, the
# tournaments' section (two), social's two (the people followed, read by each: friends
# online and their results, whose own counts with friends tests/games/social checks),
# then one read per part (waiting for you, running, open seats, results) and one for
# every table shown.
HOME = 12
MY_MATCHES = (
    15  # "My matches" (the same with 1 or 5 matches in each list: no N+1; the tables I watch included)
)


@pytest.fixture
def table(ann: User, bob: User, make_person: Any) -> Match:
    """A running four-player Go Fox! game of people (every seat a user to load)."""
    carl, dana = make_person("carl"), make_person("dana")
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), *[SeatRequest("invite", username=u.username) for u in (bob, carl, dana)]],
    )  # fmt: skip
    for person in (bob, carl, dana):
        match_join(match_id=match.pk, user=person)
    return Match.objects.get(pk=match.pk)


def mover(match: Match) -> tuple[User, dict[str, Any]]:
    match.refresh_from_db()
    state = match.decoded_state()
    seat = match.engine.to_act(state)[0]
    user = match.seats.get(index=seat).user
    assert user is not None
    return user, match.engine.legal_actions(state, seat)[0]


def seat_rows(match: Match) -> dict[int, tuple[Any, ...]]:
    return {seat.pk: tuple(getattr(seat, name) for name in SEAT_STATE_FIELDS) for seat in match.seats.all()}


def test_a_move_stays_within_its_query_budget(table: Match, django_assert_max_num_queries: Any) -> None:
    user, action = mover(table)
    before = seat_rows(table)
    with django_assert_max_num_queries(MOVE + len(table.seats.all())) as captured:
        match_submit_action(
            match_id=table.pk, user=user, action=action, ply=table.ply, action_id=uuid.uuid4()
        )
    after = seat_rows(table)
    changed = sum(before[pk] != after[pk] for pk in before)
    assert changed >= 1  # the mover's own decision, at least
    assert len(captured.captured_queries) <= MOVE + changed, [query["sql"] for query in captured]


def test_the_live_part_of_a_page_stays_within_its_query_budget(
    table: Match, ann: User, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(BOARD_PAGE):
        live_html(access(table.pk, ann))


def test_a_board_push_is_one_read_for_every_socket_and_renders_without_queries(
    table: Match, ann: User, bob: User, django_assert_max_num_queries: Any, django_assert_num_queries: Any
) -> None:
    with django_assert_max_num_queries(BOARD_PUSH_READ):
        picture = read_live_picture(table.pk)
    assert picture is not None
    with django_assert_num_queries(0):
        for viewer in (ann, bob, AnonymousUser()):
            picture.live_html(picture.access_for(viewer))


def test_a_move_s_boards_are_drawn_where_it_is_stored_without_a_query(
    table: Match, monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    """From what the move's service holds: every kind of viewer looking, no query."""
    from games.effects import Played
    from games.live import presence, push

    kinds = {"seat-0", "seat-1", "watch-in", "watch-out", "watch-in-invited"}
    monkeypatch.setattr(presence, "watching", lambda match_id: (kinds, set()))
    match = Match.objects.get(pk=table.pk)
    seats = list(match.seats.select_related("user"))
    played = Played(match, seats, match.decoded_state())
    with django_assert_num_queries(0):
        boards = push.boards_for_watching(played)
    assert set(boards) == kinds


def test_the_check_a_socket_makes_as_it_opens_does_not_load_the_state(table: Match, ann: User) -> None:
    with CaptureQueriesContext(connection) as queries:
        seen = access(table.pk, ann, with_state=False)
    assert seen.my_seat is not None and len(queries) == 2
    assert all('"games_match"."state"' not in query["sql"] for query in queries.captured_queries)


def test_the_match_page_stays_within_its_query_budget(
    table: Match, ann: User, django_assert_max_num_queries: Any
) -> None:
    client = Client()
    client.force_login(ann)
    with django_assert_max_num_queries(MATCH_PAGE):
        assert client.get(f"/matches/{table.pk}/").status_code == 200


def test_my_matches_stays_within_its_query_budget(
    table: Match, ann: User, bob: User, django_assert_max_num_queries: Any
) -> None:
    for _ in range(3):  # more matches must not mean more queries
        match_create(
            creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
        )
        match_create(
            creator=bob, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username="ann")],
        )  # fmt: skip
    client = Client()
    client.force_login(ann)
    with django_assert_max_num_queries(MY_MATCHES):
        assert client.get("/matches/").status_code == 200


def test_the_signed_in_home_page_stays_within_its_query_budget(
    table: Match, ann: User, bob: User, make_person: Any, django_assert_max_num_queries: Any
) -> None:
    """Every part of the home page filled (a turn, an invitation, a running match waiting
    for others, an open seat, a result), then three more of each: the same count."""
    carl = make_person("carl2")

    def more_of_everything() -> None:
        match_create(  # an invitation, and an open seat at Bob's table
            creator=bob, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username="ann"), SeatRequest("open")],
        )  # fmt: skip
        match_create(
            creator=carl, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
        )
        running = match_create(
            creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
            seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
        )  # fmt: skip
        match_join(match_id=running.pk, user=bob)
        while (turn := mover(running))[0] != ann:  # Ann's turn: in "Waiting for you"
            match_submit_action(match_id=running.pk, user=turn[0], action=turn[1], ply=running.ply)
        waiting_for_bob = match_create(
            creator=ann, game_slug="go-fox", options={}, turn_limit=3600,
            seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
        )  # fmt: skip
        match_join(match_id=waiting_for_bob.pk, user=bob)
        while (turn := mover(waiting_for_bob))[0] != bob:
            match_submit_action(
                match_id=waiting_for_bob.pk, user=turn[0], action=turn[1], ply=waiting_for_bob.ply
            )
        finished = match_create(
            creator=ann, game_slug="go-fox", options={},
            seats=[SeatRequest("me"), SeatRequest("invite", username="carl2")],
        )  # fmt: skip
        match_join(match_id=finished.pk, user=carl)
        match_resign(match_id=finished.pk, user=carl)

    client = Client()
    client.force_login(ann)
    counts = []
    for _ in range(2):
        more_of_everything()
        with CaptureQueriesContext(connection) as queries:
            page = client.get("/").content.decode()
        counts.append(len(queries))
        for _ in range(2):
            more_of_everything()
        for part in ('id="your-turn"', 'id="invitations"', "to play", " free of ", "outcome-won"):
            assert part in page, part
    assert counts[0] == counts[1], counts
    with django_assert_max_num_queries(HOME):
        assert client.get("/").status_code == 200
