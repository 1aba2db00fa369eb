"""Fixtures of the profile tests: a third player, and Ann's hand-made record."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.models import Match
from tests.games.history.helpers import finished
from tests.games.profiles.helpers import minutes


@pytest.fixture
def carl(make_person: Callable[..., User]) -> User:
    return make_person("carl", display_name="Carl")


@pytest.fixture
def anns_matches(ann: User, bob: User, carl: User) -> dict[str, Match]:
    """Ann's finished matches, in finishing order, by what each is for her.

    Finished matches are written as the services leave them (``finished``): the outcomes
    must be chosen, shared places and resignations included, which random play through
    the services cannot promise."""
    go_fox = [
        ("win", finished([ann, bob], ranks=[1, 2], finished_at=minutes(1))),
        ("shared first", finished([bob, ann, carl], ranks=[1, 1, 3], finished_at=minutes(2))),
        ("loss, 2nd", finished([bob, ann, carl], ranks=[1, 2, 3], finished_at=minutes(3))),
        ("win 2", finished([ann, carl], ranks=[1, 2], finished_at=minutes(4))),
        ("win 3", finished([carl, ann], ranks=[2, 1], finished_at=minutes(5))),
        # Two matches finishing at the same moment: the match's id orders them.
        ("win 4", finished([ann, bob], ranks=[1, 2], finished_at=minutes(6))),
        ("loss, 3rd", finished([ann, bob, carl], ranks=[3, 2, 1], finished_at=minutes(6))),
        ("private win", finished([ann, carl], ranks=[1, 2], finished_at=minutes(7), visibility="private")),
        # Out of the game: a loss whatever the ranks say.
        ("resigned", finished([ann, bob], ranks=[2, 1], finished_at=minutes(8), resigned={0: True})),
        ("win 5", finished([bob, ann], ranks=[2, 1], finished_at=minutes(9))),
        ("win 6", finished([ann, bob], ranks=[1, 2], finished_at=minutes(10))),
    ]
    ka_blam = [
        ("ka-blam 2nd", finished([bob, ann, carl], game="ka-blam", ranks=[1, 2, 3], finished_at=minutes(11)))
    ]
    its_a_bomb = [
        (
            "team won",
            finished([ann, bob], game="its-a-bomb", ranks=[1, 1], finished_at=minutes(12),
                     result={"won": True, "scores": [3, 3], "ranks": [1, 1]}),
        ),
        (
            "team lost",
            finished([ann, carl], game="its-a-bomb", ranks=[1, 1], finished_at=minutes(13),
                     result={"won": False, "scores": [0, 0], "ranks": [1, 1]}),
        ),
    ]  # fmt: skip
    finished([bob, carl], finished_at=minutes(14))  # not Ann's
    return dict(go_fox + ka_blam + its_a_bomb)
