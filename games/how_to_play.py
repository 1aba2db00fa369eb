"""The how-to-play pages: one template per game, ``templates/games/<slug>/how_to_play.html``.

A page is optional, like a game's stylesheet: a game without one (a new game, the
tests' toy game) still has its game page and match pages, shows no "How to play"
link anywhere, and its how-to-play URL answers the site's 404.
"""

from __future__ import annotations

import functools

from django.template import TemplateDoesNotExist
from django.template.loader import get_template


def how_to_play_template(slug: str) -> str:
    return f"games/{slug}/how_to_play.html"


@functools.cache
def has_how_to_play(slug: str) -> bool:
    """Whether the game has a how-to-play page. Asked on every lobby and match page,
    so looked up once per game and process: templates do not appear while it runs."""
    try:
        get_template(how_to_play_template(slug))
    except TemplateDoesNotExist:
        return False
    return True
