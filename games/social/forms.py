"""The challenge form: the game, its options and the time control, built as the lobby
builds its new-match form (``games/forms.py``: ``option_form_fields``,
``options_from_cleaned``, the same time-control field), so a challenge offers what
the lobby offers and starts from the same defaults."""

from __future__ import annotations

import copy
from typing import Any

from django import forms

from accounts.models import User
from games.bots import levels_for
from games.engine import Game, all_games
from games.forms import MatchCreateForm, option_form_fields, options_from_cleaned


def challenge_games(player: User) -> list[Game[Any]]:
    """The games ``player`` can be challenged to: those played by two, and for a bot
    those its level plays."""
    games = [game for game in all_games() if game.min_players <= 2 <= game.max_players]
    if player.is_bot:
        games = [game for game in games if player.bot_level in levels_for(game)]
    return games


class GameChoiceForm(forms.Form):
    """The first step, sent by GET: which game (its options come with the next form)."""

    game = forms.ChoiceField(label="Game")

    def __init__(self, games: list[Game[Any]], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice = self.fields["game"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [(game.slug, game.name) for game in games]


class ChallengeForm(forms.Form):
    """The challenge itself, for one game: its options and the time control."""

    # The lobby's own field (a day per turn unless chosen otherwise; its words and choices).
    turn_limit = copy.deepcopy(MatchCreateForm.base_fields["turn_limit"])

    def __init__(self, game: Game[Any], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game = game  # the form's game: chosen by the page's address or the posted "game"
        self.fields.update(option_form_fields(game))
        self.option_names = [option.name for option in game.options]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{name}"] for name in self.option_names]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["options"] = options_from_cleaned(self.game, cleaned)
        return cleaned
