"""The match services: every write, every refusal (a clear error, nothing changed)."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

from accounts.models import User
from games.engine import get
from games.errors import http_status
from games.models import ChatMessage, Match, Move, Seat
from games.services import (
    MatchError,
    PlacedSeat,
    SeatRequest,
    chat_post,
    match_create,
    match_create_seated,
    match_decline,
    match_join,
    match_leave,
    match_play_for_seat,
    match_resign,
    match_submit_action,
)
from tests.games.helpers import on_turn, play

pytestmark = pytest.mark.django_db


def snapshot(match: Match) -> dict[str, Any]:
    match.refresh_from_db()
    return {
        "state": copy.deepcopy(match.state),
        "ply": match.ply,
        "status": match.status,
        "moves": Move.objects.filter(match=match).count(),
        "seats": list(
            Seat.objects.filter(match=match).values_list(
                "user_id", "joined_at", "resigned_at", "owes_decision"
            )
        ),
    }


def seat_to_act(match: Match) -> tuple[int, dict[str, Any]]:
    """A seat that owes a decision, and one of its legal actions (from the true state, for tests)."""
    match.refresh_from_db()
    game = get(match.game)
    state = match.decoded_state()
    seat = game.to_act(state)[0]
    return seat, game.legal_actions(state, seat)[0]


def user_in(match: Match, seat: int) -> User:
    user = Seat.objects.get(match=match, index=seat).user
    assert user is not None
    return user


# -- creating and joining -------------------------------------------------------------


def test_a_match_with_an_invitation_waits_then_starts_when_the_invitee_accepts(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="boom-box", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="BOB"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    assert match.status == Match.Status.OPEN and match.state is None and match.seed is None
    assert [s.user for s in match.seats.all()][:2] == [ann, bob]
    match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.started_at is not None
    assert match.seed is not None and match.state is not None and match.ply == 0
    assert Seat.objects.filter(match=match, owes_decision=True).exists()


def test_a_started_match_has_a_wide_secret_seed_kept_whole_that_rebuilds_its_first_state(
    two_player_match: Match,
) -> None:
    stored = Match.objects.get(pk=two_player_match.pk)
    assert stored.generator == "keyed"
    # 256 random bits: shorter than 129 bits once in 2**127 matches.
    assert isinstance(stored.seed, int) and 128 < stored.seed.bit_length() <= 256
    assert stored.seed == two_player_match.seed  # not rounded through a 64-bit column
    assert Match.objects.filter(seed=stored.seed).get() == stored
    game = get(stored.game)
    first = game.new(2, stored.seed, stored.options, generator=stored.generator)
    assert game.encode(first) == stored.state  # no move made yet: the state is the deal


def test_an_open_seat_is_taken_by_whoever_joins_first(ann: User, bob: User, make_person: Any) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    match_join(match_id=match.pk, user=bob)
    with pytest.raises(MatchError) as error:
        match_join(match_id=match.pk, user=make_person())
    assert error.value.code == "not_open"  # it started when Bob sat down
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        ([SeatRequest("me")], {}, "bad_player_count"),
        ([SeatRequest("open"), SeatRequest("open")], {}, "seat_yourself"),
        ([SeatRequest("me"), SeatRequest("me")], {}, "seat_yourself"),
        ([SeatRequest("me"), SeatRequest("invite", username="nobody")], {}, "no_such_player"),
        ([SeatRequest("me"), SeatRequest("invite", username="ann")], {}, "invited_twice"),
        ([SeatRequest("me"), SeatRequest("invite", username="bot-random")], {}, "no_such_player"),
        ([SeatRequest("me"), SeatRequest("bot", level="grandmaster")], {}, "no_such_bot"),
        ([SeatRequest("me"), SeatRequest("open")], {"rounds": 99}, "bad_option"),
        ([SeatRequest("me"), SeatRequest("open")], {"colour": "red"}, "unknown_option"),
    ],
)
def test_bad_lobby_requests_are_refused_and_create_nothing(
    ann: User, seats: list[SeatRequest], options: dict[str, Any], code: str
) -> None:
    with pytest.raises(MatchError) as error:
        match_create(creator=ann, game_slug="dont-go-boom", options=options, seats=seats)
    assert error.value.code == code and str(error.value)
    assert not Match.objects.exists()


def test_bad_game_visibility_and_time_control_are_refused(ann: User) -> None:
    seats = [SeatRequest("me"), SeatRequest("open")]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"game_slug": "chess"}, "no_such_game"),
        ({"game_slug": "go-fox", "visibility": "secret"}, "bad_visibility"),
        ({"game_slug": "go-fox", "turn_limit": 17}, "bad_turn_limit"),
    ]
    for kwargs, code in cases:
        with pytest.raises(MatchError) as error:
            match_create(creator=ann, options={}, seats=seats, **kwargs)
        assert error.value.code == code
    assert not Match.objects.exists()


def test_decline_opens_the_seat_and_the_creator_leaving_cancels(
    ann: User, bob: User, make_person: Any
) -> None:
    match = match_create(
        creator=ann,
        game_slug="go-fox",
        options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )
    match_decline(match_id=match.pk, user=bob)
    assert Seat.objects.get(match=match, index=1).user is None
    with pytest.raises(MatchError) as error:
        match_decline(match_id=match.pk, user=bob)
    assert error.value.code == "not_invited"
    carl = make_person("carl")
    match_create(creator=carl, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")])
    match_leave(match_id=match.pk, user=ann)
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED


def test_a_player_who_leaves_before_the_start_frees_the_seat(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={},
        seats=[SeatRequest("me"), SeatRequest("open"), SeatRequest("open")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    with pytest.raises(MatchError) as error:
        match_join(match_id=match.pk, user=bob)
    assert error.value.code == "already_seated"
    match_leave(match_id=match.pk, user=bob)
    assert Seat.objects.filter(match=match, user__isnull=True).count() == 2


# -- moves ----------------------------------------------------------------------------


def test_a_legal_move_is_stored_with_its_ply(two_player_match: Match) -> None:
    seat, action = seat_to_act(two_player_match)
    result = match_submit_action(
        match_id=two_player_match.pk, user=user_in(two_player_match, seat), action=action, ply=0
    )
    assert result.ply == 1 and not result.duplicate
    move = Move.objects.get(match=two_player_match)
    assert (move.ply, move.seat, move.action) == (0, seat, action)
    assert Match.objects.get(pk=two_player_match.pk).ply == 1


def test_a_resent_action_id_returns_the_first_answer_and_plays_once(two_player_match: Match) -> None:
    seat, action = seat_to_act(two_player_match)
    user = user_in(two_player_match, seat)
    action_id = str(uuid.uuid4())
    first = match_submit_action(
        match_id=two_player_match.pk, user=user, action=action, ply=0, action_id=action_id
    )
    again = match_submit_action(
        match_id=two_player_match.pk, user=user, action=action, ply=0, action_id=action_id
    )
    assert (first.ply, again.ply, again.duplicate) == (1, 1, True)
    assert Move.objects.filter(match=two_player_match).count() == 1
    other = user_in(two_player_match, 1 - seat)
    with pytest.raises(MatchError) as error:
        match_submit_action(
            match_id=two_player_match.pk, user=other, action=action, ply=1, action_id=action_id
        )
    assert error.value.code == "action_id_taken"


def test_a_taken_action_id_on_a_move_that_would_be_legal_plays_nothing(two_player_match: Match) -> None:
    """The id is not looked up before a move (a query saved on every move): a legal move
    whose id is stored already is refused by the database's UNIQUE(match, action_id),
    and answered as before, with nothing written."""
    match = two_player_match
    first = on_turn(match)
    action_id = str(uuid.uuid4())
    _seat, action = seat_to_act(match)
    match_submit_action(
        match_id=match.pk, user=user_in(match, first), action=action, ply=0, action_id=action_id
    )
    while on_turn(match) == first:
        play(match, first)

    def legal_move_with_the_taken_id(seat: int) -> Any:
        match.refresh_from_db()
        legal = match.engine.legal_actions(match.decoded_state(), seat)[0]
        return match_submit_action(
            match_id=match.pk, user=user_in(match, seat), action=legal, ply=match.ply, action_id=action_id
        )

    stored, ply = Move.objects.filter(match=match).count(), match.ply
    with pytest.raises(MatchError) as error:  # the other player's id it is not
        legal_move_with_the_taken_id(on_turn(match))
    assert error.value.code == "action_id_taken"
    assert Move.objects.filter(match=match).count() == stored and Match.objects.get(pk=match.pk).ply == ply
    while on_turn(match) != first:
        play(match, on_turn(match))
    stored, ply = Move.objects.filter(match=match).count(), match.ply
    with pytest.raises(MatchError) as error:  # their own id, on a new move: refused (issue 35, bug 1)
        legal_move_with_the_taken_id(first)
    assert error.value.code == "action_id_reused" and http_status(error.value.code) == 409
    assert "ply 0" in str(error.value)
    assert Move.objects.filter(match=match).count() == stored and Match.objects.get(pk=match.pk).ply == ply


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("stale_ply", "stale_ply"),
        ("future_ply", "bad_ply"),
        ("ply_as_text", "bad_ply"),
        ("bad_action_id", "bad_action_id"),
        ("out_of_turn", "not_your_turn"),
        ("stranger", "not_your_seat"),
        ("not_a_dict", "malformed_action"),
        ("unknown_type", "unknown_action"),
        ("junk_field", "unexpected_field"),
        ("out_of_range", "out_of_range"),
    ],
)
def test_bad_moves_get_a_clear_error_and_change_nothing(
    two_player_match: Match, make_person: Any, case: str, code: str
) -> None:
    match = two_player_match
    # Play on until one seat alone owes a decision that opened at the current ply (a
    # move made on an earlier board is then stale: see games/services/decisions.py).
    while True:
        seat, action = seat_to_act(match)
        game = get(match.game)
        opened = Seat.objects.get(match=match, index=seat).decision_ply
        if len(game.to_act(match.decoded_state())) == 1 and opened == match.ply:
            break
        match_submit_action(match_id=match.pk, user=user_in(match, seat), action=action, ply=match.ply)
    user = user_in(match, seat)
    kwargs: dict[str, Any] = {"match_id": match.pk, "user": user, "action": action, "ply": match.ply}
    if case == "stale_ply":
        kwargs["ply"] = match.ply - 1
    elif case == "future_ply":
        kwargs["ply"] = match.ply + 1
    elif case == "ply_as_text":
        kwargs["ply"] = str(match.ply)
    elif case == "bad_action_id":
        kwargs["action_id"] = "not-a-uuid"
    elif case == "out_of_turn":
        kwargs["user"] = user_in(match, 1 - seat)
    elif case == "stranger":
        kwargs["user"] = make_person()
    elif case == "not_a_dict":
        kwargs["action"] = ["draw"]
    elif case == "unknown_type":
        kwargs["action"] = {"type": "explode"}
    elif case == "junk_field":
        kwargs["action"] = {**action, "extra": 1}
    elif case == "out_of_range":
        kwargs["action"] = {"type": "flip", "position": 99}
    before = snapshot(match)
    with pytest.raises(MatchError) as error:
        match_submit_action(**kwargs)
    assert error.value.code == code and str(error.value)
    assert snapshot(match) == before


def test_moves_on_a_match_that_is_not_running_are_refused(ann: User) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={}, seats=[SeatRequest("me"), SeatRequest("open")]
    )
    with pytest.raises(MatchError) as error:
        match_submit_action(match_id=match.pk, user=ann, action={"type": "draw"}, ply=0)
    assert error.value.code == "not_running"
    with pytest.raises(MatchError) as error:
        match_submit_action(match_id=10**6, user=ann, action={"type": "draw"}, ply=0)
    assert error.value.code == "no_such_match"


def test_only_bot_seats_are_played_for(two_player_match: Match) -> None:
    seat, action = seat_to_act(two_player_match)
    with pytest.raises(MatchError) as error:
        match_play_for_seat(match_id=two_player_match.pk, seat_index=seat, action=action, ply=0)
    assert error.value.code == "not_a_bot_seat"


def test_a_match_played_to_the_end_stores_ranks_and_scores(ann: User) -> None:
    match = match_create(
        creator=ann,
        game_slug="ka-blam",
        options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random")],
    )
    while Match.objects.get(pk=match.pk).status == Match.Status.RUNNING:
        seat, action = seat_to_act(match)
        if seat == 0:
            match_submit_action(match_id=match.pk, user=ann, action=action, ply=match.ply)
        else:
            match_play_for_seat(match_id=match.pk, seat_index=seat, action=action, ply=match.ply)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    assert match.result is not None and sorted(match.result["ranks"]) in ([1, 2], [1, 1])
    assert [s.rank for s in match.seats.all()] == match.result["ranks"]
    assert not Seat.objects.filter(match=match, owes_decision=True).exists()
    with pytest.raises(MatchError) as error:
        match_submit_action(match_id=match.pk, user=ann, action={"type": "draw"}, ply=match.ply)
    assert error.value.code == "game_over"


# -- resigning --------------------------------------------------------------------------


def test_resigning_a_two_player_game_ends_it_with_the_other_player_first(
    two_player_match: Match, ann: User
) -> None:
    match_resign(match_id=two_player_match.pk, user=ann)
    match = Match.objects.get(pk=two_player_match.pk)
    assert match.status == Match.Status.FINISHED
    assert match.result == {"scores": None, "ranks": [2, 1], "resigned": [0]}
    with pytest.raises(MatchError) as error:
        match_resign(match_id=match.pk, user=ann)
    assert error.value.code == "not_playing"


def test_in_a_bigger_game_the_autopilot_plays_on_for_who_resigned(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("bot", level="random"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    match_resign(match_id=match.pk, user=ann)
    match.refresh_from_db()
    # No person is left to play for: it ends, Ann last.
    assert match.status == Match.Status.FINISHED and match.result == {
        "scores": None,
        "ranks": [3, 1, 1],
        "resigned": [0],
    }

    match = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("open"), SeatRequest("bot", level="random")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_resign(match_id=match.pk, user=ann)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    seat = Seat.objects.get(match=match, index=0)
    assert seat.played_by_bot and seat.resigned_at is not None and seat.resigned_reason == "resigned"
    with pytest.raises(MatchError) as error:
        match_submit_action(match_id=match.pk, user=ann, action={"type": "draw"}, ply=match.ply)
    assert error.value.code == "resigned"


# -- chat -------------------------------------------------------------------------------


def test_chat_is_for_players_and_refuses_bad_text(
    two_player_match: Match, ann: User, make_person: Any
) -> None:
    message = chat_post(match_id=two_player_match.pk, user=ann, text="  good luck!  ")
    assert message.text == "good luck!"
    for user, text, code in [
        (ann, "   ", "empty_message"),
        (ann, "x" * 501, "message_too_long"),
        (ann, 42, "empty_message"),
        (make_person(), "hi", "not_your_seat"),
    ]:
        with pytest.raises(MatchError) as error:
            chat_post(match_id=two_player_match.pk, user=user, text=text)
        assert error.value.code == code
    assert ChatMessage.objects.count() == 1


def test_the_crisis_unit_cannot_chat_while_its_a_bomb_runs(ann: User, bob: User) -> None:
    match = match_create(
        creator=ann, game_slug="its-a-bomb", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    with pytest.raises(MatchError) as error:
        chat_post(match_id=match.pk, user=ann, text="cut the red one")
    assert error.value.code == "chat_closed"
    chat_post(match_id=match.pk, user=bob, text="which one?")
    assert ChatMessage.objects.filter(match=match).count() == 1


def test_a_match_can_be_seated_with_a_given_list_of_players(ann: User, bob: User, make_person: Any) -> None:
    """As a tournament seats a table: people and a bot, the organiser not at the table."""
    organiser, carl = make_person("organiser"), make_person("carl")
    bot = User.objects.get(username="bot-basic")
    match = match_create_seated(
        created_by=organiser,
        game_slug="go-fox",
        options={},
        seats=[PlacedSeat(ann, joined=True), PlacedSeat(bot, joined=True), PlacedSeat(carl, joined=True)],
    )
    assert match.status == Match.Status.RUNNING and match.visibility == Match.Visibility.PRIVATE
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    assert [seat.user.username for seat in seats if seat.user] == ["ann", "bot-basic", "carl"]
    assert all(seat.joined_at is not None for seat in seats)
    assert not Seat.objects.filter(match=match, user=organiser).exists()


def test_a_seated_match_refuses_a_person_twice_or_a_bad_count_and_creates_nothing(
    ann: User, bob: User
) -> None:
    before = Match.objects.count()
    for seats, code in (
        ([PlacedSeat(ann, joined=True), PlacedSeat(ann, joined=True)], "invited_twice"),
        ([PlacedSeat(ann, joined=True)], "bad_player_count"),
    ):
        with pytest.raises(MatchError) as refused:
            match_create_seated(created_by=bob, game_slug="go-fox", options={}, seats=seats)
        assert refused.value.code == code
    assert Match.objects.count() == before
