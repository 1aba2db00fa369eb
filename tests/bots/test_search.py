"""The expert's search (games/bots/search.py) on real engine states.

Playouts here use explicit policies (uniformly random, with a neutral evaluation
after a few actions) and mostly no root prior, so these tests do not depend on the
per-game bot modules and stay fast; the games' own policies are tested with their
modules. The prior tests use small policies of their own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots import search, strategies
from games.engine import Game, all_games, get
from tests.bots.helpers import go_fox_seven_shown_by_seat_1
from tests.engine.playouts import play_on, random_game

GAMES = sorted(all_games(), key=lambda game: game.slug)
# Booby-Trap runs physics on every take: few positions, few iterations.
SLOW = {"booby-trap"}


def neutral(game: Game[Any], state: Any, seat: int) -> float:
    return 0.5


def quick(
    game: Game[Any], view: dict[str, Any], seat: int, seed: int, iterations: int
) -> search.SearchResult:
    """A small reproducible search: random playouts cut after three actions."""
    return search.search(
        game,
        view,
        seat,
        random.Random(seed),
        max_iterations=iterations,
        rollout=search.random_rollout,
        evaluate=neutral,
        rollout_depth=3,
        prior=None,
    )


def positions(game: Game[Any], players: int, seed: int, count: int, horizon: int) -> list[tuple[Any, int]]:
    """(state, seat to decide) pairs from seeded random play, the first state included
    (in Don't Go Boom every seat owes its opening choice at once), spread over the
    first ``horizon`` actions."""
    found = random_game(game, players, seed, stop_after=horizon).decisions
    stride = max(1, len(found) // count)
    return found[::stride][:count]


def player_counts(game: Game[Any]) -> list[int]:
    return sorted({max(game.min_players, 2), game.max_players if game.slug not in SLOW else 3})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_search_returns_a_legal_action_in_every_game(game: Game[Any]) -> None:
    slow = game.slug in SLOW
    for players in player_counts(game):
        for state, seat in positions(
            game, players, seed=players, count=2 if slow else 4, horizon=8 if slow else 80
        ):
            view = game.view(state, seat)
            action = quick(game, view, seat, seed=1, iterations=3 if slow else 25).action
            assert action in game.legal_actions(state, seat)
            game.apply(state, seat, action)


def test_search_plays_whole_random_playouts_without_an_evaluation() -> None:
    game = get("go-fox")
    state, seat = positions(game, 2, seed=3, count=1, horizon=1)[0]
    found = search.search(
        game,
        game.view(state, seat),
        seat,
        random.Random(0),
        max_iterations=10,
        rollout=search.random_rollout,
        prior=None,
    )
    assert found.action in game.legal_actions(state, seat)
    assert found.iterations == 10


def test_max_iterations_is_respected() -> None:
    game = get("dont-go-boom")
    state, seat = positions(game, 2, seed=4, count=4, horizon=40)[-1]
    found = quick(game, game.view(state, seat), seat, seed=2, iterations=37)
    assert found.iterations == 37
    assert sum(visits for _, visits, _ in found.root) == 37


def test_a_time_budget_stops_the_search() -> None:
    game = get("dont-go-boom")
    state, seat = positions(game, 2, seed=4, count=4, horizon=40)[-1]
    found = search.search(
        game,
        game.view(state, seat),
        seat,
        random.Random(0),
        budget_seconds=0.05,
        rollout=search.random_rollout,
        evaluate=neutral,
    )
    assert found.iterations >= 1
    assert found.seconds < 1.0


def test_a_single_legal_action_is_returned_at_once() -> None:
    game = get("ka-blam")
    rng = random.Random(0)
    state = game.new(2, 0)
    while True:
        waiting = game.to_act(state)
        assert waiting, "a seeded Ka-Blam! game offers a forced move somewhere"
        seat = waiting[0]
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            break
        state = game.apply(state, seat, rng.choice(actions))
    found = quick(game, game.view(state, seat), seat, seed=0, iterations=500)
    assert found.action == actions[0]
    assert found.iterations == 0


@pytest.mark.parametrize("slug", ["dont-go-boom", "boom-box", "read-and-grab"])
def test_same_seed_and_iterations_give_the_same_search(slug: str) -> None:
    game = get(slug)
    for state, seat in positions(game, 3, seed=5, count=3, horizon=60):
        view = game.view(state, seat)
        first = quick(game, view, seat, seed=11, iterations=40)
        again = quick(game, view, seat, seed=11, iterations=40)
        assert first.action == again.action
        assert first.root == again.root
        assert first.actions_played == again.actions_played


@pytest.mark.parametrize("slug", ["dont-go-boom", "go-fox", "ka-blam"])
def test_two_states_with_the_same_view_get_the_same_choice(slug: str) -> None:
    game = get(slug)
    for index, (state, seat) in enumerate(positions(game, 2, seed=6, count=3, horizon=60)):
        view = game.view(state, seat)
        # Another true state this seat cannot tell from the first.
        other = game.sample(view, seat, random.Random(100 + index))
        assert game.view(other, seat) == view
        chosen = quick(game, view, seat, seed=7, iterations=30).root
        assert quick(game, game.view(other, seat), seat, seed=7, iterations=30).root == chosen


def seed_91_last_decision() -> Any:
    """Don't Go Boom, seed 91, after 216 random actions: seat 0 holds a 12 to keep.
    Found by random play on the engine's first generator, and kept on it (splitmix64)."""
    game = get("dont-go-boom")
    return play_on(game, game.new(2, 91, generator="splitmix64"), random.Random(91), stop_after=216).final


def keep_in_position_0(
    game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random
) -> dict[str, Any]:
    """A prior that keeps the held card in position 0: at seed 91's last decision, a loss."""
    return {"type": "keep", "position": 0}


def keep_in_position_2(
    game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random
) -> dict[str, Any]:
    """The winning keep at seed 91's last decision, as a prior."""
    return {"type": "keep", "position": 2}


def prior_at_seed_91(
    iterations: int, prior: search.Policy, challengers: int = 1, duel_depth: int | None = None
) -> search.SearchResult:
    """A search of that position (random playouts, no evaluation) from ``prior``."""
    game = get("dont-go-boom")
    return search.search(
        game,
        game.view(seed_91_last_decision(), 0),
        0,
        random.Random(3),
        max_iterations=iterations,
        rollout=search.random_rollout,
        evaluate=neutral,
        rollout_depth=3,
        prior=prior,
        challengers=challengers,
        duel_depth=duel_depth,
    )


def test_search_takes_the_winning_move() -> None:
    """Don't Go Boom, seed 91, the last decision of the game (found by random play):
    seat 0 must keep the 12 from the discard pile, and only in position 2 (r0c2) does
    it complete a line of three 12s (scoring 0) and win; anywhere else it loses."""
    game = get("dont-go-boom")
    state = seed_91_last_decision()
    assert game.to_act(state) == [0]
    view = game.view(state, 0)
    assert view["held"]["card"]["value"] == 12
    outcomes = {}
    for action in game.legal_actions(state, 0):
        result = game.result(game.apply(state, 0, action))
        assert result is not None
        outcomes[action["position"]] = result["ranks"][0]
    assert [position for position, rank in outcomes.items() if rank == 1] == [2]

    found = quick(game, view, 0, seed=3, iterations=60)
    assert found.action == {"type": "keep", "position": 2}


@pytest.mark.parametrize(
    ("result", "seat", "expected"),
    [
        ({"scores": [3, 9], "ranks": [1, 2]}, 0, 1.0),
        ({"scores": [3, 9], "ranks": [1, 2]}, 1, 0.0),
        ({"scores": [5, 5], "ranks": [1, 1]}, 0, 0.5),
        ({"scores": [1, 2, 2, 4], "ranks": [1, 2, 2, 4]}, 1, 0.5),
        ({"scores": [1, 2, 3], "ranks": [1, 2, 3]}, 1, 0.5),
        ({"scores": [0, 0], "ranks": [1, 1], "won": True}, 1, 1.0),
        ({"scores": [0, 0], "ranks": [1, 1], "won": False}, 0, 0.0),
    ],
)
def test_reward_is_rank_based_or_won(result: dict[str, Any], seat: int, expected: float) -> None:
    assert search.reward(result, seat) == pytest.approx(expected)


def test_action_keys_ignore_field_order() -> None:
    assert search.action_key({"type": "keep", "position": 2}) == search.action_key(
        {"position": 2, "type": "keep"}
    )


def test_without_evidence_the_prior_choice_stands() -> None:
    """A neutral evaluation after one action gives every root action the same reward:
    nothing beats the prior, so its choice is returned (not the most visited)."""
    game = get("dont-go-boom")
    for index, (state, seat) in enumerate(positions(game, 2, seed=8, count=4, horizon=60)):
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        if len(legal) < 2:
            continue

        # The last legal action: never the first tried without a prior.
        def last(
            game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random, legal: list[Any] = legal
        ) -> dict[str, Any]:
            return legal[-1]

        found = search.search(
            game,
            view,
            seat,
            random.Random(index),
            max_iterations=40,
            rollout=search.random_rollout,
            evaluate=neutral,
            rollout_depth=1,
            prior=last,
        )
        assert found.prior == legal[-1]
        assert found.action == legal[-1]


def test_clear_evidence_overrides_a_bad_prior() -> None:
    """The winning-move position of the test above, with a prior that keeps the 12
    in a losing place: the playouts show the win, and the search takes it."""
    found = prior_at_seed_91(120, keep_in_position_0)
    assert found.prior == {"type": "keep", "position": 0}
    assert found.action == {"type": "keep", "position": 2}
    # The tree's choice won its duel: the win, every re-deal.
    assert found.duel_rounds >= search.MIN_DUEL_ROUNDS
    assert found.duel_gain == 1.0


def test_several_challengers_duel_the_prior_even_when_the_tree_agrees() -> None:
    """With ``challengers`` above 1 the duel always runs, one round playing the prior
    and each challenger on one re-deal; a winning prior stands, a losing one falls to
    the winning challenger."""
    found = prior_at_seed_91(120, keep_in_position_2, challengers=3)
    assert found.action == {"type": "keep", "position": 2}
    assert found.duel_rounds == (120 - found.iterations) // 4
    assert found.duel_rounds >= search.MIN_DUEL_ROUNDS
    # The best challenger loses every re-deal to the win.
    assert found.duel_gain == -1.0
    found = prior_at_seed_91(120, keep_in_position_0, challengers=3)
    assert found.action == {"type": "keep", "position": 2}
    assert found.duel_gain == 1.0
    with pytest.raises(ValueError, match="challengers"):
        prior_at_seed_91(120, keep_in_position_0, challengers=0)


def test_a_game_may_trust_its_tree_without_a_duel() -> None:
    """``DECISIVE_Z``: a clear gap in the tree's own playouts is enough (Booby-Trap);
    by default (infinite) it never is."""
    challenger, prior = search.Edge({"type": "a"}), search.Edge({"type": "b"})
    for edge, wins in ((challenger, 18), (prior, 4)):
        edge.visits = 20
        edge.total = edge.squares = float(wins)
    assert search._tree_decisive(challenger, prior, 2.5)
    assert not search._tree_decisive(prior, challenger, 2.5)
    assert not search._tree_decisive(challenger, prior, search.DEFAULT_DECISIVE_Z)
    assert search._game_decisive_z(get("booby-trap")) == 1.3
    assert search._game_decisive_z(get("dont-go-boom")) == search.DEFAULT_DECISIVE_Z


def test_a_duel_confirms_what_the_tree_saw_only_a_few_times() -> None:
    """The same position with 18 iterations: the tree tries every place and ends with
    the win tied with the prior at 3 visits each, and the duel, at its fewest
    rounds, settles it: the win, every re-deal."""
    found = prior_at_seed_91(18, keep_in_position_0)
    assert found.action == {"type": "keep", "position": 2}
    assert found.duel_rounds == search.MIN_DUEL_ROUNDS
    assert found.duel_gain == 1.0


def test_the_duel_plays_both_moves_on_the_same_deal_and_luck() -> None:
    """A move against itself: with common random numbers every difference is 0 (with
    a fresh deal or random source per side, random playouts would differ)."""
    game = get("dont-go-boom")
    state, seat = positions(game, 2, seed=4, count=4, horizon=40)[-1]
    move = game.legal_actions(state, seat)[0]
    (differences,), played = search._duel(
        game,
        game.view(state, seat),
        seat,
        [move],
        dict(move),
        search.random_rollout,
        None,
        search.MAX_PLAYOUT_ACTIONS,
        20,
        None,
        random.Random(5),
    )
    assert len(differences) == 20
    assert played > 40
    assert set(differences) == {0.0}


class TickingClock:
    """A clock that moves on one millisecond each time it is read, however long the
    work between two readings took: the search's stops depend on its checks alone, not
    on how loaded the machine is (a wall-clock bound failed on a busy CI machine)."""

    TICK = 0.001

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += self.TICK
        return self.now


def test_with_a_prior_the_duel_keeps_to_the_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree stops at its share of the budget; the duel ends with the budget."""
    game = get("dont-go-boom")
    budget = 0.2
    tree_share = budget * (1 - search.DUEL_SHARE)
    searches: list[tuple[dict[str, Any], int, search.Policy | str]] = [
        (game.view(state, seat), seat, search.GAME_PRIOR)
        for state, seat in positions(game, 2, seed=12, count=3, horizon=40)
    ]
    # A prior the tree beats, so that a duel runs.
    searches.append((game.view(seed_91_last_decision(), 0), 0, keep_in_position_0))
    for index, (view, seat, prior) in enumerate(searches):
        monkeypatch.setattr(search, "clock", TickingClock())
        found = search.search(game, view, seat, random.Random(index), budget_seconds=budget, prior=prior)
        # The tree reads the clock once an iteration after the first.
        assert found.iterations == pytest.approx(tree_share / TickingClock.TICK, abs=2)
        # Past the deadline by at most the reading that stopped the search and the last.
        assert found.seconds <= budget + 2 * TickingClock.TICK + 1e-9
    # The duel read the clock once a round: it had the rest of the budget.
    assert found.duel_rounds == pytest.approx((budget - tree_share) / TickingClock.TICK, abs=3)


def test_the_default_prior_is_the_games_basic_choice() -> None:
    game = get("read-and-grab")
    for index, (state, seat) in enumerate(positions(game, 3, seed=9, count=4, horizon=60)):
        view = game.view(state, seat)
        if len(game.legal_actions(state, seat)) < 2:
            continue
        found = search.search(game, view, seat, random.Random(index), max_iterations=5)
        basic = strategies.for_game(game).basic(game, view, seat, random.Random(index))
        assert found.prior == basic


def test_go_fox_expert_searches_and_keeps_a_sure_ask() -> None:
    """Go Fox!'s playouts read the recent log (``go_fox.rollout``): the expert searches
    there like everywhere, and keeps the ask the log makes sure (the next player
    asked for that number and heard GO FOX!)."""
    game = get("go-fox")
    state = go_fox_seven_shown_by_seat_1()
    found = search.search(game, game.view(state, 0), 0, random.Random(3), max_iterations=60)
    assert found.iterations > 0
    assert found.action == {"type": "ask", "number": 7}


def test_the_duel_may_play_deeper_than_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """``duel_depth`` sets how many actions a duel playout runs before the evaluation;
    by default it runs as far as the tree's playouts (``rollout_depth``)."""
    cuts = []
    duel = search._duel

    def recording(*arguments: Any) -> tuple[list[list[float]], int]:
        cuts.append(arguments[7])  # _duel's ``cut``
        return duel(*arguments)

    monkeypatch.setattr(search, "_duel", recording)
    for duel_depth in (None, 7):
        found = prior_at_seed_91(18, keep_in_position_0, duel_depth=duel_depth)
        assert found.duel_rounds > 0
    assert cuts == [3, 7]
