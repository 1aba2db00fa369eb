"""The appraisal a grade comes from (games/review/expert.py, games/bots/search.py's
``appraise``): both actions played out on the same re-deals with the same luck, the
same numbers from the same seed. No database."""

from __future__ import annotations

import random

from games.bots import search
from games.engine import get
from games.review import expert
from tests.games.boards.helpers import find_state

GAME = get("go-fox")


def a_choice() -> tuple[dict[str, object], int, list[dict[str, object]]]:
    state = find_state(GAME, 2, lambda s: s.turn >= 0 and len(GAME.legal_actions(s, s.turn)) >= 3)
    return GAME.view(state, state.turn), state.turn, GAME.legal_actions(state, state.turn)


def test_each_action_of_a_round_is_played_on_the_same_deal_with_the_same_luck() -> None:
    view, seat, legal = a_choice()
    # The same action twice: the same rewards, round by round (common random numbers).
    first, again = search.appraise(GAME, view, seat, [legal[0], legal[0]], random.Random(5), rounds=12)
    assert first == again and len(first) == 12 and all(0.0 <= value <= 1.0 for value in first)
    # With another action beside it, the first action's rewards are unchanged.
    alone, _ = search.appraise(GAME, view, seat, [legal[0], legal[1]], random.Random(5), rounds=12)
    assert alone == first


def test_the_appraisal_is_the_same_from_the_same_seed_and_costs_nothing_when_the_moves_agree() -> None:
    view, seat, legal = a_choice()
    best, played = legal[0], legal[-1]
    found = expert.appraisal(GAME, view, seat, best=best, played=played, match_id=7, ply=3, rounds=16)
    assert found == expert.appraisal(GAME, view, seat, best=best, played=played, match_id=7, ply=3, rounds=16)
    assert found.rounds == 16 and found.playouts == 32 and found.error >= 0.0
    other_ply = expert.appraisal(GAME, view, seat, best=best, played=played, match_id=7, ply=4, rounds=16)
    assert other_ply != found or found.error == 0.0  # another seed: other re-deals
    same = expert.appraisal(GAME, view, seat, best=best, played=best, match_id=7, ply=3, rounds=16)
    assert same.best == same.played and same.error == 0.0 and same.playouts == 16


def test_the_rounds_are_a_third_of_the_search_budget_and_never_fewer_than_eight() -> None:
    assert expert.appraisal_rounds(expert.ITERATIONS) == 100
    assert expert.appraisal_rounds(expert.iterations_for("booby-trap")) == 13
    assert expert.appraisal_rounds(3) == 8
