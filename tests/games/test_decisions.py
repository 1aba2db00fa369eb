"""games/services/decisions.py: a choice made at the same moment as another seat's is not stale."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from accounts.models import User
from games.errors import MatchError
from games.models import Match, Move, Seat
from games.services import SeatRequest, match_create, match_join, match_submit_action
from games.services.decisions import update_decisions

pytestmark = pytest.mark.django_db


@pytest.fixture
def first_flip(ann: User, bob: User, make_person: Any) -> tuple[Match, list[User]]:
    """Don't Go Boom for three: everyone chooses a card of the first flip at once (ply 0)."""
    carl = make_person("carl")
    match = match_create(
        creator=ann, game_slug="dont-go-boom", options={"rounds": 1},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob"), SeatRequest("invite", username="carl")],
    )  # fmt: skip
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carl)
    match.refresh_from_db()
    assert match.engine.to_act(match.decoded_state()) == [0, 1, 2]
    return match, [ann, bob, carl]


def choice(match: Match, seat: int) -> dict[str, Any]:
    match.refresh_from_db()
    return match.engine.legal_actions(match.decoded_state(), seat)[0]


def test_choices_made_on_the_same_board_all_count(first_flip: tuple[Match, list[User]]) -> None:
    match, people = first_flip
    picks = [choice(match, seat) for seat in range(3)]
    # All three saw the board of ply 0; two of them land after another's choice.
    for seat, person in enumerate(people):
        match_submit_action(match_id=match.pk, user=person, action=picks[seat], ply=0, action_id=uuid.uuid4())
    moves = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", "seat", "action"))
    assert moves == [(0, 0, picks[0]), (1, 1, picks[1]), (2, 2, picks[2])]


def test_a_resent_simultaneous_choice_still_plays_once(first_flip: tuple[Match, list[User]]) -> None:
    match, (ann, bob, _carl) = first_flip
    action_id, picked = uuid.uuid4(), choice(match, 1)
    match_submit_action(match_id=match.pk, user=bob, action=picked, ply=0, action_id=action_id)
    match_submit_action(match_id=match.pk, user=ann, action=choice(match, 0), ply=0)
    again = match_submit_action(match_id=match.pk, user=bob, action=picked, ply=0, action_id=action_id)
    assert again.duplicate and Move.objects.filter(match=match, seat=1).count() == 1


def test_a_seat_that_already_chose_cannot_choose_again_on_the_old_board(
    first_flip: tuple[Match, list[User]],
) -> None:
    match, (ann, _bob, _carl) = first_flip
    match_submit_action(match_id=match.pk, user=ann, action=choice(match, 0), ply=0)
    with pytest.raises(MatchError) as refused:
        match_submit_action(match_id=match.pk, user=ann, action={"type": "choose", "position": 1}, ply=0)
    assert refused.value.code == "stale_ply"
    assert Move.objects.filter(match=match).count() == 1


def test_a_move_on_a_board_from_before_the_decision_opened_is_stale(
    duel: Match, ann: User, bob: User
) -> None:
    # Go Fox! takes turns: a seat's decision opens when the other's turn ends, so a
    # board from before then is an outdated picture, whatever it clicks.
    match, people = duel, [ann, bob]
    first = match.engine.to_act(match.decoded_state())[0]
    other = 1 - first
    while Seat.objects.get(match=match, index=other).decision_ply is None:
        match_submit_action(match_id=match.pk, user=people[first], action=choice(match, first), ply=match.ply)
    match.refresh_from_db()
    opened = Seat.objects.get(match=match, index=other).decision_ply
    assert opened is not None and opened == match.ply > 0
    with pytest.raises(MatchError) as refused:
        match_submit_action(
            match_id=match.pk, user=people[other], action=choice(match, other), ply=opened - 1
        )
    assert refused.value.code == "stale_ply"
    match_submit_action(match_id=match.pk, user=people[other], action=choice(match, other), ply=opened)


class Options:
    """A stand-in game whose seats 0 and 1 decide at once, and whose seat 1's options
    depend on what seat 0 did: the case where another's move does change a decision."""

    def __init__(self, waiting: list[int], options: dict[int, list[dict[str, Any]]]):
        self.waiting, self.options = waiting, options

    def to_act(self, state: Any) -> list[int]:
        return self.waiting

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return self.options[seat]


def test_a_decision_reopens_when_another_seats_move_changes_its_options() -> None:
    seats = [Seat(index=0), Seat(index=1)]
    both = Options([0, 1], {0: [{"type": "a"}], 1: [{"type": "x"}, {"type": "y"}]})
    update_decisions(both, None, seats, ply=4, mover=None)  # type: ignore[arg-type]
    assert [seat.decision_ply for seat in seats] == [4, 4]
    # Seat 0 moved; seat 1's options are the same (in another order): its decision stands.
    same = Options([1], {1: [{"type": "y"}, {"type": "x"}]})
    assert update_decisions(same, None, seats, ply=5, mover=0) == [seats[0]]  # type: ignore[arg-type]
    assert [seat.decision_ply for seat in seats] == [None, 4]
    # Another move took one of seat 1's options away: a new decision, a new picture.
    fewer = Options([1], {1: [{"type": "x"}]})
    update_decisions(fewer, None, seats, ply=6, mover=0)  # type: ignore[arg-type]
    assert seats[1].decision_ply == 6
