"""Template helpers for boards: a legal action as a button, however the board draws it,
and a game's stylesheet.

``{% call actform(act) %}...{% endcall %}`` (the boards are Jinja2 templates:
boomsite/jinja2.py makes ``actform`` a global) wraps whatever a board draws for an
action (a card in SVG, a word, a label) in a form that posts the action back. Without
JavaScript the form posts to the match's action URL; with it, ``static/js/match.js``
sends the same action over the WebSocket instead. Each rendering carries a fresh
action id, so a form sent twice (a double click, a resubmitted page) plays once.

``{% game_stylesheet slug %}`` is a Django tag, for the pages around a board.
"""

from __future__ import annotations

import functools
import uuid
from html import escape
from typing import Any

import jinja2
from django import template
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html
from markupsafe import Markup

from games.boards import ActionButton

register = template.Library()


@jinja2.pass_context
def actform(
    context: jinja2.runtime.Context, act: Any, css_class: Any = None, *, caller: Any = None
) -> Markup:
    """``{% call actform(act) %}…{% endcall %}`` or ``{% call actform(act, "extra-class") %}…``:
    the board's markup inside becomes the button of the legal action ``act`` (its label
    when there is none). It posts to the render's ``act_url`` with its ``csrf_token``."""
    if not isinstance(act, ActionButton):
        return Markup("")  # no such legal action now: draw nothing clickable
    # The board's own markup (SVG, spans): rendered by the template engine, so already escaped.
    inner = caller().strip() if caller is not None else ""
    # Each value escaped once, as Django's format_html escapes (html.escape): a board
    # has up to hundreds of buttons (a Don't Go Boom Swap).
    action = escape(act.json)
    label = escape(act.label)
    css = escape("act" if css_class is None else f"act {css_class}")
    return Markup(
        f'<form method="post" action="{escape(context.get("act_url") or "")}" class="act-form">'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(context.get("csrf_token") or "")}">'
        f'<input type="hidden" name="ply" value="{escape(str(getattr(context.get("board"), "ply", "")))}">'
        f'<input type="hidden" name="action_id" value="{uuid.uuid4()}">'
        f'<input type="hidden" name="action" value="{action}">'
        f'<button type="submit" class="{css}" data-action="{action}" title="{label}" aria-label="{label}">'
        f"{inner or label}</button></form>"
    )


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
