"""The presenter of the toy eighth game (tests/engine/toy_game.py) in test_adding_a_game.py.

What a real game's ``games/boards/<module>.py`` holds: the words on each button and
the extra context its template draws. It is installed as
``games.boards.toy_high_card`` for the length of a test, as if the file were there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.boards import Board


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    if action["type"] == "play":
        card = next(card for hand in view["hands"] for card in hand if card["id"] == action["card"])
        return f"Play your {card['value']}"
    return {"ready": "I am ready", "draw": "Draw a card"}[action["type"]]


def prepare(board: Board) -> dict[str, Any]:
    return {
        "seats": [
            {"name": board.name(seat), "played": [card["value"] for card in pile], "score": score}
            for seat, (pile, score) in enumerate(zip(board.view["played"], board.view["scores"], strict=True))
        ]
    }


def choice_label(option: str, choice: str) -> str | None:
    return "Lowest total wins" if (option, choice) == ("scoring", "low") else None
