"""Words for any action, from its fields: the fallback a game's presenter can build on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.boards import Board


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = str(action.get("type", "")).replace("_", " ").capitalize()
    fields = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in action.items() if key != "type")
    return f"{kind} ({fields})" if fields else kind


def prepare(board: Board) -> dict[str, Any]:
    return {}
