"""Results: None until the end, then scores and valid competition ranks per seat."""

from __future__ import annotations

import operator
from typing import Any

from tests.engine.conformance.common import assert_no_legal_actions, assert_refused, is_json_ready, short
from tests.engine.playouts import Playout

Direction = str  # "higher" or "lower": which scores the ranks favour


def check_result(playout: Playout) -> set[Direction]:
    """None until the end, then valid scores and competition ranks per seat.

    Returns the directions (higher or lower is better) the ranks agree with, so
    that the caller can check a game ranks the same way in every playout."""
    game = playout.game
    final = playout.final
    label = playout.describe(len(playout.moves))
    players = game.players(final)
    result = game.result(final)
    assert isinstance(result, dict), f"{label}: the game is over but result() is {result!r}"
    assert is_json_ready(result), f"{label}: result is not JSON-ready: {short(result)}"
    scores, ranks = result.get("scores"), result.get("ranks")
    assert isinstance(scores, list), f"{label}: scores {scores!r}"
    assert isinstance(ranks, list), f"{label}: ranks {ranks!r}"
    assert len(scores) == len(ranks) == players, (
        f"{label}: scores {scores}, ranks {ranks} for {players} seats"
    )
    assert all(_is_score(score) for score in scores), f"{label}: scores must be numbers: {scores}"
    assert all(type(rank) is int and 1 <= rank <= players for rank in ranks), f"{label}: bad ranks {ranks}"
    assert competition_ranks_are_valid(ranks), f"{label}: {ranks} are not competition ranks (1, 2, 2, 4)"
    if game.is_cooperative:
        assert type(result.get("won")) is bool, f"{label}: a cooperative game's result needs won: bool"
    if "won" in result:
        assert type(result["won"]) is bool, f"{label}: won must be a bool: {result['won']!r}"
    assert game.result(game.decode(game.encode(final))) == result, (
        f"{label}: result changes through the codec"
    )
    for seat in range(players):
        assert_no_legal_actions(game, final, seat, {"game_over", "not_your_turn"}, label)
        if playout.moves:
            assert_refused(game, final, seat, playout.moves[-1][1], {"game_over"}, label)
    directions = directions_agreeing(scores, ranks)
    assert directions, f"{label}: ranks {ranks} contradict scores {scores} both ways"
    return directions


def _is_score(score: Any) -> bool:
    if isinstance(score, list):
        return all(_is_score(part) for part in score)
    return type(score) in (int, float)


def competition_ranks_are_valid(ranks: list[int]) -> bool:
    """Each rank is one more than the number of seats ranked strictly better."""
    return all(rank == 1 + sum(other < rank for other in ranks) for rank in ranks)


def directions_agreeing(scores: list[Any], ranks: list[int]) -> set[Direction]:
    """The directions in which no seat with a better score has a worse rank.

    Ties in score may be broken (Boom Box counts opened boxes) and several scores
    may share a rank (short Ka-Blam!), so only contradictions are ruled out."""
    found = set()
    for direction, better in (("higher", operator.gt), ("lower", operator.lt)):
        if not any(
            better(scores[i], scores[j]) and ranks[i] > ranks[j]
            for i in range(len(scores))
            for j in range(len(scores))
        ):
            found.add(direction)
    return found
