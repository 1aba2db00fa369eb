"""A seat's own player reads themself as "you" in the log (issue 34, bug 3): "You drew
'lip'" stood beside "Ann gave Basic Bot 'lip'" in Ann's own log. ``render_text`` with a
viewer writes their mark as "you", with the verb after it agreeing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine import Game
from games.engine.log import render_text
from games.engine.registry import all_games
from tests.engine.playouts import random_game

NAMES = ["Ann", "Bob", "Cat", "Dov", "Eve", "Fin", "Gus", "Hal"]


@pytest.mark.parametrize(
    ("text", "viewer", "shown"),
    [
        ("{s0} gave {s1} 'lip'.", 0, "You gave Bob 'lip'."),
        ("{s1} gave {s0} 'lip'.", 0, "Bob gave you 'lip'."),
        ("{s0} asks {s1} for 3s. {s0} is out.", 0, "You ask Bob for 3s. You are out."),
        ("{s0}'s box opened; {s1}'s did not.", 0, "Your box opened; Bob's did not."),
        ("Round 2: {s0} wins", 0, "Round 2: You win"),
        ("{s0} gave {s1} 'lip'.", None, "Ann gave Bob 'lip'."),
        ("{s0} drew.", 1, "Ann drew."),
        ("{s4} drew.", 0, "Seat 5 drew."),
    ],
)
def test_the_viewers_own_mark_reads_you(text: str, viewer: int | None, shown: str) -> None:
    assert render_text(text, NAMES[:2], viewer) == shown


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_no_seats_own_log_names_its_player_or_breaks_the_grammar(game: Game[Any]) -> None:
    players = max(2, game.min_players)
    play = random_game(game, players, seed=34)
    for seat in range(players):
        for state in (*play.states[:: max(1, len(play.states) // 20)], play.final):
            for item in game.view(state, seat)["log"]:
                shown = render_text(str(item.get("text", "")), NAMES[:players], seat)
                assert not re.search(rf"\b{NAMES[seat]}\b", shown), (item, shown)
                assert not re.search(r"\b[Yy]ou (is|has|was|does|[a-z]+[^s]s)\b", shown), (item, shown)
