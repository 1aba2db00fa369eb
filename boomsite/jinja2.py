"""The Jinja2 environment of the site's second template backend (settings.TEMPLATES).

The live part of the match page and every game's board (``templates/jinja2/games/``) are Jinja2
templates: after each move they are drawn once per kind of viewer, and Django's
template language, which interprets its nodes on every render, was a quarter of a
move's CPU (bench/README.md: "Drawing the live part"). Jinja2 compiles a template to Python
once. Every other page stays a Django template.

The boards print what they printed as Django templates, byte for byte:

- ``a.b`` looks ``b`` up as Django does, a dict's key before an attribute (Jinja2 tries
  the attribute first, and a board's data are mostly dicts: each lookup then raised
  and caught an AttributeError);
- a missing variable or key prints nothing and is false, at any depth
  (``ChainableUndefined``: ``a.b.c`` with no ``a.b`` too), whatever ``DEBUG`` says;
- quotes are escaped as Django escapes them, ``&#x27;`` and ``&quot;``: MarkupSafe
  writes ``&#39;`` and ``&#34;``, the same characters to a browser, and a rendered
  template has them rewritten (once per render: per printed value, it cost a sixth of
  a board);
- a template keeps its last newline;
- Django's own filters where Jinja2 has none: ``add`` (whole numbers added as Django
  adds them, truncating), ``capfirst``, ``pluralize``, ``floatformat``. Numbers print as
  ``str`` prints them, as Django's do in English without digit grouping.

Globals: ``url(name, *args)`` (``reverse``), ``static(path)`` (once per path), and the board helpers:
``actform`` (a legal action's button, ``{% call actform(act, "css") %}…{% endcall %}``),
``include_pure`` (a partial drawn once per values) and ``turn_clock``.
"""

from __future__ import annotations

import functools
from typing import Any

import jinja2
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import defaultfilters
from django.templatetags import static as django_static
from django.urls import reverse

from games.templatetags.boards import actform
from games.templatetags.partials import include_pure
from games.templatetags.turn_clocks import turn_clock


def environment(**options: Any) -> jinja2.Environment:
    options.update(undefined=jinja2.ChainableUndefined, keep_trailing_newline=True)
    env = BoardEnvironment(**options)
    env.globals.update(
        url=url,
        static=static,
        actform=actform,
        include_pure=include_pure,
        turn_clock=turn_clock,
    )
    env.filters.update(
        add=defaultfilters.add,
        capfirst=defaultfilters.capfirst,
        pluralize=defaultfilters.pluralize,
        floatformat=defaultfilters.floatformat,
    )
    return env


class DjangoQuotesTemplate(jinja2.Template):
    def render(self, *args: Any, **kwargs: Any) -> str:
        return super().render(*args, **kwargs).replace("&#39;", "&#x27;").replace("&#34;", "&quot;")


class BoardEnvironment(jinja2.Environment):
    template_class = DjangoQuotesTemplate

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def url(name: str, *args: Any) -> str:
    """``url("match", match.pk)``: Django's ``{% url %}``."""
    return reverse(name, args=args)


@functools.cache
def static(path: str) -> str:
    """``static("icons/speaker.svg")``: Django's ``{% static %}``, looked up once per path
    and process (the storage's manifest does not change while the site runs). A word
    card draws its speaker's icon: the lookups were a fifth of a Ka-Blam! seat's live part."""
    return django_static.static(path)


@receiver(setting_changed)
def _forget_static(**kwargs: Any) -> None:
    static.cache_clear()  # STATIC_URL or the storage changed (tests)
