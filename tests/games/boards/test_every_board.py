"""Every game's board, whatever it draws: every legal action is one button, nothing more,
spectators get none, and nothing the viewer may not know reaches the page.

The no-leak check renders the viewer's board twice: from the true state, and from a
state re-dealt by ``game.sample`` out of the viewer's own view (same view, different
hidden parts). Had the board read anything beyond the view, the two would differ.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import Game, all_games
from tests.games.boards.helpers import board_html, buttons, random_states, without_action_ids

GAMES = {game.slug: game for game in all_games()}


def _canonical(actions: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(action, sort_keys=True) for action in actions)


def _player_counts(game: Game[Any]) -> list[int]:
    return sorted({game.min_players, min(game.max_players, max(game.min_players, 3)), game.max_players})


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_legal_action_is_one_button_and_spectators_get_none(slug: str) -> None:
    game = GAMES[slug]
    for players in _player_counts(game):
        for index, state in enumerate(random_states(game, players, seed=players * 101)):
            if index % 3:
                continue
            waiting = game.to_act(state)
            for seat in range(players):
                page = board_html(game, state, seat)
                expected = game.legal_actions(state, seat) if seat in waiting else []
                assert _canonical(buttons(page)) == _canonical(expected), (slug, players, index, seat)
            assert buttons(board_html(game, state, None)) == []


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_board_shows_nothing_beyond_its_viewers_view(slug: str) -> None:
    game = GAMES[slug]
    rng = random.Random(7)
    for players in _player_counts(game):
        for index, state in enumerate(random_states(game, players, seed=players * 7)):
            if index % 9:
                continue
            for seat in [*range(players), None]:
                resampled = game.sample(game.view(state, seat), seat, rng)
                assert without_action_ids(board_html(game, state, seat)) == without_action_ids(
                    board_html(game, resampled, seat)
                ), (slug, players, index, seat)
