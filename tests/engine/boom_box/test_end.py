"""The end: at once when no unopened box is left; ranks by gems, then boxes opened; the pass bound."""

from __future__ import annotations

import pytest

from tests.engine.boom_box.builder import GAME, last_entry, play, refusal, table
from tests.engine.playouts import random_game


def test_the_game_ends_at_once_mid_turn_when_the_last_box_is_opened() -> None:
    state = table(fronts={0: ["1-gem1"]}, opened={1: ["0-gem1"]})
    state = play(state, 0, "open", box="1-gem1")
    assert state.phase == "over"
    assert GAME.to_act(state) == []
    assert GAME.result(state) == {"scores": [1, 1], "ranks": [1, 1]}
    assert last_entry(state)["event"] == "game_over"
    assert refusal(state, 0, {"type": "done"}) == "game_over"
    assert GAME.legal_actions(state, 0) == []


def test_the_game_ends_when_the_last_box_is_removed() -> None:
    state = table(fronts={0: ["1-boom1", "1-gem1"]})
    state = play(state, 0, "open", box="1-boom1")
    assert GAME.result(state) is None
    state = play(state, 1, "remove", box="1-gem1")
    assert state.phase == "over"
    # Both at zero gems: seat 0 opened a box (the Boom), seat 1 none.
    assert GAME.result(state) == {"scores": [0, 0], "ranks": [1, 2]}


def test_the_result_is_none_while_the_game_runs() -> None:
    assert GAME.result(table(lines={0: ["0-gem1"]})) is None
    assert GAME.result(GAME.new(2, seed=1)) is None


def test_ties_in_gems_go_to_the_player_with_more_boxes_opened() -> None:
    state = table(
        3,
        fronts={0: ["2-gem3"]},
        opened={0: ["1-gem1"], 1: ["0-boom1", "2-gem1"], 2: ["0-two"]},
    )
    state = play(state, 0, "open", box="2-gem3")
    # Gems: 2, 1, 2. Seats 0 and 2 tie on gems; seat 0 opened two boxes, seat 2 one.
    assert GAME.result(state) == {"scores": [2, 1, 2], "ranks": [1, 3, 2]}


def test_booms_count_as_opened_boxes_in_the_tie_break() -> None:
    state = table(fronts={0: ["1-gem2"]}, opened={0: ["1-boom1"], 1: ["0-gem1"]})
    state = play(state, 0, "open", box="1-gem2")
    assert GAME.result(state) == {"scores": [1, 1], "ranks": [1, 2]}


def test_a_full_tie_shares_the_rank() -> None:
    state = table(3, fronts={0: ["1-gem1"]}, opened={1: ["0-gem1"], 2: ["0-boom1"]})
    state = play(state, 0, "open", box="1-gem1")
    assert GAME.result(state) == {"scores": [1, 1, 0], "ranks": [1, 1, 3]}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_box_is_passed_at_most_once_per_player_before_its_owner_must_open_it(players: int) -> None:
    longest = 0
    for seed in range(25):
        for state in random_game(GAME, players, seed).states:
            for seat in range(players):
                # Only one own box can wait for its owner at a time.
                assert sum(box.owner == seat for box in state.boxes if box.id in state.fronts[seat]) <= 1
            for box in state.boxes:
                times = sum(1 for made in state.passes if made.box == box.id)
                assert times <= players
                longest = max(longest, times)
                if times == players:
                    # Round the table: back with its owner, who opens it (or lost it meanwhile).
                    assert (
                        box.id in state.fronts[box.owner]
                        or box.id in state.stacks[box.owner]
                        or any(removal.box == box.id for removal in state.removed)
                    )
        assert state.phase == "over"
    assert longest == players  # the bound is reached, not just respected


def test_random_games_end_with_every_box_opened_or_removed() -> None:
    for players in (2, 4, 6):
        final = random_game(GAME, players, players).final
        opened = sum(len(stack) for stack in final.stacks)
        assert opened + len(final.removed) == 4 * players
        assert GAME.result(final) is not None
