"""Real games to sample from, and the facts a sampled state must keep (shared by the
view and dealing tests)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.its_a_bomb.board import line_positions, token_for
from games.engine.its_a_bomb.scenarios import EXPLOSIVE
from games.engine.its_a_bomb.state import NOT_EXPLOSIVE, REVEALED, State
from tests.engine.its_a_bomb.builder import GAME
from tests.engine.playouts import random_game


def facts_hold(sampled: State, truth: State) -> None:
    """Recompute from a sampled state every fact an employee has seen."""
    for record in sampled.information:
        grid = sampled.grids[record.grid]
        found = [
            token
            for position in record.face_down
            if (token := token_for(grid.tiles[position], record.informant))
        ]
        if record.disturbed:
            assert len(found) == record.count
        elif record.analyst:
            for position, shown in zip(
                line_positions(grid, record.line, record.index), record.tokens, strict=True
            ):
                if shown == REVEALED:
                    assert position not in record.face_down
                else:
                    assert (token_for(grid.tiles[position], record.informant) or "blank") == shown
        else:
            assert Counter(found) == Counter(record.tokens)
    for fact in sampled.facts:
        kind = sampled.grids[fact.grid].tiles[fact.position]
        assert kind != EXPLOSIVE if fact.fact == NOT_EXPLOSIVE else kind == fact.fact
    for mine, true in zip(sampled.grids, truth.grids, strict=True):
        assert sorted(mine.tiles) == sorted(true.tiles)
        assert mine.revealed == true.revealed
        assert all(mine.tiles[at] == true.tiles[at] for at, shown in enumerate(true.revealed) if shown)
    assert sorted(sampled.countdown) == sorted(truth.countdown)
    if truth.top_known:
        assert sampled.countdown[0] == truth.countdown[0]


def curious(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """Employees who mostly ask, and a Crisis Unit keen on its Consultants."""
    assert GAME.to_act(state) == [seat]
    legal = GAME.legal_actions(state, seat)
    asks = [action for action in legal if action["type"] == "ask"]
    uses = [action for action in legal if action["type"].startswith("use")]
    cuts = [action for action in legal if action["type"] == "cut"]
    if asks and rng.random() < 0.8:
        return rng.choice(asks)
    if uses:
        return rng.choice(uses)
    return rng.choice(cuts or [{"type": "pass"}])


def curious_play(seed: int, scenario: str) -> list[State]:
    """Every state of a three-seat game of ``scenario`` played by ``curious``."""
    return list(random_game(GAME, 3, seed, {"scenario": scenario}, first_seat=True, choose=curious).states)
