"""Options in words (games/boards/option_words.py): the one wording the lobby's picker,
the game page, the how-to-play pages and the match header share."""

from __future__ import annotations

import sys

import pytest

from games.boards.option_words import choice_words, options_in_words
from games.engine import get
from games.forms import MatchCreateForm
from tests.engine.toy_game import ToyHighCard
from tests.games import toy_board


def test_a_matchs_options_are_said_by_their_labels_and_choices_in_words() -> None:
    assert options_in_words(get("ka-blam"), {"length": "short", "target": 50}) == [
        {"label": "Game length", "words": "Short"},
        {"label": "Points to win (long game)", "words": "50"},
    ]


def test_a_yes_or_no_option_reads_yes_or_no_and_a_presenter_may_word_a_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = ToyHighCard()
    monkeypatch.setitem(sys.modules, f"games.boards.{game.module_name}", toy_board)
    words = options_in_words(game, {"hand_size": 2, "can_draw": False, "scoring": "low"})
    assert [option["words"] for option in words] == ["2", "Lowest total wins", "no"]


def test_an_option_the_game_does_not_declare_is_left_out() -> None:
    assert options_in_words(get("dont-go-boom"), {"rounds": 2, "jokers": True}) == [
        {"label": "Rounds", "words": "2"}
    ]


@pytest.mark.parametrize("slug", ["booby-trap", "its-a-bomb", "ka-blam"])
def test_the_lobby_picker_words_each_choice_as_everyone_else_does(slug: str) -> None:
    game = get(slug)
    form = MatchCreateForm(game)
    for option in game.options:
        if option.kind == "choice":
            field = form.fields[f"option_{option.name}"]
            expected = [(choice, choice_words(game, option.name, choice)) for choice in option.choices]
            assert list(field.choices) == expected  # type: ignore[attr-defined]
