"""Ka-Blam!'s board: the discard pile's top and the colour to follow, the pick-up pile
(tap it to draw), the other hands as card backs, and the viewer's hand with a button
on every card that may be played (a Wild: one button per colour to name).

Every card shows its word (or an action card's name) large, with a button that
says it aloud; finished rounds show every hand, as the view does.

Everything revealed (a finished match's replay): every hand face up under its
player's name, and the pick-up pile in order, top first, each card marked as hidden
during the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.boards import generic
from games.boards.word_cards import (
    backs,
    card_name,
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

# Why a round was won, as "{who} ..." (the viewer reads "You played your last card").
REASONS = {
    "empty_hand": "played {their} last card",
    "explosion": "{was} the last player left after a KA-BLAM!",
    "all_passed": "held the lowest hand when no one could play or draw",
}


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind in ("play", "play_wild"):
        card = next((held for held in view.get("hand") or [] if held["id"] == action.get("card")), None)
        if card is None:
            return generic.label(view, action)
        if kind == "play_wild":
            return f"Play a Wild and choose {action['colour']}"
        return f"Play {card_name(card)}"
    if kind == "draw":
        return "Draw a card from the pick-up pile"
    if kind == "pass":
        return "Pass: nothing to play and nothing to draw"
    return generic.label(view, action)


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    colours = legend(view)
    top = view["top"]
    over = board.result is not None
    return {
        "prompt": _prompt(board),
        "seats": [_seat(board, seat, colours) for seat in seat_order(board)],
        "me": None if board.seat is None else _seat(board, board.seat, colours),
        "hand": _hand(board, colours),
        "top": face(top, colours),
        "follow": _follow(view, colours),
        "discard_count": len(view["discard"]),
        "pile_count": view["pile_size"],
        "pile": revealed_pile(view, "pile", colours, "The pick-up pile, top first"),
        "draw": board.action_for(type="draw"),
        "pass": board.action_for(type="pass"),
        "game_text": (
            "One round: its winner wins"
            if view["length"] == "short"
            else f"First to {view['target']} points wins"
        ),
        "dealer": board.name(view["dealer"]),
        "reversed": view["direction"] < 0,
        "passes": view["passes"],
        "rounds": [
            _round(board, done, colours, open_=over and index == len(view["rounds"]) - 1)
            for index, done in enumerate(view["rounds"])
        ],
        "winners": winners_text(board),
        "standings": standings(board, "point"),
        "legend": [{"colour": name, **entry} for name, entry in colours.items()],
    }


def _prompt(board: Board) -> str:
    view = board.view
    if board.result is not None:
        return f"Game over. {winners_text(board)}"
    if board.seat is not None and view["exploded"] == board.seat:
        return "KA-BLAM! You drew the Exploding card: you are out of this round."
    if board.my_turn:
        if board.action_for(type="draw"):
            return "Your turn. None of your cards match: draw a card from the pile."
        if board.action_for(type="pass"):
            return "Your turn. Nothing matches and nothing is left to draw: pass."
        return "Your turn. Play a card that matches: tap a glowing card."
    return f"{board.name(view['turn'])} is playing."


def _seat(board: Board, seat: int, colours: dict[str, dict[str, str]]) -> dict[str, Any]:
    view = board.view
    return {
        "seat": seat,
        "name": who(board, seat),
        "backs": backs(view["hand_sizes"][seat]),
        "hand": revealed_hand(board, seat, colours),  # everything revealed: in place of the backs
        "score": plural(view["scores"][seat], "point"),
        "exploded": view["exploded"] == seat,
        "is_turn": view["turn"] == seat,
        "is_next": view["turn"] is not None and _next_seat(view) == seat,
    }


def _next_seat(view: dict[str, Any]) -> int:
    """Who plays after the player on turn, as things stand (the exploded seat is skipped)."""
    players, seat = view["players"], view["turn"]
    while True:
        seat = (seat + view["direction"]) % players
        if seat != view["exploded"]:
            return seat


def _hand(board: Board, colours: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    hand = board.view["hand"] or []
    plays = {button.action["card"]: button for button in board.actions_of("play")}
    wild_choices: dict[str, list[dict[str, Any]]] = {}
    for button in board.actions_of("play_wild"):
        colour = button.action["colour"]
        wild_choices.setdefault(button.action["card"], []).append(
            {"act": button, "colour": colour, "hex": colours[colour]["hex"]}
        )
    return [
        {
            "face": face(card, colours),
            "act": plays.get(card["id"]),
            "choices": wild_choices.get(card["id"], []),
        }
        for card in hand
    ]


def _follow(view: dict[str, Any], colours: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The colour to follow and, in words, what matches the top card."""
    top, colour = view["top"], view["colour"]
    if top["kind"] == "wild":
        match = f"A Wild named {colour}: play a {colour} card or a Wild."
    elif top["kind"] == "word":
        match = f"Play a {colour} card, a {top['number']}, or a Wild."
    else:
        match = f"Play a {colour} card, another {top['label']}, or a Wild."
    return {"colour": colour, "hex": colours[colour]["hex"], "named": top["kind"] == "wild", "match": match}


def _round(
    board: Board, done: dict[str, Any], colours: dict[str, dict[str, str]], open_: bool
) -> dict[str, Any]:
    winner = done["winner"]
    mine = winner == board.seat
    why = REASONS.get(done["reason"], "won").format(
        their="your" if mine else "their", was="were" if mine else "was"
    )
    return {
        "round": done["round"],
        "open": open_,
        "text": (
            f"Round {done['round']}: {who(board, winner)} {why} and scored {plural(done['points'], 'point')}."
        ),
        "hands": [
            {
                "name": who(board, seat),
                "winner": seat == winner,
                "exploded": done["exploded"] == seat,
                "value": plural(done["values"][seat], "point"),
                "cards": [face(card, colours) for card in hand],
            }
            for seat, hand in enumerate(done["hands"])
        ],
    }
