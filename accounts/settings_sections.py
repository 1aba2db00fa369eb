"""Sections other apps add to the account settings page, without accounts importing them.

Accounts import nothing from games (lint-imports), yet the page shows the vacation
forms, which post to games/notify (it owns the turn clocks they pause). So the page asks
the functions listed in ``settings.ACCOUNT_SETTINGS_SECTIONS`` by dotted path, as the
core asks ``MATCH_NOTES``: each takes the request and the user shown and returns the
section's HTML, drawn in the setting's order after "Email notifications".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString

from accounts.models import User


@cache
def _section_makers(paths: tuple[str, ...]) -> list[Callable[[HttpRequest, User], SafeString]]:
    return [import_string(path) for path in paths]


def settings_sections(request: HttpRequest, user: User) -> list[SafeString]:
    """Every listed section of ``user``'s settings page, drawn for ``request``."""
    return [make(request, user) for make in _section_makers(tuple(settings.ACCOUNT_SETTINGS_SECTIONS))]
