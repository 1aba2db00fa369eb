"""A game's options in words, as players read them.

The one place for this wording: the lobby's picker (``games/forms.py``), the game
page, the how-to-play pages and the match header all ask here, so a choice reads
the same everywhere. An option is named by the label the engine declares; a choice
by what the game's presenter says of it (its ``choice_label`` hook, see
``games/boards/__init__.py``), else by its own code name in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards import generic, presenter_for
from games.engine import Game
from games.engine.options import Option


def choice_words(game: Game[Any], option: str, choice: str) -> str:
    """One choice of a choice option: "2. Lab N457 (standard, ...)", "Short"."""
    hook = getattr(presenter_for(game), "choice_label", None)
    label = hook(option, choice) if hook is not None else None
    return label if label is not None else generic.words(choice)


def value_words(game: Game[Any], option: Option, value: object) -> str:
    """Any option's value: a choice in words, a number as it is, yes or no."""
    if option.kind == "choice":
        return choice_words(game, option.name, str(value))
    if option.kind == "bool":
        return "yes" if value else "no"
    return str(value)


def options_in_words(game: Game[Any], options: Mapping[str, object]) -> list[dict[str, str]]:
    """A match's options as ``{"label", "words"}``, in the order the game declares them.

    Only options the game declares are shown: a stored name the game no longer knows
    has no label to show, and it no longer changes how the game plays either.
    """
    return [
        {"label": option.label, "words": value_words(game, option, options[option.name])}
        for option in game.options
        if option.name in options
    ]


def option_described(game: Game[Any], option: Option) -> dict[str, Any]:
    """What the game page and the how-to-play pages list of one option, in words."""
    return {
        "label": option.label,
        "help": option.help,
        "kind": option.kind,
        "choices": [choice_words(game, option.name, choice) for choice in option.choices],
        "minimum": option.minimum,
        "maximum": option.maximum,
        "default": value_words(game, option, option.default),
    }
