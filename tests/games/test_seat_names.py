"""A seat's name is fixed when its match starts: renaming mid-game passes nothing to the table.

(It's a Bomb!'s silenced Crisis Unit could otherwise hint through its display name.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from games.models import Match, Seat
from games.selectors import access, board_for
from games.services import (
    SeatRequest,
    bot_play_turn,
    chat_post,
    match_create,
    match_join,
    match_resign,
    match_submit_action,
)
from tests.games.helpers import api, live_part, logged_in, token_for
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db


def rename(user: User, display_name: str) -> None:
    response = logged_in(user).post("/accounts/settings/", {"display_name": display_name, "time_zone": "UTC"})
    assert response.status_code == 302, response.content.decode()[:2000]


def what_ann_sees(match: Match, ann: User) -> dict[str, str]:
    client = logged_in(ann)
    return {
        "page": client.get(f"/matches/{match.pk}/").content.decode(),
        "board": client.get(f"/matches/{match.pk}/board").content.decode(),
        "dashboard": client.get("/matches/").content.decode(),
    }


def test_a_player_renaming_mid_game_keeps_their_old_name_at_the_table(
    two_player_match: Match, ann: User, bob: User
) -> None:
    chat_post(match_id=two_player_match.pk, user=bob, text="good luck")
    rename(bob, "CUT r1c2")
    for where, html in what_ann_sees(two_player_match, ann).items():
        assert "Bob" in html, where
        assert "CUT r1c2" not in html, where
    players = api("GET", f"/api/matches/{two_player_match.pk}", token_for(ann)).json()["players"]
    assert [player["name"] for player in players] == ["Ann", "Bob"]
    bob_page = logged_in(bob).get(f"/matches/{two_player_match.pk}/board").content.decode()
    assert "CUT r1c2" not in bob_page


def test_a_finished_match_shows_the_names_it_was_played_under(
    two_player_match: Match, ann: User, bob: User
) -> None:
    match_resign(match_id=two_player_match.pk, user=ann)
    assert Match.objects.get(pk=two_player_match.pk).status == Match.Status.FINISHED
    rename(bob, "Robert")
    page = logged_in(ann).get(f"/matches/{two_player_match.pk}/").content.decode()
    assert "Bob" in page and "Robert" not in page


def test_a_seat_shows_its_players_current_name_until_the_match_starts(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    rename(bob, "Robert")
    assert "Robert" in logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    match_join(match_id=match.pk, user=bob)
    assert [seat.display_name for seat in Seat.objects.filter(match=match)] == ["Ann", "Robert"]
    rename(bob, "Bobby")
    page = logged_in(ann).get(f"/matches/{match.pk}/").content.decode()
    assert "Robert" in page and "Bobby" not in page


def test_a_table_of_bots_is_named_when_it_starts(ann: User) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("bot", level="random"), SeatRequest("bot", level="basic")],
    )  # fmt: skip
    assert [seat.display_name for seat in Seat.objects.filter(match=match)] == ["Random Bot", "Basic Bot"]


def test_bots_of_one_level_get_a_letter_each_for_the_whole_match(ann: User) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="basic"), SeatRequest("bot", level="basic"),
               SeatRequest("bot", level="random")],
    )  # fmt: skip
    names = ["Ann", "Basic Bot A", "Basic Bot B", "Random Bot"]
    assert [seat.display_name for seat in Seat.objects.filter(match=match)] == names
    for _ in range(400):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        state = match.decoded_state()
        if 0 in match.engine.to_act(state):
            action = match.engine.legal_actions(state, 0)[0]
            match_submit_action(match_id=match.pk, user=ann, action=action, ply=match.ply)
        else:
            assert bot_play_turn(match_id=match.pk, ply=match.ply)
    assert match.status == Match.Status.FINISHED
    board = board_for(access(match.pk, ann))
    assert board is not None
    log = [entry["text"] for entry in board.log]
    # Seat 1 asks seat 2: the log tells the two bots apart.
    assert any(text.startswith("Basic Bot A asked Basic Bot B for") for text in log), log[-10:]
    page = live_part(logged_in(ann).get(f"/matches/{match.pk}/").content.decode())
    standings = re.search(r'<ol class="wcb-standings">(.*?)</ol>', page, re.S)
    assert standings is not None
    for name in names[1:]:
        assert standings.group(1).count(f">{name}<") == 1, name
    players = api("GET", f"/api/matches/{match.pk}", token_for(ann)).json()["players"]
    assert [player["name"] for player in players] == names


def test_bots_are_lettered_in_seat_order_and_a_lone_level_keeps_its_name(ann: User) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("bot", level="basic"), SeatRequest("bot", level="random"),
               SeatRequest("bot", level="basic")],
    )  # fmt: skip
    names = [seat.display_name for seat in Seat.objects.filter(match=match)]
    assert names == ["Basic Bot A", "Random Bot", "Basic Bot B"]


@pytest.mark.django_db(transaction=True)
def test_presence_notes_name_a_player_by_their_seat(two_player_match: Match, ann: User, bob: User) -> None:
    rename(bob, "CUT r1c2")
    ann_browser, bob_browser = Viewer(ann), Viewer(bob)

    async def scenario() -> None:
        watcher, renamed = socket(two_player_match.pk, ann_browser), socket(two_player_match.pk, bob_browser)
        assert (await watcher.connect())[0]
        await next_of(watcher, "board")
        assert (await renamed.connect())[0]
        note: dict[str, Any] = await next_of(watcher, "presence")
        assert note == {"type": "presence", "online": True, "who": "Bob"}
        await renamed.disconnect()
        await watcher.disconnect()

    run(scenario)
