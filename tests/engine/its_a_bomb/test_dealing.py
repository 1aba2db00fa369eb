"""Dealing face-down tiles under the facts: the local search and its exhaustive safety net."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games.engine.its_a_bomb.board import token_for
from games.engine.its_a_bomb.dealing import CountConstraint, deal
from games.engine.its_a_bomb.sample import deal_grid
from games.engine.its_a_bomb.scenarios import SCENARIO_BY_SLUG, TILE_KINDS
from tests.engine.its_a_bomb.builder import GAME
from tests.engine.its_a_bomb.sampling import curious_play, facts_hold


def tokens_of(kinds: list[str]) -> Counter[str]:
    return Counter(token for kind in kinds if (token := token_for(kind, False)))


def plain_information(positions: tuple[int, ...], tokens: list[str]) -> CountConstraint:
    classes = {kind: token_for(kind, False) or "none" for kind in TILE_KINDS}
    need = Counter(tokens)
    need["none"] = len(positions) - len(tokens)
    return CountConstraint(positions, classes, dict(need))


@pytest.mark.parametrize("tries", [100, 0])
def test_a_deal_with_one_answer_is_found(tries: int) -> None:
    # 2x2: row 1 shows red and explosive, column 1 shows red only.
    counts = [plain_information((0, 1), ["red", "explosive"]), plain_information((0, 2), ["red"])]
    for seed in range(10):
        dealt = deal(("red", "explosive", "grey", "grey"), [None] * 4, {}, counts, random.Random(seed), tries)
        assert dealt == ("red", "explosive", "grey", "grey")


@pytest.mark.parametrize("tries", [100, 0])
def test_known_tiles_and_domains_are_respected(tries: int) -> None:
    tiles = ("red", "red", "explosive", "grey", "auxiliary", "grey")
    known: list[str | None] = ["red", None, None, None, None, None]
    allowed = {5: {"auxiliary"}, 1: set(TILE_KINDS) - {"explosive"}}
    counts = [plain_information((1, 2), ["red"])]  # the tiles still face down in a line with two reds
    for seed in range(10):
        dealt = deal(tiles, known, allowed, counts, random.Random(seed), tries)
        assert dealt[0] == "red" and dealt[5] == "auxiliary" and dealt[1] != "explosive"
        assert sorted(dealt) == sorted(tiles)
        assert tokens_of(list(dealt[:3])) == Counter({"red": 2})


def test_the_exhaustive_search_agrees_with_the_facts_of_real_games() -> None:
    for truth in curious_play(2, "protocol-27bis")[::3]:
        view = GAME.view(truth, 1)
        spec = SCENARIO_BY_SLUG[truth.scenario].grids[0]
        dealt = deal_grid(spec, 0, view, random.Random(5), tries=0)
        facts_hold(replace(truth, grids=(replace(truth.grids[0], tiles=dealt),)), truth)
