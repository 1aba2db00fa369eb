"""Go Fox!'s board: the viewer's hand grouped by number, each group with its "ask"
button (and, after a GO FOX!, its "lay this pair" button), the other hands as card
backs, everyone's pairs face up, and the pick-up pile (tap it to draw).

A turn asks for a number, not a card, so the buttons sit on the groups of a
number rather than on single cards.

Everything revealed (a finished match's replay): every hand face up under its
player's name, and the pick-up pile in order, top first, each card marked as hidden
during the game.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Any

from games.boards import generic
from games.boards.word_cards import (
    article,
    backs,
    does,
    face,
    legend,
    plural,
    revealed_hand,
    revealed_pile,
    seat_order,
    standings,
    who,
    winners_text,
)

if TYPE_CHECKING:
    from games.boards import Board

# What a final score counts (``score_in_words``): the pairs collected.
SCORE_UNITS = ("pair", "pairs")


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "ask":
        # The player asked by seat mark, which the board and the review turn into a name.
        return f"Ask {{s{view['asks']}}} for {article(action['number'])}"
    if kind == "lay":
        return f"Lay your pair of {action['number']}s"
    if kind == "draw":
        if view.get("phase") == "go_fox":
            return "Draw a card and end your turn"
        return "Your hand is empty: draw a card"
    return generic.label(view, action)


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    colours = legend(view)
    asked = view["asks"]
    return {
        "prompt": _prompt(board),
        "seats": [_seat(board, seat, colours) for seat in seat_order(board)],
        "me": None if board.seat is None else _seat(board, board.seat, colours),
        "groups": _groups(board, colours),
        "pile_count": view["pile_size"],
        "pile": revealed_pile(view, "pile", colours, "The pick-up pile, top first"),
        "draw": board.action_for(type="draw"),
        "turn_name": who(board, view["turn"]),
        "turn_asks": "ask" if view["turn"] == board.seat else "asks",  # for screen readers: "You ask Bob"
        "asked_name": who(board, asked),
        "winners": winners_text(board),
        "standings": standings(board, "pair"),
        "legend": [{"colour": name, **entry} for name, entry in colours.items()],
    }


def _prompt(board: Board) -> str:
    view = board.view
    if board.result is not None:
        return f"Game over: the pick-up pile is empty. {winners_text(board)}"
    turn, asked = view["turn"], view["asks"]
    if view["phase"] == "go_fox":
        number = _go_fox_number(view)
        said = f"{who(board, asked)} said GO FOX! (no {number}s)."
        if board.my_turn:
            if board.actions_of("lay"):
                return f"{said} Lay a pair from your hand, or draw a card."
            return f"{said} Draw a card from the pile."
        return f"{said} {does(board, turn, 'draw', 'draws')} now, and may lay a pair first."
    if board.my_turn:
        if board.action_for(type="draw"):
            return "Your turn. Your hand is empty: draw a card from the pile."
        return f"Your turn. Pick a number you hold and ask {who(board, asked)} for it."
    if asked == board.seat:
        return f"{who(board, turn)} is asking you for a number."
    return f"{does(board, turn, 'are', 'is')} asking {who(board, asked)} for a number."


def _go_fox_number(view: dict[str, Any]) -> int:
    """The number of the ask that just failed: the last GO FOX! in the log."""
    said = next(item for item in reversed(view["log"]) if item["event"] == "go_fox")
    return int(said["number"])


def _seat(board: Board, seat: int, colours: dict[str, dict[str, str]]) -> dict[str, Any]:
    view = board.view
    laid = view["pairs"][seat]
    return {
        "seat": seat,
        "name": who(board, seat),
        "backs": backs(view["hand_sizes"][seat]),
        "hand": revealed_hand(board, seat, colours),  # everything revealed: in place of the backs
        "pairs": [
            {"number": pair["number"], "cards": [face(card, colours) for card in pair["cards"]]}
            for pair in laid["pairs"]
        ],
        "count": plural(laid["count"], "pair"),
        "is_turn": view["turn"] == seat,
        "is_asked": view["asks"] == seat,
    }


def _groups(board: Board, colours: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """The viewer's hand by number, with each number's buttons."""
    view = board.view
    hand = sorted(view["hand"] or [], key=_number)  # stable: the engine's colour order stays
    groups = []
    for number, cards in groupby(hand, key=_number):
        ask = board.action_for(type="ask", number=number)
        groups.append(
            {
                "number": number,
                "cards": [face(card, colours) for card in cards],
                "ask": ask,
                "lay": board.action_for(type="lay", number=number),
            }
        )
    return groups


def _number(card: dict[str, Any]) -> int:
    return int(card["number"])
