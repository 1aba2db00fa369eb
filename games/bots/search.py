"""The expert bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

The bot knows only its view. Each iteration re-deals what it cannot see
(``game.sample(view, seat, rng)``: one "determinization"), then walks a tree of its
own decisions with UCB, plays the game out with a fast policy, and scores the end
from its seat's point of view. Across iterations the tree averages over the hidden
cards it cannot rule out, so it never relies on the true state (it never sees it).

- **Tree.** Only this seat's decisions are in the tree; other seats (and this seat,
  once a playout has left the tree) act by the game's ``rollout`` policy. A node is an
  information set of this seat: the root is the view it was given; below it, a node
  is reached by (this seat's action, what the seat then sees), the latter being its
  view when it next has to decide. So "draw from the deck" leads to one node per card
  it could draw, and the keep-or-discard choice that follows is learned per card.
  Children are keyed by the canonical JSON of the action. Actions legal in only some
  determinizations are handled with availability counts (UCB's "parent visits" is
  the number of times the action was available), as in Cowling et al. (2012).
  ``tree_depth`` caps how many of this seat's decisions the tree holds (default 2:
  this decision and the next, e.g. draw, then keep or discard): deeper, hidden draws
  split nodes so finely that they are rarely revisited, and each step costs a view.
- **Playouts.** The game's ``rollout(game, state, seat, rng)`` picks every action
  but this seat's in-tree ones (uniformly random legal actions when the game has
  none). With an ``evaluate``, an iteration stops after ``rollout_depth`` policy
  actions (other seats' moves between tree decisions included) and the evaluation
  stands in for the rest of the game; without one it runs to the end (safety cap).
- **Reward** in [0, 1] for the searching seat: ``won`` in cooperative games, else by
  rank: 1 for sole first, 0 for sole last, linear between, tied seats sharing the
  places they occupy (two seats tied first of two get 0.5 each).
- **Root prior.** The root is the one node where the bot has its real view, so it is
  guided by the game's strongest view-aware policy rather than by the playout
  policy: its ``expert_prior`` where the game's bot module has one (Don't Go Boom's
  computes the deck draw's expectation), else its ``basic``. That action is tried
  first, gets a selection bonus that fades with its visits (``PRIOR_BIAS``), and is
  replaced only when the tree's choice wins a **duel** against it (or, in a game
  whose module sets ``DECISIVE_Z``, which has no duel, beats it by that many
  standard errors in the tree's own playouts).
- **Duel.** When the tree's choice is not the prior's, the last ``DUEL_SHARE`` of the
  budget plays both moves on the same re-deals with the same random source for
  the playout, so that the deal's luck, which is most of a playout's variance,
  cancels out of the difference; the challenger wins only when its mean gain is
  ``OVERRIDE_Z`` standard errors above zero. Measured in Don't Go Boom
  (bench/expert_overrides.py), the tree's departures from basic without the duel
  lost on average (its unpaired means, over up to ten moves, pick noise); the duel
  keeps those that hold up. When the tree agrees with the prior, the duel's share
  is not spent and the answer comes sooner. With ``challengers`` above 1, the tree's
  best few actions besides the prior's all enter the duel, always: each round plays
  the prior and every challenger on one re-deal, and the best challenger that clears
  the bar replaces the prior.
- **Choice.** The root action visited most (then the best mean, then legal order),
  unless the prior stands: the duel was lost (and the tree's evidence not decisive).

States are immutable, so nothing is copied: ``apply`` returns new states and the
sampled state is simply dropped after its iteration. Given the same ``rng`` seed and a
fixed ``max_iterations`` (no time budget), the choice is the same every time.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.bots import strategies
from games.engine import Game

Rollout = Callable[[Game[Any], Any, int, random.Random], dict[str, Any]]
Policy = Callable[[Game[Any], dict[str, Any], int, random.Random], dict[str, Any]]
Evaluate = Callable[[Game[Any], Any, int], float]

DEFAULT_BUDGET_SECONDS = 1.0
# The wall clock the time budget is read from (a test swaps in a ticking clock, so
# that keeping to the budget is checked without depending on the machine's load).
clock = time.perf_counter
# ``prior=GAME_PRIOR``: guide the root with the game's own policy (``_game_prior``).
GAME_PRIOR = "game"
# UCB exploration constant for rewards in [0, 1] (1/sqrt(2) is the textbook value).
EXPLORATION = 0.7
# The bonus of the playout policy's choice at a node, divided by its visits + 1: worth
# a few visits' evidence, so the search leaves the policy's move only on a clear signal.
POLICY_BIAS = 2.0
# The root's prior is the game's own choice (``expert_prior`` or ``basic``), made
# from the real view (playout policies only see sampled states, and some, like Go
# Fox!'s, skip what the log tells).
# It gets this bonus, divided by its visits + 1, in selection at the root...
PRIOR_BIAS = 4.0
# ...and the search replaces it only when its choice beats the prior in a duel (see
# the module docstring) by this many standard errors of the paired differences (a
# one-sided test at about 90%), so noise alone leaves the prior's move.
OVERRIDE_Z = 1.3
# A game's bot module may set ``DECISIVE_Z``: then there is no duel; the tree gets
# the whole budget and its choice replaces the prior when its mean beats the prior's
# by that many standard errors in the tree's own playouts. By default there is no
# such threshold and the duel decides. Measured in Don't Go Boom
# (bench/expert_overrides.py, 1,000 iterations, 120 positions): letting the tree
# decide at 2.5 standard errors, besides the duel, let through clear losses (a Swap
# at -0.125 in expected reward: the playouts and evaluation are biased, not only
# noisy), and the mean gain per departure fell from +0.033 (duel only) to +0.001.
# Booby-Trap sets it (see games/bots/booby_trap.py).
DEFAULT_DECISIVE_Z = math.inf
# Below this many visits an action's variance estimate is unreliable; the worst case
# of a reward in [0, 1] (a coin flip: 0.25) stands in for it.
MIN_VARIANCE_VISITS = 8
# The share of the budget (iterations or time) kept for the duel, and the fewest
# paired playouts on which it may override the prior.
DUEL_SHARE = 0.3
MIN_DUEL_ROUNDS = 4
# How many of the searching seat's decisions the tree holds (see the module docstring).
DEFAULT_TREE_DEPTH = 2
# With an ``evaluate``: policy actions per iteration before the evaluation stands in
# for the rest of the game (a game module may set its own ``ROLLOUT_DEPTH``).
DEFAULT_ROLLOUT_DEPTH = 12
# Without one, a playout runs to the end; this only guards against a policy that
# never finishes the game (every engine game ends under random play). Scored 0.5.
MAX_PLAYOUT_ACTIONS = 10_000


def action_key(action: dict[str, Any]) -> str:
    """The canonical form of an action: equal actions, equal keys, whatever the field order."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def random_rollout(game: Game[Any], state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    """The playout policy of games without one: a legal action, uniformly at random."""
    return rng.choice(game.legal_actions(state, seat))


def reward(result: dict[str, Any], seat: int) -> float:
    """How good a finished game is for ``seat``, in [0, 1]."""
    if "won" in result:
        return 1.0 if result["won"] else 0.0
    ranks: list[int] = result["ranks"]
    players = len(ranks)
    if players == 1:
        return 1.0
    rank = ranks[seat]
    tied = ranks.count(rank)
    # The tied seats occupy places rank .. rank + tied - 1, each worth
    # (players - place) / (players - 1); they share the average.
    return (players - rank - (tied - 1) / 2) / (players - 1)


class Edge:
    """One action of the searching seat from one node, and the nodes it leads to."""

    __slots__ = ("action", "after", "available", "squares", "total", "visits")

    def __init__(self, action: dict[str, Any]) -> None:
        self.action = action
        self.visits = 0
        self.total = 0.0
        # The sum of squared rewards: with ``total``, the rewards' variance.
        self.squares = 0.0
        self.available = 0
        # What the seat sees when it next decides (its view, printed) -> node.
        self.after: dict[str, Node] = {}


class Node:
    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[str, Edge] = {}


@dataclass(frozen=True)
class SearchResult:
    action: dict[str, Any]
    # Iterations of the tree (the duel's playouts are counted in ``duel_rounds``).
    iterations: int
    seconds: float
    # This process's CPU time for the search: steadier than the wall clock on a busy machine.
    cpu_seconds: float
    # Actions applied in all playouts (tree steps included), for speed figures.
    actions_played: int
    # (action, visits, mean reward) per root action, in legal order.
    root: tuple[tuple[dict[str, Any], int, float], ...]

    # The game's own choice at the root (``_game_prior``), when the search had a prior.
    prior: dict[str, Any] | None = None
    # Paired playouts of the duel between the tree's choice and the prior (0: none),
    # and the challenger's mean gain in them.
    duel_rounds: int = 0
    duel_gain: float = 0.0

    @property
    def playouts(self) -> int:
        """The tree's iterations and the duel's playouts (two a round)."""
        return self.iterations + 2 * self.duel_rounds

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    @property
    def playouts_per_cpu_second(self) -> float:
        return self.playouts / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def choose(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The expert's action for ``seat`` from its ``view``, as the site plays it: the
    default budget (``DEFAULT_BUDGET_SECONDS``) and the game's own policies; see ``search``."""
    return search(game, view, seat, rng).action


def search(
    game: Game[Any],
    view: dict[str, Any],
    seat: int,
    rng: random.Random,
    *,
    budget_seconds: float | None = None,
    max_iterations: int | None = None,
    rollout: Rollout | None = None,
    evaluate: Evaluate | None = None,
    rollout_depth: int | None = None,
    tree_depth: int = DEFAULT_TREE_DEPTH,
    prior: Policy | str | None = GAME_PRIOR,
    duel_depth: int | None = None,
    challengers: int = 1,
) -> SearchResult:
    """Search from ``view`` and return the chosen action with the search's figures.

    Stops after ``max_iterations`` playouts or ``budget_seconds`` seconds, whichever
    comes first; with a prior (and no ``DECISIVE_Z`` in the game's module), the tree
    gets all but ``DUEL_SHARE`` of them and a duel the rest (two playouts a round; at
    least ``MIN_DUEL_ROUNDS`` rounds under an iteration limit). ``budget_seconds=None``
    means 1 s when no ``max_iterations`` is given and no time limit when one is (so a
    fixed iteration count is reproducible).

    ``rollout=None`` takes ``rollout``, ``evaluate`` and ``ROLLOUT_DEPTH`` from the
    game's bot module (random playouts when it has none). A caller that passes a
    ``rollout`` controls the playouts entirely: its ``evaluate`` (None: play to the
    end) and ``rollout_depth`` are used as given.

    ``prior`` is the root's guide: ``GAME_PRIOR`` (the default) is the game's
    ``expert_prior``, else its ``basic`` policy (none if the game has no bot module),
    or pass a policy of the view, or None to guide the root by the playout policy like
    every other node. The prior's action is tried first and kept unless the tree's
    choice wins the duel against it (or beats it by the game's ``DECISIVE_Z``).

    ``duel_depth``: policy actions per duel playout before the evaluation (None: the
    same as the tree's playouts); a deeper duel leans less on ``evaluate``, at a higher
    cost per round (see bench/expert_overrides.py, ``--duel-depth``). ``challengers``:
    how many of the tree's best actions other than the prior's enter the duel. With 1
    (the default) the tree's choice duels the prior only when it differs from it; with
    more, the duel always runs, each round playing the prior and every challenger on
    one re-deal, and the best challenger that clears ``OVERRIDE_Z`` replaces the prior.
    """
    if challengers < 1:
        raise ValueError(f"challengers must be at least 1, not {challengers}.")
    started = clock()
    cpu_started = time.process_time()
    if budget_seconds is None and max_iterations is None:
        budget_seconds = DEFAULT_BUDGET_SECONDS
    deadline = None if budget_seconds is None else started + budget_seconds
    # With a prior, the tree gets the budget but the duel's share (see DUEL_SHARE).
    tree_iterations, tree_deadline = max_iterations, deadline
    if rollout is None:
        rollout, evaluate, module_depth = _game_policy(game)
        if rollout_depth is None:
            rollout_depth = module_depth
    if rollout_depth is None:
        rollout_depth = DEFAULT_ROLLOUT_DEPTH
    # No evaluation: the depth cap only guards against endless playouts.
    cut = rollout_depth if evaluate is not None else MAX_PLAYOUT_ACTIONS
    duel_cut = cut if duel_depth is None or evaluate is None else duel_depth

    first = game.sample(view, seat, rng)
    if seat not in game.to_act(first):
        raise ValueError(f"Seat {seat} has no decision to make in this view.")
    # A seat's options depend only on what it knows, so every determinization offers
    # the same actions at the root (the engine's conformance tests check this).
    legal = game.legal_actions(first, seat)
    if not legal:
        raise ValueError(f"Seat {seat} has no legal action in this view.")
    if len(legal) == 1:
        return SearchResult(
            action=legal[0],
            iterations=0,
            seconds=clock() - started,
            cpu_seconds=time.process_time() - cpu_started,
            actions_played=0,
            root=((legal[0], 0, 0.0),),
        )

    prior_policy = _game_prior(game) if prior == GAME_PRIOR else prior
    if isinstance(prior_policy, str):
        raise ValueError(f"Unknown prior {prior_policy!r}: pass search.GAME_PRIOR, a policy or None.")
    prior_key = None
    prior_action = None
    if prior_policy is not None:
        prior_action = prior_policy(game, view, seat, rng)
        prior_key = action_key(prior_action)

    decisive_z = _game_decisive_z(game)
    if prior_key is not None and math.isinf(decisive_z):
        if max_iterations is not None:
            tree_iterations = max(1, round(max_iterations * (1 - DUEL_SHARE)))
        if budget_seconds is not None:
            tree_deadline = started + budget_seconds * (1 - DUEL_SHARE)

    root_log = len(view["log"]) if isinstance(view.get("log"), list) else 0
    root = Node()
    root_keys = [action_key(action) for action in legal]
    for key, action in zip(root_keys, legal, strict=True):
        root.edges[key] = Edge(action)
    if prior_key is not None and prior_key not in root.edges:
        raise ValueError(f"The prior's action {prior_action!r} is not legal here.")

    iterations = 0
    actions_played = 0
    apply = game.apply
    to_act = game.to_act
    legal_actions = game.legal_actions
    state = first
    while True:
        if tree_iterations is not None and iterations >= tree_iterations:
            break
        if tree_deadline is not None and iterations > 0 and clock() >= tree_deadline:
            break
        if iterations > 0:
            state = game.sample(view, seat, rng)
        iterations += 1

        # -- Selection and expansion over this seat's information sets. --
        path: list[Edge] = []
        node: Node | None = root
        keys = root_keys
        actions = legal
        depth = 0
        # Actions played by the policy this iteration, in the tree and past it.
        steps = 0
        finished: dict[str, Any] | None = None
        while node is not None:
            # A policy's choice guides the search (progressive bias): with few
            # iterations and many actions, UCB alone would pick almost blindly. At the
            # root that is the prior (decided once, from the real view); below, the
            # playout policy's choice in this determinization.
            if node is root and prior_key is not None:
                edge = _select(node, keys, actions, prior_key, PRIOR_BIAS, rng)
            else:
                hint = action_key(rollout(game, state, seat, rng))
                edge = _select(node, keys, actions, hint, POLICY_BIAS, rng)
            path.append(edge)
            state = apply(state, seat, edge.action)
            actions_played += 1
            depth += 1
            expanded = edge.visits == 0
            # Others act by the playout policy until this seat decides again (or the
            # playout's length is spent: a seat out of the game may never decide again).
            while True:
                waiting = to_act(state)
                if not waiting or seat in waiting or steps >= cut:
                    break
                mover = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
                state = apply(state, mover, rollout(game, state, mover, rng))
                steps += 1
            if not waiting:
                finished = game.result(state)
                break
            if expanded or depth >= tree_depth or seat not in waiting:
                break
            # This seat's next information set: what it sees now, printed (``repr`` is
            # a cheap exact key: a game builds its views in a fixed key order). The log
            # is append-only and its first entries are those of the root view in every
            # determinization, so only the entries since the root are printed.
            seen_view = game.view(state, seat)
            if isinstance(seen_view.get("log"), list):
                seen_view = {**seen_view, "log": seen_view["log"][root_log:]}
            seen = repr(seen_view)
            node = edge.after.get(seen)
            if node is None:
                node = edge.after[seen] = Node()
            actions = legal_actions(state, seat)
            keys = [action_key(action) for action in actions]

        # -- Playout. --
        if finished is not None:
            value = reward(finished, seat)
        else:
            value, steps = _play_out(game, state, seat, rollout, evaluate, cut, steps, rng)
        actions_played += steps

        # -- Backpropagation: every edge on the path is this seat's, so one value. --
        for edge in path:
            edge.visits += 1
            edge.total += value
            edge.squares += value * value

    edges = [root.edges[key] for key in root_keys]
    best = edges[
        max(
            range(len(edges)),
            # Most visits, then best mean; ``max`` keeps the first of equals (legal order).
            key=lambda index: (edges[index].visits, edges[index].total / max(edges[index].visits, 1)),
        )
    ]
    # The tree's choice must still earn its place against the prior.
    duel_rounds, duel_gain = 0, 0.0
    prior_edge = root.edges[prior_key] if prior_key is not None else None
    if prior_edge is not None and (best is not prior_edge or challengers > 1):
        if not math.isinf(decisive_z):
            if not _tree_decisive(best, prior_edge, decisive_z):
                best = prior_edge
        else:
            ranked = sorted(
                (edge for edge in edges if edge is not prior_edge and edge.visits > 0),
                key=lambda edge: (edge.visits, edge.total / edge.visits),
                reverse=True,
            )
            entrants = ranked[:challengers]
            rounds = (
                None
                if max_iterations is None
                else max(MIN_DUEL_ROUNDS, (max_iterations - iterations) // (len(entrants) + 1))
            )
            duel, played = _duel(
                game,
                view,
                seat,
                [edge.action for edge in entrants],
                prior_edge.action,
                rollout,
                evaluate,
                duel_cut,
                rounds,
                deadline,
                rng,
            )
            actions_played += played
            best = prior_edge
            winners = [
                (math.fsum(differences) / len(differences), index)
                for index, differences in enumerate(duel)
                if _clearly_positive(differences)
            ]
            if winners:
                duel_gain, index = max(winners)
                best = entrants[index]
            elif entrants and duel[0]:
                duel_gain = math.fsum(duel[0]) / len(duel[0])
            duel_rounds = len(duel[0]) if duel else 0
    return SearchResult(
        action=best.action,
        iterations=iterations,
        seconds=clock() - started,
        cpu_seconds=time.process_time() - cpu_started,
        actions_played=actions_played,
        root=tuple((edge.action, edge.visits, edge.total / max(edge.visits, 1)) for edge in edges),
        prior=prior_action,
        duel_rounds=duel_rounds,
        duel_gain=duel_gain,
    )


def appraise(
    game: Game[Any],
    view: dict[str, Any],
    seat: int,
    actions: list[dict[str, Any]],
    rng: random.Random,
    *,
    rounds: int,
) -> list[list[float]]:
    """``seat``'s reward after each of ``actions``, on each of ``rounds`` re-deals of
    ``view``: ``rewards[action][round]``. Each playout is the search's own (the game's
    playout policy, its evaluation after its ``ROLLOUT_DEPTH``), so the means are the
    expert's estimates of the actions; every action of a round is played on the same
    re-deal with the same random source (common random numbers, as in the duel), so
    the luck of the deal and of the playout cancels out of their differences. With a
    fixed ``rng`` seed, the same numbers every time (the post-game review grades a
    decision by them)."""
    rollout, evaluate, depth = _game_policy(game)
    cut = (DEFAULT_ROLLOUT_DEPTH if depth is None else depth) if evaluate is not None else MAX_PLAYOUT_ACTIONS
    rewards: list[list[float]] = [[] for _ in actions]
    for _ in range(rounds):
        dealt = game.sample(view, seat, rng)
        luck = rng.random()
        for index, action in enumerate(actions):
            value, _steps = _play_out(
                game, game.apply(dealt, seat, action), seat, rollout, evaluate, cut, 1, random.Random(luck)
            )
            rewards[index].append(value)
    return rewards


def _play_out(
    game: Game[Any],
    state: Any,
    seat: int,
    rollout: Rollout,
    evaluate: Evaluate | None,
    cut: int,
    steps: int,
    rng: random.Random,
) -> tuple[float, int]:
    """Every seat acts by ``rollout`` until the game ends (its reward) or ``steps``
    reaches ``cut`` (the evaluation, or 0.5 without one): (value, steps)."""
    while True:
        waiting = game.to_act(state)
        if not waiting:
            result = game.result(state)
            assert result is not None
            return reward(result, seat), steps
        if steps >= cut:
            return (evaluate(game, state, seat) if evaluate is not None else 0.5), steps
        mover = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        state = game.apply(state, mover, rollout(game, state, mover, rng))
        steps += 1


def _duel(
    game: Game[Any],
    view: dict[str, Any],
    seat: int,
    challengers: list[dict[str, Any]],
    prior: dict[str, Any],
    rollout: Rollout,
    evaluate: Evaluate | None,
    cut: int,
    rounds: int | None,
    deadline: float | None,
    rng: random.Random,
) -> tuple[list[list[float]], int]:
    """Per challenger, its reward minus the prior's on each re-deal, every move of a
    round played with the same random source (common random numbers), for ``rounds``
    re-deals or until the deadline; and the actions the playouts applied."""
    differences: list[list[float]] = [[] for _ in challengers]
    played = 0
    while challengers:
        if rounds is not None and len(differences[0]) >= rounds:
            break
        if deadline is not None and clock() >= deadline:
            break
        dealt = game.sample(view, seat, rng)
        luck = rng.random()
        with_prior, steps = _play_out(
            game, game.apply(dealt, seat, prior), seat, rollout, evaluate, cut, 1, random.Random(luck)
        )
        played += steps
        for index, challenger in enumerate(challengers):
            with_challenger, steps = _play_out(
                game,
                game.apply(dealt, seat, challenger),
                seat,
                rollout,
                evaluate,
                cut,
                1,
                random.Random(luck),
            )
            played += steps
            differences[index].append(with_challenger - with_prior)
    return differences, played


def _tree_decisive(challenger: Edge, prior: Edge, z: float) -> bool:
    """Whether the challenger's mean reward in the tree beats the prior's by ``z``
    standard errors of the difference (a Welch-style test)."""
    if math.isinf(z) or challenger.visits == 0 or prior.visits == 0:
        return False
    difference = challenger.total / challenger.visits - prior.total / prior.visits
    error = math.sqrt(_variance(challenger) / challenger.visits + _variance(prior) / prior.visits)
    return difference > z * error


def _variance(edge: Edge) -> float:
    if edge.visits < MIN_VARIANCE_VISITS:
        return 0.25
    mean = edge.total / edge.visits
    return max(0.0, edge.squares / edge.visits - mean * mean)


def _clearly_positive(differences: list[float]) -> bool:
    """Whether the duel's mean difference is ``OVERRIDE_Z`` standard errors above zero."""
    count = len(differences)
    if count < MIN_DUEL_ROUNDS:
        return False
    mean = math.fsum(differences) / count
    variance = math.fsum((difference - mean) ** 2 for difference in differences) / (count - 1)
    if variance == 0.0:
        return mean > 0.0
    return mean > OVERRIDE_Z * math.sqrt(variance / count)


def _select(
    node: Node,
    keys: list[str],
    actions: list[dict[str, Any]],
    hint: str,
    bias: float,
    rng: random.Random,
) -> Edge:
    """UCB over the actions available in this determinization, plus a bonus ``bias``
    for the policy's choice ``hint`` that fades as it is visited; untried actions
    first, the hinted one before the others."""
    edges = node.edges
    untried = []
    for index, key in enumerate(keys):
        edge = edges.get(key)
        if edge is None or edge.visits == 0:
            untried.append(index)
        if edge is not None:
            edge.available += 1
    if untried:
        hinted = [index for index in untried if keys[index] == hint]
        index = hinted[0] if hinted else untried[0] if len(untried) == 1 else rng.choice(untried)
        edge = edges.get(keys[index])
        if edge is None:
            edge = edges[keys[index]] = Edge(actions[index])
            edge.available = 1
        return edge
    best: Edge | None = None
    best_score = -1.0
    for key in keys:
        edge = edges[key]
        score = edge.total / edge.visits + EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)
        if key == hint:
            score += bias / (edge.visits + 1)
        if score > best_score:
            best, best_score = edge, score
    assert best is not None
    return best


def _game_prior(game: Game[Any]) -> Policy | None:
    """The game's root prior, if it has a bot module: its ``expert_prior`` where it has
    one, else its ``basic`` policy (both decide from the view)."""
    try:
        module = strategies.for_game(game)
    except strategies.NoStrategy:
        return None
    policy: Policy | None = getattr(module, "expert_prior", None) or getattr(module, "basic", None)
    return policy


def _game_decisive_z(game: Game[Any]) -> float:
    """The game's ``DECISIVE_Z`` (see ``DEFAULT_DECISIVE_Z``)."""
    try:
        module = strategies.for_game(game)
    except strategies.NoStrategy:
        return DEFAULT_DECISIVE_Z
    return float(getattr(module, "DECISIVE_Z", DEFAULT_DECISIVE_Z))


def _game_policy(game: Game[Any]) -> tuple[Rollout, Evaluate | None, int | None]:
    """The game's playout policy, evaluation and playout depth, from its bot module."""
    try:
        module = strategies.for_game(game)
    except strategies.NoStrategy:
        return random_rollout, None, None
    return (
        getattr(module, "rollout", random_rollout),
        getattr(module, "evaluate", None),
        getattr(module, "ROLLOUT_DEPTH", None),
    )
