"""Each game's JSON Schemas (draft 2020-12), by slug: what ``view`` returns and what an
action may be. Built from ``games/engine/<game>/schema.py`` (views) and the game's own
``action_schemas`` (actions); see json_schema.py. Pure data: the site serves them and
writes its per-game API pages from their descriptions."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from types import ModuleType

from games.engine.booby_trap import schema as booby_trap
from games.engine.boom_box import schema as boom_box
from games.engine.dont_go_boom import schema as dont_go_boom
from games.engine.go_fox import schema as go_fox
from games.engine.its_a_bomb import schema as its_a_bomb
from games.engine.json_schema import Schema, action_document
from games.engine.ka_blam import schema as ka_blam
from games.engine.read_and_grab import schema as read_and_grab
from games.engine.registry import get

# One line per game, as in registry.py; the conformance suite fails for a game left out.
_MODULES: dict[str, ModuleType] = {
    "booby-trap": booby_trap,
    "boom-box": boom_box,
    "dont-go-boom": dont_go_boom,
    "go-fox": go_fox,
    "its-a-bomb": its_a_bomb,
    "ka-blam": ka_blam,
    "read-and-grab": read_and_grab,
}


def has_schemas(slug: str) -> bool:
    return slug in _MODULES


def view_schema(slug: str) -> Schema:
    """The schema of ``view(state, seat)`` for the game ``slug`` (a fresh copy)."""
    return copy.deepcopy(_view_schema(slug))


def action_schema(slug: str) -> Schema:
    """The schema of one action of the game ``slug`` (a fresh copy)."""
    return copy.deepcopy(_action_schema(slug))


@functools.cache
def _view_schema(slug: str) -> Schema:
    build: Callable[[], Schema] = _module(slug).view_schema
    return build()


@functools.cache
def _action_schema(slug: str) -> Schema:
    game = get(slug)
    return action_document(slug, game.name, game.action_schemas, _module(slug).ACTION_NOTES)


def _module(slug: str) -> ModuleType:
    get(slug)  # no_such_game for a slug that names no game
    return _MODULES[slug]
