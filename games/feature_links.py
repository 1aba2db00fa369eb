"""The links features offer on the core's pages, without the core naming them.

The core's pages and templates never name a feature's address (a test greps them:
tests/games/test_feature_hooks.py): removing a feature must not break them. Instead
each page asks the functions listed in a setting, by dotted path, as ``MATCH_NOTES``
does (``games/match_notes.py``), and shows what they offer, in the setting's order:

- ``NAV_LINKS``: the site's navigation, after "My matches": ``function(user)``;
- ``GAME_LINKS``: a game's page, under its rules link: ``function(game)``;
- ``REPLAY_LINKS``: beside "Back to the match" under a replay: ``function(match, user)``;
- ``MATCH_LINKS``: under a match's title, and in its "match over" email (notify adds
  them there, so the email needs no feature either): ``function(match, user)``;

each returning a ``FeatureLink`` or None (nothing to offer there, or not to this
person); ``PLAYER_PAGES``: where a player's name links, ``function(user)``
returning an address or None, the first address given wins (a name is one link); and

- ``HOME_SECTIONS``: sections of the home page, after its introduction;
- ``PLAY_SECTIONS``: sections of the play page, after the games:

``function(user)`` returning a ``FeatureSection`` (a titled list of links, each with
optional buttons that post at once, and the words for an empty list) or None. A
signed-in person's home page draws them in its side column, beside their matches.

The functions are imported once per list of paths (a test that changes the setting
gets its own), so asking costs what the functions themselves cost.

Hooks of the same kind, read elsewhere through ``hook_functions``: ``MATCH_NOTES``
(``games/match_notes.py``) and ``BLOCKS``, ``function(user_id)`` returning the ids of
the people that person blocked or was blocked by (``games/blocks.py``: no invitation
between them, no chat line of one shown to the other).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.module_loading import import_string

from accounts.models import User
from games.engine import Game
from games.models import Match

# The settings this module reads, each a list of dotted paths to functions: what
# tests/games/test_feature_hooks.py checks resolves.
HOOK_SETTINGS = (
    "NAV_LINKS",
    "GAME_LINKS",
    "REPLAY_LINKS",
    "MATCH_LINKS",
    "PLAYER_PAGES",
    "HOME_SECTIONS",
    "PLAY_SECTIONS",
)


@dataclass(frozen=True)
class FeatureButton:
    """A button beside a section's link that posts to ``url`` at once ("Accept", "Follow"):
    the page draws a form with the CSRF token and nothing else, so the view reads no other
    field. ``label``: what a screen reader hears, when ``text`` alone says too little out of
    its row ("Accept Ann's challenge": it must contain ``text``, the words a person sees and
    may say to voice control); ``secondary``: drawn quieter ("Decline")."""

    text: str
    url: str
    label: str = ""
    secondary: bool = False


@dataclass(frozen=True)
class FeatureLink:
    """A link a feature offers: ``text`` to ``url``. ``id``: the element's id, where a
    page's script or a test finds it; ``hint``: a few quiet words after it; ``script_url``:
    an address the page's script may ask for more (the replay's marks, from the review);
    ``buttons``: in a section, small forms after it (``FeatureButton``)."""

    text: str
    url: str
    id: str = ""
    hint: str = ""
    script_url: str = ""
    buttons: tuple[FeatureButton, ...] = ()


@dataclass(frozen=True)
class FeatureSection:
    """A part of a page a feature offers ("Tournaments"): a heading, ``title``, over its
    ``links`` (each with its hint and buttons), and ``more``, a link to all of them.
    ``id``: the heading's id, unique on the page (the section is labelled by it).
    ``empty``: the words shown when ``links`` is empty ("Nobody you follow is online"),
    for a section that keeps its place with nothing in it; a section with neither links
    nor ``empty`` is not drawn (offering None says the same)."""

    title: str
    id: str
    links: list[FeatureLink]
    more: FeatureLink | None = None
    empty: str = ""


@cache
def _functions(paths: tuple[str, ...]) -> list[Callable[..., Any]]:
    return [import_string(path) for path in paths]


def hook_functions(setting_name: str) -> list[Callable[..., Any]]:
    """The functions a hook setting lists, imported (once per list of paths)."""
    return _functions(tuple(getattr(settings, setting_name)))


def _offered(setting_name: str, *arguments: Any) -> list[FeatureLink]:
    links = (offer(*arguments) for offer in hook_functions(setting_name))
    return [link for link in links if link is not None]


def nav_links(user: User | AnonymousUser) -> list[FeatureLink]:
    """The features' links in the site's navigation, for ``user`` (signed in or not)."""
    return _offered("NAV_LINKS", user)


def game_links(game: Game[Any]) -> list[FeatureLink]:
    """The features' links on ``game``'s page (its leaderboard)."""
    return _offered("GAME_LINKS", game)


def replay_links(match: Match, user: User | AnonymousUser) -> list[FeatureLink]:
    """The features' links under ``match``'s replay, for ``user`` (the post-game review)."""
    return _offered("REPLAY_LINKS", match, user)


def match_links(match: Match, user: User | AnonymousUser) -> list[FeatureLink]:
    """The features' links about ``match`` for ``user``, on its page and in its "match
    over" email (the post-game review, once it is over)."""
    return _offered("MATCH_LINKS", match, user)


def _sections(setting_name: str, user: User | AnonymousUser) -> list[FeatureSection]:
    sections = (offer(user) for offer in hook_functions(setting_name))
    return [section for section in sections if section is not None]


def home_sections(user: User | AnonymousUser) -> list[FeatureSection]:
    """The features' sections on the home page, for ``user`` (signed in or not)."""
    return _sections("HOME_SECTIONS", user)


def play_sections(user: User | AnonymousUser) -> list[FeatureSection]:
    """The features' sections on the play page, for ``user`` (signed in or not)."""
    return _sections("PLAY_SECTIONS", user)


def player_pages(users: Iterable[User | None]) -> dict[int, str]:
    """Where each of ``users`` is linked when named (their profile), by user id; a user
    no feature gives a page is left out. Asked once per drawing of a list of players:
    the live part is drawn after every move."""
    finders = hook_functions("PLAYER_PAGES")
    pages: dict[int, str] = {}
    for user in users:
        if user is None or user.pk in pages:
            continue
        for find in finders:
            if (url := find(user)) is not None:
                pages[user.pk] = url
                break
    return pages
