"""Swiss: one test per written rule, each on a small field worked out by hand.

Entrant ids are the seed numbers (1 = best seed) so the expectations read as seeds."""

from __future__ import annotations

from games.tournaments.formats import PlayedRound, Round, Settings, State, next_round, standings
from tests.games.tournaments.formats.helpers import played, wins


def swiss(
    entrants: int,
    rounds: int,
    played_rounds: tuple[PlayedRound, ...] = (),
    out: frozenset[int] = frozenset(),
    table_size: int = 2,
) -> State:
    return State(
        settings=Settings(format="swiss", table_size=table_size, rounds=rounds),
        seeds=tuple(range(1, entrants + 1)),
        played=tuple(played_rounds),
        out=out,
    )


def tables_of(round_: Round | None) -> list[tuple[int, ...]]:
    """Each table's entrants, sorted (seats aside), in table order."""
    assert round_ is not None
    return [tuple(sorted(table.entrants)) for table in round_.tables]


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    assert tables_of(next_round(swiss(8, 3))) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_an_odd_score_group_sends_its_lowest_down_to_the_next_groups_top() -> None:
    # After round 1 (1, 2, 3 won; 8 drew with 4): 1, 2, 3 on 1 point; 4 and 8 on ½;
    # 5, 6, 7 on 0. The 1-point group is odd: 3 moves down to meet 4, the top of the
    # ½ group; 8 is then alone and meets 5, the top of the 0 group; 6 meets 7.
    first = wins([(1, 5), (2, 6), (3, 7), (8, 4)], draws=[3])
    assert tables_of(next_round(swiss(8, 3, (first,)))) == [(1, 2), (3, 4), (5, 8), (6, 7)]


def test_the_bye_goes_to_the_lowest_ranked() -> None:
    # Five entrants: round 1's bye is seed 5's. After 1 beat 3 and 4 beat 2, the ranking
    # is 1, 4, 5 (1 point each, by seed), then 2, 3 (0): the lowest, 3, sits out; 5
    # moves down from the odd 1-point group to meet 2.
    first_round = next_round(swiss(5, 3))
    assert first_round is not None and first_round.byes == (5,)
    assert tables_of(first_round) == [(1, 3), (2, 4)]
    second = next_round(swiss(5, 3, (wins([(1, 3), (4, 2)], byes=[5]),)))
    assert second is not None
    assert second.byes == (3,)
    assert tables_of(second) == [(1, 4), (2, 5)]


def test_nobody_gets_a_second_bye() -> None:
    # After two rounds 1 has 2 points and 2, 3, 4, 5 have 1 each: 5 is the lowest but
    # had round 1's bye, 4 had round 2's: the bye goes to 3. Then 1 meets the top of the
    # 1-point group, 2 — a rematch of round 2 — so the pairing becomes 1 v 4, 2 v 5.
    rounds = (
        wins([(1, 3), (2, 4)], byes=[5]),
        wins([(1, 2), (3, 5)], byes=[4]),
    )
    third = next_round(swiss(5, 4, rounds))
    assert third is not None
    assert third.byes == (3,)
    assert tables_of(third) == [(1, 4), (2, 5)]


def test_every_bye_taken_the_lowest_with_the_fewest_gets_it() -> None:
    # 4 and 5 withdrew; 1, 2 and 3 have each had a bye (3 points, 3, 2): one has a
    # second, the lowest, 3; 1 and 2 have not met.
    rounds = (
        wins([(1, 4), (2, 5)], byes=[3]),
        wins([(1, 5), (3, 4)], byes=[2]),
        wins([(2, 3), (4, 5)], byes=[1]),
    )
    fourth = next_round(swiss(5, 4, rounds, out=frozenset({4, 5})))
    assert fourth is not None
    assert fourth.byes == (3,)
    assert tables_of(fourth) == [(1, 2)]


def test_the_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    # 2 withdrew. 1 (1 point), 3, 4 (0) are left: the bye would be 4's, but then 1 meets
    # 3 again; giving it to 3 instead pairs 1 with 4, whom 1 has not met.
    rounds = (wins([(1, 3), (2, 4)]),)
    round_ = next_round(swiss(4, 3, rounds, out=frozenset({2})))
    assert round_ is not None
    assert round_.byes == (3,)
    assert tables_of(round_) == [(1, 4)]


def test_no_rematch_while_another_pairing_exists() -> None:
    # Round 1: 1 beat 3, 2 beat 4. The Dutch order pairs 1 v 2 and 3 v 4 — new, so kept.
    # Round 2: 1 beat 2, 3 beat 4. Now 1 (2 points), then 2 and 3 (1), then 4 (0): the
    # order gives 1 v 2 (a rematch) and 3 v 4 (a rematch); 1 v 4 and 2 v 3 are new.
    rounds: tuple[PlayedRound, ...] = (wins([(1, 3), (2, 4)]),)
    assert tables_of(next_round(swiss(4, 3, rounds))) == [(1, 2), (3, 4)]
    rounds = (*rounds, wins([(1, 2), (3, 4)]))
    assert tables_of(next_round(swiss(4, 3, rounds))) == [(1, 4), (2, 3)]


def test_a_rematch_only_when_every_pairing_has_one() -> None:
    # Six entrants, 5 and 6 withdrew after round 1; 1..4 have all met by round 3, so
    # round 4 must repeat: the pairing with the closest scores, 1 (3 points) v 3 (2)
    # and 2 (1) v 4 (0), rather than 1 v 2 and 3 v 4 or 1 v 4 and 2 v 3.
    rounds = (
        wins([(1, 2), (3, 4), (5, 6)]),
        wins([(1, 3), (2, 4)]),
        wins([(1, 4), (3, 2)]),
    )
    fourth = next_round(swiss(6, 5, rounds, out=frozenset({5, 6})))
    assert tables_of(fourth) == [(1, 3), (2, 4)]


def test_seats_alternate_who_starts() -> None:
    # Round 1: the better seed sits first. In round 2, 2 (who sat first once) meets 3
    # (never), so 3 starts; 1 (once) meets 4 (never), so 4 starts.
    first = next_round(swiss(4, 3))
    assert first is not None and [table.entrants for table in first.tables] == [(1, 3), (2, 4)]
    second = next_round(swiss(4, 3, (played([(1, 3), (2, 4)], [(2, 1), (1, 2)]),)))
    assert second is not None
    assert [table.entrants for table in second.tables] == [(3, 2), (4, 1)]


def test_sonneborn_berger_on_a_worked_example() -> None:
    # 1 beat 3, 2 and 4 drew; 2 beat 1, 3 beat 4; 1 beat 4, 2 and 3 drew.
    # Points: 1: 2, 2: 2, 3: 1½, 4: ½.
    # Sonneborn-Berger: 1 = 1½ (3) + ½ (4) = 2;  2 = ½·½ (4) + 2 (1) + ½·1½ (3) = 3;
    #                   3 = ½ (4) + ½·2 (2) = 1½;  4 = ½·2 (2) = 1.
    rounds = (
        wins([(1, 3), (2, 4)], draws=[1]),
        wins([(2, 1), (3, 4)]),
        wins([(1, 4), (2, 3)], draws=[1]),
    )
    table = standings(swiss(4, 3, rounds))
    assert [(row.entrant, row.place, row.points) for row in table] == [
        (2, 1, 2.0),
        (1, 2, 2.0),
        (3, 3, 1.5),
        (4, 4, 0.5),
    ]
    assert [row.tiebreaks for row in table] == [
        (("Sonneborn-Berger", 3.0), ("Head-to-head", 0.0), ("Seed", 2.0)),
        (("Sonneborn-Berger", 2.0), ("Head-to-head", 0.0), ("Seed", 1.0)),
        (("Sonneborn-Berger", 1.5), ("Head-to-head", 0.0), ("Seed", 3.0)),
        (("Sonneborn-Berger", 1.0), ("Head-to-head", 0.0), ("Seed", 4.0)),
    ]


def test_head_to_head_breaks_a_tie_on_points_and_sonneborn_berger() -> None:
    # 1 beat 2, 3 beat 4; 1 drew 3, 2 drew 4; 4 beat 1, 2 drew 3.
    # Points: 3: 2; 1 and 4: 1½; 2: 1. Sonneborn-Berger: 1 = 1 (2) + ½·2 (3) = 2,
    # 4 = ½·1 (2) + 1½ (1) = 2: level, and 4 beat 1, so 4 is above the better seed.
    rounds = (
        wins([(1, 2), (3, 4)]),
        wins([(1, 3), (2, 4)], draws=[0, 1]),
        wins([(4, 1), (2, 3)], draws=[1]),
    )
    table = standings(swiss(4, 3, rounds))
    assert [row.entrant for row in table] == [3, 4, 1, 2]
    assert dict(table[1].tiebreaks) == {"Sonneborn-Berger": 2.0, "Head-to-head": 1.0, "Seed": 4.0}
    assert dict(table[2].tiebreaks) == {"Sonneborn-Berger": 2.0, "Head-to-head": 0.0, "Seed": 1.0}


def test_the_seed_breaks_a_tie_that_everything_else_leaves() -> None:
    # 2 beat 1, 3 beat 4; then 1 beat 3 and 4 beat 2: everyone 1 point, Sonneborn-Berger
    # 1, head-to-head 1 among the four: by seed.
    rounds = (wins([(2, 1), (3, 4)]), wins([(1, 3), (4, 2)]))
    table = standings(swiss(4, 3, rounds))
    assert [(row.entrant, row.place) for row in table] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert {row.tiebreaks[:2] for row in table} == {(("Sonneborn-Berger", 1.0), ("Head-to-head", 1.0))}


def test_a_bye_scores_a_win_and_adds_nothing_to_sonneborn_berger() -> None:
    rounds = (wins([(1, 3), (2, 4)], byes=[5]),)
    by_entrant = {row.entrant: row for row in standings(swiss(5, 3, rounds))}
    assert by_entrant[5].points == 1.0 and by_entrant[5].byes == 1
    assert dict(by_entrant[5].tiebreaks)["Sonneborn-Berger"] == 0.0
    assert dict(by_entrant[1].tiebreaks)["Sonneborn-Berger"] == 0.0  # beat 3, who has 0


def test_an_entrant_who_is_out_is_not_paired_and_shown_out() -> None:
    rounds = (wins([(1, 3), (2, 4)]),)
    state = swiss(4, 3, rounds, out=frozenset({2}))
    round_ = next_round(state)
    assert round_ is not None
    assert 2 not in {entrant for table in round_.tables for entrant in table.entrants} | set(round_.byes)
    assert {row.entrant: row.out for row in standings(state)} == {1: False, 2: True, 3: False, 4: False}


def test_the_tournament_ends_after_its_rounds() -> None:
    rounds = (wins([(1, 3), (2, 4)]), wins([(1, 2), (3, 4)]))
    assert next_round(swiss(4, 2, rounds)) is None
    assert next_round(swiss(4, 3, rounds)) is not None


def test_the_tournament_ends_when_one_entrant_is_left() -> None:
    rounds = (wins([(1, 3), (2, 4)]),)
    assert next_round(swiss(4, 3, rounds, out=frozenset({2, 3, 4}))) is None


# -- tables of N ---------------------------------------------------------------------------


def test_tables_in_round_one_deal_the_seeds_in_snake_order() -> None:
    assert tables_of(next_round(swiss(8, 3, table_size=4))) == [(1, 4, 5, 8), (2, 3, 6, 7)]
    assert tables_of(next_round(swiss(12, 3, table_size=4))) == [(1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10)]


def test_tables_are_as_equal_as_possible_and_never_leave_a_bye() -> None:
    round_ = next_round(swiss(10, 3, table_size=4))
    assert round_ is not None and round_.byes == ()
    assert [len(table.entrants) for table in round_.tables] == [4, 3, 3]


def test_tables_seat_the_leaders_at_table_one() -> None:
    # Round 1 (tables 1, 4, 5, 8 and 2, 3, 6, 7) ended in reverse seed order at both:
    # 8 and 7 lead with 3 points, then 5 and 6 (2), 3 and 4 (1), 1 and 2 (0). Every way
    # to seat them has two repeats a table, so the score order stands.
    first = played([(1, 4, 5, 8), (2, 3, 6, 7)], [(4, 3, 2, 1), (4, 3, 2, 1)])
    assert tables_of(next_round(swiss(8, 3, (first,), table_size=4))) == [(5, 6, 7, 8), (1, 2, 3, 4)]


def test_tables_swap_to_avoid_a_repeat_when_a_swap_can() -> None:
    # Round 1 at tables of 4 (snake): A = 1, 8, 9, 16; B = 2, 7, 10, 15; C = 3, 6, 11, 14;
    # D = 4, 5, 12, 13, seeds placing in order, except 1 and 8 shared first at A and 2 and
    # 7 at B (2½ points each). By score: 3, 4 (3 points); 1, 2, 7, 8 (2½); 5, 6 (2); 9..12
    # (1); 13..16 (0). The 2½ group is dealt in snake order to table 1 (1, 8) and table 2
    # (2, 7): both repeat a round-1 table. Swapping 1 and 2 (same points) removes both.
    first = played(
        [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)],
        [(1, 1, 3, 4), (1, 1, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)],
    )
    second = tables_of(next_round(swiss(16, 3, (first,), table_size=4)))
    assert second == [(2, 3, 4, 8), (1, 5, 6, 7), (9, 10, 11, 12), (13, 14, 15, 16)]


def test_tables_tie_break_on_table_mates_points() -> None:
    # Tables of 3 score 2, 1, 0. Round 1: 4 > 1 > 5 and 2 > 3 > 6; round 2: 6 > 4 > 2
    # and 1 > 3 > 5. Points: 1 and 4: 3; 2, 3, 6: 2; 5: 0. Table-mates' points:
    # 4 = (3 + 0) + (2 + 2) = 7, 1 = (3 + 0) + (2 + 0) = 5: 4 is above the better seed;
    # 2 = (2 + 2) + (3 + 2) = 9 = 6, then the seed; 3 = (2 + 2) + (3 + 0) = 7.
    rounds = (
        played([(1, 4, 5), (2, 3, 6)], [(2, 1, 3), (1, 2, 3)]),
        played([(2, 4, 6), (1, 3, 5)], [(3, 2, 1), (1, 2, 3)]),
    )
    table = standings(swiss(6, 3, rounds, table_size=3))
    assert [(row.entrant, row.points) for row in table] == [
        (4, 3.0),
        (1, 3.0),
        (2, 2.0),
        (6, 2.0),
        (3, 2.0),
        (5, 0.0),
    ]
    assert [dict(row.tiebreaks)["Table-mates' points"] for row in table] == [7.0, 5.0, 9.0, 9.0, 7.0, 11.0]
    assert [row.place for row in table] == [1, 2, 3, 4, 5, 6]
