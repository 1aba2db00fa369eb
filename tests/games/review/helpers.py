"""Helpers of the review tests: a short finished Go Fox! duel played through the services,
where the test decides how Ann plays (so it knows where the expert will disagree)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

from accounts.models import User
from games.engine import Game
from games.models import Match
from games.review import expert
from games.services import match_resign, match_submit_action

# The expert's budget in these tests: enough to search, small enough to take
# milliseconds (the site's is expert.ITERATIONS); a review's row carries its own.
ITERATIONS = 30

# How Ann plays one decision: (game, state, her legal actions, ply) -> her action.
Chooser = Callable[[Game[Any], Any, list[dict[str, Any]], int], dict[str, Any]]


def expert_choice(match: Match, state: Any, seat: int, ply: int) -> dict[str, Any]:
    """What the review will say the expert plays here (the same seeded search)."""
    game = match.engine
    found = expert.opinion(
        game, game.view(state, seat), seat, match_id=match.pk, ply=ply, iterations=ITERATIONS
    )
    return found.action


def finish_duel(
    duel: Match, ann: User, bob: User, *, ann_moves: int = 3, ann_plays: Chooser | None = None, seed: int = 7
) -> Match:
    """Play the duel (Ann seat 0, Bob seat 1) until Ann has made ``ann_moves`` moves of her
    own, Bob at random and Ann by ``ann_plays`` (at random by default); then Bob resigns,
    which ends a two-player match. Returns it, finished."""
    rng = random.Random(seed)
    people = {0: ann, 1: bob}
    made = 0
    while made < ann_moves:
        duel.refresh_from_db()
        game = duel.engine
        state = duel.decoded_state()
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if seat == 0 and ann_plays is not None:
            action = ann_plays(game, state, legal, duel.ply)
        else:
            action = rng.choice(legal)
        match_submit_action(
            match_id=duel.pk, user=people[seat], action=action, ply=duel.ply, action_id=str(uuid.uuid4())
        )
        made += seat == 0
    match_resign(match_id=duel.pk, user=bob)
    duel.refresh_from_db()
    assert duel.status == Match.Status.FINISHED
    return duel


def disagree_then_agree(match: Match) -> Chooser:
    """Ann's play that gives a known review: on her first decision with a choice she plays
    something the expert would not; on every other, what it would."""
    disagreed: list[int] = []

    def choose(game: Game[Any], state: Any, legal: list[dict[str, Any]], ply: int) -> dict[str, Any]:
        best = expert_choice(match, state, 0, ply)
        if len(legal) > 1 and not disagreed:
            disagreed.append(ply)
            return next(action for action in legal if expert.action_key(action) != expert.action_key(best))
        return best

    return choose
