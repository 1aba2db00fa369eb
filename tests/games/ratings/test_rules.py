"""The rating rules (games/ratings/rules.py): which matches count, the update, the number shown."""

from __future__ import annotations

import itertools
import random

import pytest
from openskill.models import PlackettLuce

from games.ratings import rules
from games.ratings.rules import SeatResult, Skill


def table(*ranks: int, users: list[int] | None = None) -> list[SeatResult]:
    users = users or list(range(1, len(ranks) + 1))
    return [
        SeatResult(index=index, user_id=user, rank=rank, resigned=False, moved=True)
        for index, (user, rank) in enumerate(zip(users, ranks, strict=True))
    ]


def fresh(seats: list[SeatResult]) -> dict[int, Skill]:
    return {seat.user_id: rules.START for seat in seats if seat.user_id is not None}


@pytest.mark.parametrize(
    "ranks", [(1, 1, 3, 4), (1, 1, 3, 4, 5), (2, 2, 1, 2), (1, 2, 2, 4), (1, 1, 1, 4, 5, 5), (1, 1)]
)
def test_shared_places_are_ties_and_a_worse_place_never_gains_more(ranks: tuple[int, ...]) -> None:
    seats = table(*ranks)
    after = rules.rate(seats, fresh(seats))
    for one, other in itertools.permutations(seats, 2):
        gained, other_gained = after[one.user_id].mu, after[other.user_id].mu  # type: ignore[index]
        if one.rank == other.rank:
            assert gained == pytest.approx(other_gained, abs=1e-12), ranks
        elif one.rank < other.rank:  # type: ignore[operator]
            assert gained > other_gained, ranks


def test_the_plackett_luce_of_openskill_6_2_gets_shared_places_wrong() -> None:
    # Why the model is BradleyTerryFull (rules.py): a third place gains as much as the two
    # who shared first, in a Go Fox! result. Should this start failing, openskill fixed it.
    model = PlackettLuce()
    updated = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 1, 3, 4])
    assert updated[2][0].mu >= updated[0][0].mu


def test_two_seats_move_as_plackett_luce_would() -> None:
    model = PlackettLuce()
    rng = random.Random(5)
    for _ in range(200):
        skills = {
            1: Skill(rng.uniform(10, 40), rng.uniform(0.5, 8.4)),
            2: Skill(rng.uniform(10, 40), rng.uniform(0.5, 8.4)),
        }
        ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
        ours = rules.rate(table(*ranks), skills)
        theirs = model.rate(
            [[model.rating(skills[u].mu, skills[u].sigma)] for u in (1, 2)], ranks=list(ranks)
        )
        for user, rating in zip((1, 2), theirs, strict=True):
            assert ours[user].mu == pytest.approx(rating[0].mu, abs=1e-12)
            assert ours[user].sigma == pytest.approx(rating[0].sigma, abs=1e-12)


def test_seat_order_changes_nobodys_rating() -> None:
    rng = random.Random(8)
    skills = {user: Skill(rng.uniform(15, 35), rng.uniform(1, 8)) for user in range(1, 6)}
    ranks = [2, 1, 2, 4, 5]
    base = rules.rate(table(*ranks), skills)
    order = [3, 0, 4, 1, 2]
    moved = rules.rate(table(*[ranks[i] for i in order], users=[i + 1 for i in order]), skills)
    for user in skills:
        assert moved[user].mu == pytest.approx(base[user].mu, abs=1e-12)


def test_a_bot_seated_twice_moves_once_by_its_first_seat_and_is_every_seats_opponent() -> None:
    # Ann (1) is second behind the bot's first seat (7) and ahead of its second.
    seats = table(1, 2, 3, users=[7, 1, 7])
    assert [seat.index for seat in rules.rated_seats(seats)] == [0, 1]
    after = rules.rate(seats, fresh(seats))
    assert set(after) == {1, 7}
    # The bot moves as its first seat (a win) would: up, as much as a plain winner of three.
    plain = rules.rate(table(1, 2, 3), fresh(table(1, 2, 3)))
    assert after[7] == plain[1]
    # Ann, beaten by one bot seat and ahead of the other, moves as against two players.
    assert after[1] == plain[2]


def test_which_matches_are_rated() -> None:
    two = table(1, 2)
    assert rules.why_unrated(game_is_rated=True, seats=two) is None
    assert rules.why_unrated(game_is_rated=False, seats=two) == rules.Unrated.NOT_RATED_GAME
    assert (
        rules.why_unrated(game_is_rated=True, seats=two, match_is_rated=False)
        == rules.Unrated.NOT_RATED_MATCH
    )
    assert rules.why_unrated(game_is_rated=True, seats=table(1)) == rules.Unrated.SOLITAIRE
    assert rules.why_unrated(game_is_rated=True, seats=table(1, 2, users=[4, 4])) == rules.Unrated.ONE_PLAYER
    no_rank = [SeatResult(0, 1, None, False, True), SeatResult(1, 2, 1, False, True)]
    assert rules.why_unrated(game_is_rated=True, seats=no_rank) == rules.Unrated.INCOMPLETE
    out_at_once = [SeatResult(0, 1, 1, False, True), SeatResult(1, 2, 2, resigned=True, moved=False)]
    assert rules.why_unrated(game_is_rated=True, seats=out_at_once) == rules.Unrated.EARLY_RESIGNATION
    out_later = [SeatResult(0, 1, 1, False, True), SeatResult(1, 2, 2, resigned=True, moved=True)]
    assert rules.why_unrated(game_is_rated=True, seats=out_later) is None


def test_the_number_shown_is_the_conservative_estimate_times_40_from_0() -> None:
    assert rules.display(rules.START_MU, rules.START_SIGMA) == 0
    assert rules.display(25.0, 1.5) == round((25.0 - 4.5) * 40) == 820
    assert rules.display(10.0, 4.0) == -80
    assert rules.is_provisional(9) and not rules.is_provisional(10)
