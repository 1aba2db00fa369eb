"""``include_pure`` (games/templatetags/partials.py): a partial drawn from its values
alone prints what ``{% include %}`` printed, in a board (Jinja2) and in a Django page
(the how-to-play pages' tag) alike, never confuses two values that print differently,
refuses what is not plain data, and forgets its drawings when settings change."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Template, engines
from django.test import override_settings
from django.utils.safestring import mark_safe

from games.boards import ActionButton

CARD = "games/dont-go-boom/_card.html"
BACK = "games/_word_card_back.html"
WORD_CARD = "games/_word_card.html"

FIVE = {"value": 5, "kind": "number", "label": "5"}
BOMB = {"value": 15, "kind": "bomb", "label": "Big Bad Bomb"}
SWAP = {"value": 7, "kind": "swap", "label": '7 <Swap> & "more"'}


def render(source: str, **values: Any) -> str:
    """``source`` as a board's Jinja2 template."""
    return str(engines["jinja2"].from_string(source).render(values))


def render_django(source: str, **values: Any) -> str:
    return Template(source).render(Context(values))


@pytest.mark.parametrize(
    ("face", "peeked", "mini", "was_down"),
    [
        (FIVE, None, False, False),
        (BOMB, None, True, False),
        (SWAP, None, False, True),
        (None, None, False, False),
        (None, SWAP, True, False),
        (None, "", False, ""),  # what a missing key is drawn as
    ],
)
def test_a_pure_partial_prints_what_include_prints(face: Any, peeked: Any, mini: bool, was_down: Any) -> None:
    values = {"face": face, "peeked": peeked, "mini": mini, "was_down": was_down}
    included = render(
        "{% with face=face, peeked=peeked, mini=mini, was_down=was_down %}"
        f'{{% include "{CARD}" %}}{{% endwith %}}',
        **values,
    )
    pure = f'{{{{ include_pure("{CARD}", face=face, peeked=peeked, mini=mini, was_down=was_down) }}}}'
    assert render(pure, **values) == included
    assert render(pure, **values) == included  # drawn once, then the same text again
    in_a_page = f'{{% load partials %}}{{% include_pure "{CARD}" face=face peeked=peeked mini=mini was_down=was_down %}}'
    assert render_django(in_a_page, **values) == included


def test_a_missing_value_is_drawn_as_an_empty_text() -> None:
    cell = {"face": None}  # no "peeked", no "was_down"
    pure = f'{{{{ include_pure("{CARD}", face=cell.face, peeked=cell.peeked, mini=False, was_down=cell.was_down) }}}}'
    empty = f'{{{{ include_pure("{CARD}", face=None, peeked="", mini=False, was_down="") }}}}'
    assert render(pure, cell=cell) == render(empty)


def test_values_that_print_differently_are_never_confused() -> None:
    source = '{{ include_pure("' + BACK + '", size="", caption=caption, glow=False) }}'
    captions = [1, True, 1.0, "1", "<b>", mark_safe("<b>")]
    drawn = [render(source, caption=caption) for caption in captions]
    assert [text.count("wc-back-caption") for text in drawn] == [1] * len(captions)
    assert '">1</span>' in drawn[0]
    assert '">True</span>' in drawn[1]
    assert '">1.0</span>' in drawn[2]
    assert '">1</span>' in drawn[3]
    assert '">&lt;b&gt;</span>' in drawn[4]
    assert '"><b></span>' in drawn[5]


def test_an_object_is_refused_naming_the_partial() -> None:
    button = ActionButton({"type": "draw"}, "Draw")
    source = '{{ include_pure("' + BACK + '", size="", caption=button, glow=False) }}'
    with pytest.raises(TypeError, match=r"games/_word_card_back\.html.*not ActionButton"):
        render(source, button=button)


def test_a_changed_setting_draws_again() -> None:
    card = {"id": 1, "kind": "word", "colour": "red", "hex": "#d7263d", "number": 1, "text": "cat", "fit": ""}
    source = '{{ include_pure("' + WORD_CARD + '", card=card, act=None, size="", glow=False) }}'
    assert "/elsewhere/" not in render(source, card=card)
    with override_settings(STATIC_URL="/elsewhere/"):
        assert 'src="/elsewhere/icons/speaker.svg' in render(source, card=card)
    assert "/elsewhere/" not in render(source, card=card)
