"""The admin shows a move as the public log tells it; the raw action (which may hold a
secret choice) only to a superuser who asks, and no filter can probe what is hidden."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from games.models import Match, Move
from games.services import SeatRequest, match_create, match_join, match_submit_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def set_aside_moves(ann: User, bob: User) -> list[Move]:
    """A Boom Box match where Ann has set aside two boxes: which ones is her secret."""
    match = match_create(
        creator=ann, game_slug="boom-box", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    for ply in range(2):
        match = Match.objects.get(pk=match.pk)
        action = match.engine.legal_actions(match.decoded_state(), 0)[0]
        assert action["type"] == "set_aside"
        match_submit_action(match_id=match.pk, user=ann, action=action, ply=ply)
    return list(Move.objects.filter(match=match).order_by("ply"))


@pytest.fixture
def staff(make_person: Callable[..., User]) -> Client:
    """A staff member who may view matches and moves, and is not a superuser."""
    person = make_person("moderator", is_staff=True)
    person.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="games", codename__in=["view_move", "view_match"])
    )
    client = Client()
    client.force_login(person)
    return client


def move_page(client: Client, move: Move, query: str = "") -> str:
    response = client.get(f"/admin/games/move/{move.pk}/change/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_staff_see_a_move_as_the_public_log_tells_it_never_its_raw_action(
    staff: Client, set_aside_moves: list[Move]
) -> None:
    first, second = set_aside_moves
    secret_boxes = [first.action["box"], second.action["box"]]
    for move in set_aside_moves:
        for query in ("", "?secret=1"):  # asking changes nothing for someone who is not a superuser
            page = move_page(staff, move, query)
            assert not any(box in page for box in secret_boxes), f"a set-aside box on {move} {query}"
            assert "set_aside" not in page and "Show the raw action" not in page
    # The second box completes the Start Line: the public log says so, without the boxes.
    assert "Ann laid out a Start Line of four boxes: A, B, C and D." in move_page(staff, second)


def test_a_superuser_sees_the_raw_action_only_when_asking(
    superuser: Client, set_aside_moves: list[Move]
) -> None:
    move = set_aside_moves[1]
    box = move.action["box"]
    page = move_page(superuser, move)
    assert box not in page and "Show the raw action" in page and "?secret=1" in page
    asked = move_page(superuser, move, "?secret=1")
    assert box in asked and "set_aside" in asked


@pytest.mark.parametrize(
    ("url", "hidden"),
    [
        ("/admin/games/move/", "action__box"),
        ("/admin/games/move/", "action__contains"),
        ("/admin/games/match/", "seed__startswith"),
        ("/admin/games/match/", "state__isnull"),
        # A private match's link: probed a character at a time, it would let staff join.
        ("/admin/games/match/", "invite_token__regex"),
        ("/admin/games/match/", "invite_token__startswith"),
        ("/admin/games/match/", "seed_salt__startswith"),
    ],
)
def test_no_one_may_filter_the_admin_lists_by_what_is_hidden(
    staff: Client, superuser: Client, set_aside_moves: list[Move], url: str, hidden: str
) -> None:
    for client in (staff, superuser):
        assert client.get(url).status_code == 200
        assert client.get(f"{url}?{hidden}=1").status_code == 400
