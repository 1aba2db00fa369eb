"""A final score in the game's own words (issue 34, bug 4): Go Fox! counts pairs, not
points, and the finished players' bar says so."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.boards import score_in_words
from games.engine import get
from games.live.fragments import live_html
from games.models import Match, Seat
from games.selectors import access
from games.services import match_resign


@pytest.mark.parametrize(
    ("slug", "score", "words"),
    [
        ("go-fox", 16, "16 pairs"),
        ("go-fox", 1, "1 pair"),
        ("boom-box", 3, "3 gems"),
        ("read-and-grab", 2, "2 sets"),
        ("dont-go-boom", 23, "23 points"),
        ("ka-blam", 4.0, "4 points"),
        ("booby-trap", 2.5, "2.5 points"),
    ],
)
def test_a_score_is_written_in_what_the_game_counts(slug: str, score: float, words: str) -> None:
    assert score_in_words(get(slug), score) == words


@pytest.mark.django_db
def test_the_finished_go_fox_players_bar_counts_pairs(duel: Match, ann: User, bob: User) -> None:
    match_resign(match_id=duel.pk, user=bob)
    Seat.objects.filter(match=duel, index=0).update(score=16)
    Seat.objects.filter(match=duel, index=1).update(score=1)
    shown = live_html(access(duel.pk, ann))
    assert "16 pairs" in shown and "1 pair" in shown
    assert "pts" not in shown
