"""``include_pure``: a partial drawn once per different values, then reused.

A board draws the same small partial dozens of times per render (Don't Go Boom's
card, up to ~80 times). A partial whose output depends on the values it is given and
nothing else (no outer variable, no request, no action button, no clock) is *pure*:
``include_pure("games/x/_card.html", face=card, mini=True)`` renders it with exactly
those values, once per process for each different set of values, and prints the same
text afterwards. The markup stays in the template.

The partials are Jinja2 templates (``templates/jinja2/``), as the boards are:
``include_pure`` is a global of their environment (boomsite/jinja2.py), and a Django
tag, ``{% include_pure "games/x/_card.html" face=card mini=True %}``, for the
how-to-play pages, which draw the boards' own partials.

Values must be plain data (dicts, lists, text, numbers, booleans, None, ranges): they are
the cache's key, compared by content and type (``1``, ``True`` and ``"1"`` differ;
so do a dict's key orders, which a template may iterate in). Anything else is a
mistake of the caller's template and raises. A missing value (a key a board's dict
leaves out: Jinja2's ``Undefined``) is passed as Django's templates passed it, as "".
"""

from __future__ import annotations

from typing import Any

import jinja2
from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import engines
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Pure partials draw a few hundred different things (cards of a deck, in a size and
# state); the bound only keeps a mistake from growing the cache without end.
MAX_CACHED = 4096
_rendered: dict[tuple[Any, ...], SafeString] = {}


@register.simple_tag
def include_pure(template_name: str, **values: Any) -> SafeString:
    """The partial ``template_name`` rendered with ``values`` alone (see the module's docstring)."""
    try:
        key = (template_name, *[(name, _frozen(value)) for name, value in values.items()])
    except TypeError as error:
        raise TypeError(f"{template_name}: {error}") from None
    html = _rendered.get(key)
    if html is None:
        values = {
            name: "" if isinstance(value, jinja2.Undefined) else value for name, value in values.items()
        }
        # The partial's own output, escaped as it was rendered.
        html = mark_safe(engines["jinja2"].get_template(template_name).render(values))
        if len(_rendered) >= MAX_CACHED:
            _rendered.clear()
        _rendered[key] = html
    return html


def _frozen(value: Any) -> Any:
    """``value`` as a hashable key that tells apart whatever a template prints differently.

    Exact types, not ``isinstance``: 1 == True == 1.0 and a safe string equals its unsafe
    twin, yet each prints differently, so a number and any ``str`` subclass carry their type."""
    kind = type(value)
    if kind is str or value is None:
        return value
    if kind is dict:
        return (dict, *[(key, _frozen(item)) for key, item in value.items()])
    if kind is list or kind is tuple:
        return (kind, *[_frozen(item) for item in value])
    if kind in _TYPED_SCALARS or isinstance(value, str):
        return (kind, value)
    if isinstance(value, jinja2.Undefined):
        return ""  # drawn as "" (the module's docstring)
    raise TypeError(
        f"include_pure takes plain data (dicts, lists, text, numbers, ranges), not {kind.__name__}: "
        "a partial that draws an object is not pure, include it with {% include %}"
    )


_TYPED_SCALARS = frozenset({int, bool, float, range})


@receiver(file_changed)
@receiver(setting_changed)
def _forget_rendered(**kwargs: Any) -> None:
    """Drawn again after an edit (a template changed under the development server's
    autoreloader, which keeps the process) or a setting changed (tests): both can
    change what a partial prints. Returns None, so the autoreloader still decides."""
    _rendered.clear()
