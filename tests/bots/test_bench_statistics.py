"""The match statistics of bench/bots.py: the interval by whole deals."""

import math
import statistics

import pytest

from bench.bots import MIN_DEALS, deal_interval, wilson


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
