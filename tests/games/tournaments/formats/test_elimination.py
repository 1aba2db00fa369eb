"""Single elimination: one test per written rule. Entrant ids are the seed numbers."""

from __future__ import annotations

from games.tournaments.formats import PlayedRound, Round, Settings, State, bracket, next_round, standings
from games.tournaments.formats.elimination import first_round_layout
from tests.games.tournaments.formats.helpers import played, wins


def elimination(
    entrants: int,
    table_size: int = 2,
    advance: int = 1,
    rounds: tuple[PlayedRound, ...] = (),
    out: frozenset[int] = frozenset(),
) -> State:
    return State(
        settings=Settings(format="single_elimination", table_size=table_size, advance=advance),
        seeds=tuple(range(1, entrants + 1)),
        played=rounds,
        out=out,
    )


def tables_of(round_: Round | None) -> list[tuple[int, ...]]:
    assert round_ is not None
    return [tuple(sorted(table.entrants)) for table in round_.tables]


def better_seeds_win(state: State) -> State:
    """Play the tournament to its end with the better seed always placing higher."""
    while (round_ := next_round(state)) is not None:
        places = tuple(
            {entrant: place for place, entrant in enumerate(sorted(table.entrants), start=1)}
            for table in round_.tables
        )
        state = State(state.settings, state.seeds, (*state.played, PlayedRound(round_, places)), state.out)
    return state


def test_pairs_are_laid_out_as_the_usual_bracket() -> None:
    assert first_round_layout(16, 2, 1) == [
        [1, 16],
        [8, 9],
        [4, 13],
        [5, 12],
        [2, 15],
        [7, 10],
        [3, 14],
        [6, 11],
    ]
    assert tables_of(next_round(elimination(16))) == [
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    ]


def test_tables_of_four_deal_the_seeds_in_snake_order() -> None:
    assert tables_of(next_round(elimination(16, table_size=4))) == [
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    ]


def test_two_of_four_going_on_split_the_best_across_the_halves() -> None:
    assert first_round_layout(8, 4, 2) == [[1, 4, 6, 7], [2, 3, 5, 8]]
    assert first_round_layout(16, 4, 2) == [[1, 7, 12, 13], [4, 6, 9, 16], [2, 8, 11, 14], [3, 5, 10, 15]]


def test_the_best_seeds_meet_only_in_the_final() -> None:
    state = better_seeds_win(elimination(16))
    rounds = [[set(table.entrants) for table in round_.round.tables] for round_ in state.played]
    assert [len(round_) for round_ in rounds] == [8, 4, 2, 1]
    assert not any({1, 2} <= table for round_ in rounds[:-1] for table in round_)
    assert rounds[-1] == [{1, 2}]
    assert rounds[1] == [{1, 8}, {4, 5}, {2, 7}, {3, 6}]
    assert rounds[2] == [{1, 4}, {2, 3}]


def test_the_best_seeds_reach_the_final_table() -> None:
    for table_size, advance, entrants in ((4, 1, 16), (4, 2, 16), (3, 1, 27), (6, 3, 24)):
        final = better_seeds_win(elimination(entrants, table_size, advance)).played[-1]
        assert [set(table.entrants) for table in final.round.tables] == [set(range(1, table_size + 1))]


def test_byes_go_to_the_top_seeds() -> None:
    # 13 in a bracket of 16: the empty places 14, 15 and 16 face seeds 3, 2 and 1.
    round_ = next_round(elimination(13))
    assert round_ is not None
    assert round_.byes == (1, 2, 3)
    assert tables_of(round_) == [(8, 9), (4, 13), (5, 12), (7, 10), (6, 11)]


def test_byes_at_tables_go_to_the_top_seeds_and_the_rest_play() -> None:
    # 5 in tables of 4 (a bracket of 16): seeds 1, 2, 3 are alone at their tables.
    round_ = next_round(elimination(5, table_size=4))
    assert round_ is not None and round_.byes == (1, 2, 3)
    assert tables_of(round_) == [(4, 5)]


def test_a_table_short_of_entrants_plays_short_handed() -> None:
    # 13 in tables of 4: the empty places 14, 15, 16 fall at the tables of 3, 2 and 1.
    round_ = next_round(elimination(13, table_size=4))
    assert round_ is not None and round_.byes == ()
    assert tables_of(round_) == [(1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12, 13)]


def test_a_shared_place_at_the_cut_sends_the_better_seed_on() -> None:
    # Tables 1, 4, 6, 7 and 2, 3, 5, 8, two going on: 7 wins the first, 4 and 6 share second.
    first = played([(1, 4, 6, 7), (2, 3, 5, 8)], [(4, 2, 2, 1), (1, 2, 3, 4)])
    assert tables_of(next_round(elimination(8, 4, 2, (first,)))) == [(2, 3, 4, 7)]


def test_a_shared_first_place_at_the_final_goes_to_the_better_seed() -> None:
    rounds = (wins([(1, 4), (3, 2)]), played([(3, 1)], [(1, 1)]))
    table = standings(elimination(4, rounds=rounds))
    assert next_round(elimination(4, rounds=rounds)) is None
    assert [row.entrant for row in table[:2]] == [1, 3]


def test_an_entrant_who_is_out_is_ranked_last_at_their_table() -> None:
    # 1 beat 4, then withdrew: 4 goes on in their place.
    rounds = (wins([(1, 4), (2, 3)]),)
    assert tables_of(next_round(elimination(4, rounds=rounds, out=frozenset({1})))) == [(2, 4)]


def test_a_table_whose_feeders_sent_one_entrant_is_a_bye() -> None:
    # 8 pairs; after round 1, both of one table (4, 5) are out: 1 waits alone.
    first = wins([(1, 8), (4, 5), (2, 7), (3, 6)])
    round_ = next_round(elimination(8, rounds=(first,), out=frozenset({4, 5})))
    assert round_ is not None
    assert round_.byes == (1,)
    assert tables_of(round_) == [(2, 3)]


def test_a_round_may_have_only_byes() -> None:
    first = wins([(1, 8), (4, 5), (2, 7), (3, 6)])
    state = elimination(8, rounds=(first,), out=frozenset({4, 5, 3, 6}))
    round_ = next_round(state)
    assert round_ == Round(tables=(), byes=(1, 2))
    after = State(state.settings, state.seeds, (first, PlayedRound(round_, ())), state.out)
    assert tables_of(next_round(after)) == [(1, 2)]


def test_the_tournament_ends_when_one_entrant_is_left() -> None:
    first = wins([(1, 4), (2, 3)])
    assert tables_of(next_round(elimination(4, rounds=(first,), out=frozenset({2})))) == [(1, 3)]
    assert next_round(elimination(4, rounds=(first,), out=frozenset({2, 3}))) is None


def test_standings_by_round_reached_then_place_then_seed() -> None:
    rounds = (wins([(1, 4), (3, 2)]), wins([(3, 1)]))
    state = elimination(4, rounds=rounds)
    assert next_round(state) is None
    table = standings(state)
    assert [(row.entrant, row.place, row.points) for row in table] == [
        (3, 1, 2.0),
        (1, 2, 1.0),
        (2, 3, 0.0),
        (4, 4, 0.0),
    ]
    assert table[0].tiebreaks == (("Place at last table", 1.0), ("Seed", 3.0))
    assert table[2].tiebreaks == (("Place at last table", 2.0), ("Seed", 2.0))


def test_standings_mark_byes_and_the_out() -> None:
    rounds = (wins([(4, 5)], byes=[1, 2, 3]),)
    state = elimination(5, table_size=4, rounds=rounds, out=frozenset({2}))
    by_entrant = {row.entrant: row for row in standings(state)}
    assert by_entrant[1].byes == 1 and not by_entrant[1].out
    assert by_entrant[2].out
    assert by_entrant[5].points == 0.0 and by_entrant[4].points == 1.0


def test_the_bracket_shows_every_round_with_byes_and_unknown_seats() -> None:
    # 5 pairs, a bracket of 8: 1, 2, 3 have byes; 4 and 5 play.
    state = elimination(5)
    columns = bracket(state)
    assert [len(column) for column in columns] == [4, 2, 1]
    first = columns[0]
    assert [table.entrants for table in first] == [(1,), (4, 5), (2,), (3,)]
    assert [table.byes for table in first] == [(1,), (), (2,), (3,)]
    assert [table.advancing for table in first] == [(1,), (), (2,), (3,)]
    assert [table.playing for table in first] == [False, True, False, False]
    assert [table.feeds for table in first] == [0, 0, 1, 1]
    assert [table.entrants for table in columns[1]] == [(1, None), (2, 3)]
    assert columns[2][0].entrants == (None, None) and columns[2][0].feeds is None

    state = State(state.settings, state.seeds, (wins([(4, 5)], byes=[1, 2, 3]),))
    columns = bracket(state)
    assert columns[0][1].places == {4: 1, 5: 2} and columns[0][1].advancing == (4,)
    assert [(table.entrants, table.playing) for table in columns[1]] == [((1, 4), True), ((2, 3), True)]

    state = State(state.settings, state.seeds, (*state.played, wins([(4, 1), (2, 3)]), wins([(4, 2)])))
    assert next_round(state) is None
    final = bracket(state)[2][0]
    assert final.entrants == (4, 2) and final.advancing == (4,) and not final.playing
