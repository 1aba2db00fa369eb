"""Query budgets: the SQL of the hot paths, capped, so that later features cannot
quietly add queries (an N+1 over seats, a second load of the state).

Each cap is the count measured when it was set (2026-11-25); fewer is always fine.
Raising one is a decision the commit that does it must explain.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.live_fragments import live_html
from games.models import Match
from games.selectors import access
from games.services import SeatRequest, match_create, match_join, match_submit_action

pytestmark = pytest.mark.django_db

# The same for every game: none of these paths may grow with the table's size.
MOVE = 9  # match_submit_action: savepoint, lock, seat, the move, seats, the state, ...
BOARD_PUSH = 2  # what a socket does per doorbell: the match and its seats, then render
MATCH_PAGE = 7  # the whole match page for a player (session, user, match, seats, chat)
MY_MATCHES = 14  # "My matches" (the same with 1 or 5 matches in each list: no N+1)


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


def test_a_move_stays_within_its_query_budget(table: Match, django_assert_max_num_queries: Any) -> None:
    user, action = mover(table)
    with django_assert_max_num_queries(MOVE):
        match_submit_action(match_id=table.pk, user=user, action=action, ply=table.ply)


def test_a_board_push_stays_within_its_query_budget(
    table: Match, ann: User, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(BOARD_PUSH):
        live_html(access(table.pk, ann))


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
