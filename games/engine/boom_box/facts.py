"""What a seat knows about each box, from its view alone: a pure helper for bots.

A box's owner is public (its colour), and so is every claim made on it; its
content is known when it is opened, or to its owner. For the rest, the owner's
set (2 Booms, 3 one-gem, 1 two-gem) minus what the viewer has seen of it gives a
base chance of a Boom. Claims are signals, not facts: weighing them is the bot's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.boom_box.state import BOOM, BOX_SET


@dataclass(frozen=True, slots=True)
class BoxFacts:
    id: str
    owner: int
    place: str  # start_line | in_front | opened | removed | set_aside | unchosen
    holder: int
    claims: tuple[str, ...]  # oldest first: "gem" | "boom"
    claimed_by: tuple[int, ...]  # the seat that made each claim
    content: str | None  # "boom" | "gem" | "two_gems" when the viewer knows it
    boom_chance: float  # 1.0 or 0.0 when known; else from the owner's unseen boxes
    expected_gems: float  # the gems it would add if not a Boom, on average


def box_facts(view: dict[str, Any]) -> dict[str, BoxFacts]:
    """Per box id, what the view's seat knows about that box."""
    boxes: dict[str, dict[str, Any]] = view["boxes"]
    unseen: dict[int, list[int]] = {}
    for owner in range(view["players"]):
        remaining = list(BOX_SET)
        for item in boxes.values():
            if item["owner"] == owner and item["gems"] is not None:
                remaining.remove(item["gems"])
        unseen[owner] = remaining

    facts: dict[str, BoxFacts] = {}
    for box_id, item in boxes.items():
        if item["gems"] is not None:
            is_boom = item["gems"] == BOOM
            boom_chance = 1.0 if is_boom else 0.0
            expected_gems = float(item["gems"])
        else:
            remaining = unseen[item["owner"]]
            gem_boxes = [gems for gems in remaining if gems != BOOM]
            boom_chance = (len(remaining) - len(gem_boxes)) / len(remaining)
            expected_gems = sum(gem_boxes) / len(gem_boxes) if gem_boxes else 0.0
        facts[box_id] = BoxFacts(
            id=box_id,
            owner=item["owner"],
            place=item["place"],
            holder=item["holder"],
            claims=tuple(made["claim"] for made in item["passes"]),
            claimed_by=tuple(made["from"] for made in item["passes"]),
            content=item["content"],
            boom_chance=boom_chance,
            expected_gems=expected_gems,
        )
    return facts
