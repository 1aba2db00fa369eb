from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Match
from tests.games.review.helpers import disagree_then_agree, finish_duel


@pytest.fixture
def finished(duel: Match, ann: User, bob: User) -> Match:
    """The duel, over: Ann made three moves, the first with a choice one the expert would
    not have made, the others the expert's own."""
    return finish_duel(duel, ann, bob, ann_moves=3, ann_plays=disagree_then_agree(duel))
