"""Read and Grab's board: the middle pile (tap it to turn the top card over), the card
just turned over, shown big to read, and every player's table: incomplete sets face
up by number, complete sets turned over. After a flip, each set that may be grabbed
carries its "grab" button, and a plain button declines.

Nothing is hidden but the order of the middle, so every table is drawn in full.
Everything revealed (a finished match's replay) lays the middle out face up, top
first, each card marked as face down during the game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.boards import generic
from games.boards.word_cards import (
    does,
    face,
    legend,
    plural,
    revealed_pile,
    standings,
    who,
    winners_text,
)

if TYPE_CHECKING:
    from games.boards import Board

# What a final score counts (``score_in_words``): the sets completed (cards held only break ties).
SCORE_UNITS = ("set", "sets")


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "flip":
        return "Turn over the top card"
    if kind == "grab" and view.get("flipped"):
        # ``label`` sees no names; the board puts the player's name in (``_tables``).
        return f"Grab {{s{action['from']}}}'s {view['flipped']['number']}s"
    if kind == "pass":
        return "Do not grab: end your turn"
    return generic.label(view, action)


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    colours = legend(view)
    flipped = view["flipped"]
    last = _last_flip(view)
    return {
        "prompt": _prompt(board),
        "tables": _tables(board, colours),
        "middle_count": view["middle_size"],
        "middle": revealed_pile(view, "middle", colours, "The middle, top first"),
        "flip": board.action_for(type="flip"),
        "pass": board.action_for(type="pass"),
        "flipped": None if flipped is None else face(flipped, colours),
        # Between turns, the card turned over last stays on show (from the log), to read again.
        "last": None if flipped is not None or last is None else face(last["card"], colours),
        "last_name": "" if last is None else who(board, last["seat"]),
        "turn_name": who(board, view["turn"]),
        "winners": winners_text(board),
        "standings": _standings(board),
        "legend": [{"colour": name, **entry} for name, entry in colours.items()],
    }


def _prompt(board: Board) -> str:
    view = board.view
    if board.result is not None:
        return f"Game over: the middle is empty. {winners_text(board)}"
    flipped = view["flipped"]
    if flipped is None:
        if board.my_turn:
            return "Your turn. Tap the middle pile to turn over the top card, then read it."
        return f"{does(board, view['turn'], 'turn', 'turns')} over the next card."
    number = flipped["number"]
    if board.my_turn:
        return f'You turned over "{flipped["word"]}", a {number}. Grab a set of {number}s, or do not grab.'
    return f'{who(board, view["turn"])} turned over "{flipped["word"]}" and may grab a set of {number}s.'


def _last_flip(view: dict[str, Any]) -> dict[str, Any] | None:
    return next((item for item in reversed(view["log"]) if item["event"] == "flip"), None)


def _tables(board: Board, colours: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """Every player's table, the viewer's first, then the others in seat order after them."""
    view = board.view
    players = len(view["tables"])
    first = 0 if board.seat is None else board.seat
    flipped = view["flipped"]
    number = None if flipped is None else flipped["number"]
    tables = []
    for step in range(players):
        seat = (first + step) % players
        table = view["tables"][seat]
        name = who(board, seat)
        sets = []
        for shown in table["sets"]:
            grab = board.action_for(type="grab", **{"from": seat}) if shown["number"] == number else None
            sets.append(
                {
                    "number": shown["number"],
                    "cards": [
                        {**face(card, colours), "new": flipped is not None and card["id"] == flipped["id"]}
                        for card in shown["cards"]
                    ],
                    "count": len(shown["cards"]),
                    "hot": shown["number"] == number,  # the number just turned over
                    "grab": None if grab is None else replace(grab, label=f"Grab {name}'s {number}s"),
                }
            )
        tables.append(
            {
                "seat": seat,
                "name": name,
                "is_me": seat == board.seat,
                "is_turn": view["turn"] == seat,
                "sets": sets,
                "complete": [done["number"] for done in table["complete"]],
                "complete_text": plural(table["complete_count"], "complete set"),
                "cards_text": plural(table["card_count"], "card"),
            }
        )
    return tables


def _standings(board: Board) -> list[dict[str, Any]]:
    """Complete sets first; cards held break ties (the result gives both)."""
    rows = standings(board, "complete set")
    held = (board.result or {}).get("cards_held")
    if held:
        for row in rows:
            row["score"] = f"{row['score']}, {plural(held[row['seat']], 'card')}"
    return rows
