"""Words for any action, from its fields: the fallback a game's presenter's ``label`` can use;
and players' names in labels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass


def words(name: str) -> str:
    """A code name in words: "two_teams" -> "Two teams", "high-card" -> "High card"."""
    return name.replace("_", " ").replace("-", " ").capitalize()


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = str(action.get("type", "")).replace("_", " ").capitalize()
    fields = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in action.items() if key != "type")
    return f"{kind} ({fields})" if fields else kind
