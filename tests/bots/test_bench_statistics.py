"""The match statistics of bench/bots.py: the interval by whole deals, pooled records."""

import json
import math
import random
import statistics
from typing import Any

import pytest

from bench.bots import (
    MIN_DEALS,
    OpenHandsGame,
    Outcome,
    Settings,
    deal_interval,
    has_open_hands_form,
    pool_records,
    record_line,
    summarize,
    wilson,
)
from games.engine import get


def test_identical_levels_split_every_deal_and_the_interval_is_the_equal_share():
    # Two players, every deal won once from each seat: the cards decided, not A.
    scores = [1.0, 0.0] * MIN_DEALS
    assert deal_interval(scores, players=2) == (0.5, 0.5)


def test_an_edge_that_shows_in_a_few_deals_is_told_from_luck_by_deals_not_by_games():
    # 200 deals; A wins both seats of 30 of them and splits the rest: 57.5% over 400 games.
    scores = [1.0, 1.0] * 30 + [1.0, 0.0] * 170
    interval = deal_interval(scores, players=2)
    assert interval is not None
    low, high = interval
    games_low, games_high = wilson(sum(scores), len(scores))
    assert low < 0.575 < high
    assert high - low < 0.6 * (games_high - games_low)
    assert low > 0.55


def test_four_players_average_each_deal_over_its_four_games_and_drop_a_part_deal():
    deal_won_once = [1.0, 0.0, 0.0, 0.0]
    deal_won_twice = [1.0, 1.0, 0.0, 0.0]
    scores = (deal_won_once + deal_won_twice) * MIN_DEALS + [1.0, 1.0]  # the last deal is cut short
    deal_averages = [0.25, 0.5] * MIN_DEALS
    half = 1.96 * statistics.stdev(deal_averages) / math.sqrt(len(deal_averages))
    interval = deal_interval(scores, players=4)
    assert interval is not None
    low, high = interval
    assert low == pytest.approx(0.375 - half, abs=1e-4)
    assert high == pytest.approx(0.375 + half, abs=1e-4)


def test_too_few_deals_give_no_interval():
    assert deal_interval([1.0, 0.0] * (MIN_DEALS - 1), players=2) is None


def _recorded_match(path, settings, scores):
    """Write one game per score to ``path`` as ``--record`` does, A's rank from its score."""
    outcomes = [
        Outcome(
            a_score=score,
            a_rank=1 if score else 2,
            b_rank=2.0 if score == 1.0 else 1.0,
            a_place={1.0: "win", 0.5: "draw", 0.0: "loss"}[score],
            expert_playouts=0,
            expert_seconds=0.0,
            seconds=0.1,
        )
        for score in scores
    ]
    with path.open("a") as lines:
        for index, outcome in enumerate(outcomes):
            lines.write(json.dumps(record_line(settings, index, outcome)) + "\n")
    return outcomes


def test_runs_recorded_on_other_deals_pool_into_one_match_without_their_cut_deals(tmp_path):
    first = Settings("go-fox", 2, "expert", "basic", None, 300, first_seed=1)
    later = Settings("go-fox", 2, "expert", "basic", None, 300, first_seed=11)
    head = _recorded_match(tmp_path / "a.jsonl", first, [1.0, 0.0, 1.0, 1.0] * 5)  # deals 1-10
    tail = _recorded_match(tmp_path / "b.jsonl", later, [0.5, 0.5, 1.0, 0.0] * 5 + [1.0])  # 11-20, cut
    pooled = pool_records([tmp_path / "b.jsonl", tmp_path / "a.jsonl"])
    alone = summarize(first, head + tail[:-1])
    assert pooled.games == 40
    assert pooled.settings.first_seed == 1
    assert (pooled.score, pooled.wins, pooled.draws, pooled.deal_low) == (
        alone.score,
        alone.wins,
        alone.draws,
        alone.deal_low,
    )


def test_pooling_refuses_another_match_and_a_deal_recorded_twice(tmp_path):
    settings = Settings("go-fox", 2, "expert", "basic", None, 300, first_seed=1)
    _recorded_match(tmp_path / "a.jsonl", settings, [1.0, 0.0])
    _recorded_match(tmp_path / "b.jsonl", Settings("go-fox", 2, "expert", "basic", None, 100, 5), [1.0, 0.0])
    with pytest.raises(ValueError, match="another match"):
        pool_records([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])
    with pytest.raises(ValueError, match="recorded twice"):
        pool_records([tmp_path / "a.jsonl", tmp_path / "a.jsonl"])
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(ValueError, match="no games recorded"):
        pool_records([tmp_path / "empty.jsonl"])


@pytest.mark.parametrize("slug", ["ka-blam", "go-fox"])
def test_open_hands_sees_every_hand_and_only_the_pile_order_is_redealt(slug):
    game = get(slug)
    truth: Any = game.new(2, 7)
    open_hands = OpenHandsGame(game, truth)
    sampled = open_hands.sample(game.view(truth, 1), 1, random.Random(3))
    assert sampled.hands == truth.hands
    assert sorted(sampled.pile) == sorted(truth.pile)
    assert sampled.pile != truth.pile
    assert open_hands.slug == slug  # everything else is the game's


def test_open_hands_plays_only_games_hidden_in_hands_and_a_pile():
    assert has_open_hands_form(get("ka-blam"))
    assert not has_open_hands_form(get("read-and-grab"))
