"""Template tags for boards: a legal action as a button, however the board draws it.

``{% actform act %}...{% endactform %}`` wraps whatever a board draws for an action
(a card in SVG, a word, a label) in a form that posts the action back. Without
JavaScript the form posts to the match's action URL; with it, ``static/js/match.js``
sends the same action over the WebSocket instead. Each rendering carries a fresh
action id, so a form sent twice (a double click, a resubmitted page) plays once.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from django import template
from django.contrib.staticfiles import finders
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.boards import ActionButton

register = template.Library()


class ActFormNode(template.Node):
    def __init__(self, act: FilterExpression, css_class: FilterExpression | None, nodelist: NodeList):
        self.act = act
        self.css_class = css_class
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        act = self.act.resolve(context)
        if not isinstance(act, ActionButton):
            return ""  # no such legal action now: draw nothing clickable
        board = context.get("board")
        match_id = context.get("match_id")
        # The board's own markup (SVG, spans): rendered by the template engine, so already escaped.
        inner = mark_safe(self.nodelist.render(context).strip()) or act.label
        css = "act"
        if self.css_class is not None:
            css += f" {self.css_class.resolve(context)}"
        action = act.json
        return format_html(
            '<form method="post" action="{}" class="act-form">'
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
            '<input type="hidden" name="ply" value="{}">'
            '<input type="hidden" name="action_id" value="{}">'
            '<input type="hidden" name="action" value="{}">'
            '<button type="submit" class="{}" data-action="{}" title="{}" aria-label="{}">{}</button>'
            "</form>",
            _act_url(context, match_id),
            context.get("csrf_token") or "",
            getattr(board, "ply", ""),
            uuid.uuid4(),
            action,
            css,
            action,
            act.label,
            act.label,
            inner,
        )


# Where a render keeps the match's action URL: a board has up to hundreds of buttons
# (a Don't Go Boom Swap), one URL, and ``reverse`` was a third of a button's cost.
_URLS_KEY = object()


def _act_url(context: Context, match_id: Any) -> str:
    """The match's action URL (empty without a match: a replay), looked up once per render."""
    if not match_id:
        return ""
    # The render context's bottom level lives as long as the outermost template's
    # render, included templates' buttons and all (as ``{% include %}``'s own cache).
    scope: dict[Any, Any] = context.render_context.dicts[0]
    urls: dict[Any, str] = scope.setdefault(_URLS_KEY, {})
    if match_id not in urls:
        urls[match_id] = reverse("match_act", args=[match_id])
    return urls[match_id]


@register.tag("actform")
def actform(parser: Parser, token: Token) -> ActFormNode:
    """``{% actform act %}…{% endactform %}`` or ``{% actform act "extra-class" %}…``."""
    bits = token.split_contents()
    if len(bits) not in (2, 3):
        raise template.TemplateSyntaxError("actform takes an action and an optional CSS class")
    nodelist = parser.parse(("endactform",))
    parser.delete_first_token()
    css = parser.compile_filter(bits[2]) if len(bits) == 3 else None
    return ActFormNode(parser.compile_filter(bits[1]), css, nodelist)


@register.simple_tag(takes_context=True)
def action_for(context: Context, **fields: Any) -> ActionButton | None:
    """``{% action_for type="flip" position=3 as act %}``: the legal action with these fields, or None."""
    board = context.get("board")
    return board.action_for(**fields) if board is not None else None


@register.filter
def seat_name(board: Any, seat: Any) -> str:
    return str(board.name(seat)) if board is not None else ""


@register.simple_tag
def game_stylesheet(slug: str) -> str:
    """The link to ``static/css/games/<slug>.css`` when the game has one, else nothing:
    a stylesheet is optional, so a new game can start with its board template alone."""
    path = _stylesheet_path(slug)
    if path is None:
        return ""
    return format_html('<link rel="stylesheet" href="{}">', static(path))


@functools.cache
def _stylesheet_path(slug: str) -> str | None:
    # Looked up once per game and process, in the source folders (as collectstatic does).
    path = f"css/games/{slug}.css"
    return path if finders.find(path) else None
