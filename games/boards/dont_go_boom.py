"""Don't Go Boom's board: every player's 3x3 minefield, the deck, the discard pile and the
card in hand, built from one seat's view (see games/boards/__init__.py).

Where the buttons go:

- ``choose``, ``flip`` and ``keep`` are the viewer's own cards: the card is the button.
- ``peek`` is a small button under the face-down card it looks at.
- ``draw`` is the deck or the top discard; ``discard`` and ``draw_again`` sit by the held card.
- ``swap``: a Swap offers up to 5 x 81 + 36 actions, too many to lay out one by one.
  The board first asks which of your cards you give (radio buttons, no JavaScript),
  then shows, over every minefield, only the swaps that give that card: each swap is
  one button, and CSS (``static/css/games/dont-go-boom.css``) picks which are visible.
  A swap of two of your own cards is listed once (lower position first), so its button
  moves to the other card of the pair whichever of the two you picked first.

Everything revealed (a finished match's replay, ``view["revealed"]``): a face-down card
is drawn with its face, marked "was face down" (a striped corner and a dashed outline,
and said so to screen readers), as is a card held from the deck; each seat's first-flip
pick shows while they choose, and the deck is laid out in order, top first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.boards import ActionButton, Board

POSITIONS = range(9)
# The word on a button laid over one of your cards (its full label is the button's title).
_VERBS = {"choose": "Choose", "flip": "Turn up", "keep": "Keep"}
KIND_WORDS = {"swap": "Swap", "peek": "Peek", "draw_again": "Draw Again"}


def _position_name(position: int) -> str:
    """A place in a minefield as people say it ("row 1, column 3"); the view's ``name`` is for programs."""
    return f"row {position // 3 + 1}, column {position % 3 + 1}"


def _seat_mark(seat: int) -> str:
    # Labels see the view only, not display names: a player is named by a seat mark, as in
    # log texts, and build_board puts the names in.
    return f"{{s{seat}}}"


def _card_at(view: dict[str, Any], seat: int, position: int) -> dict[str, Any]:
    card: dict[str, Any] = view["minefields"][seat]["cards"][position]
    return card


def _describe(card: dict[str, Any]) -> str:
    """A minefield card as the viewer knows it: "the 4", "the face-down card (you peeked: 11)"."""
    if card["face_up"]:
        return _the(card)
    if card.get("peeked"):
        return f"the face-down card (you peeked: {card['peeked']['label']})"
    return "the face-down card"


def _the(card: dict[str, Any]) -> str:
    return "a Big Bad Bomb" if card["kind"] == "bomb" else f"the {card['label']}"


def _is_bomb(card: dict[str, Any] | None) -> bool:
    return card is not None and card.get("kind") == "bomb"


def _held_card(view: dict[str, Any]) -> dict[str, Any] | None:
    held = view.get("held")
    return held["card"] if held and held.get("card") else None


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    seat = view.get("seat")
    me = seat if isinstance(seat, int) else 0
    held = _held_card(view)
    held_words = _the(held) if held else "the card"
    if kind == "choose":
        where = _position_name(action["position"])
        return f"Choose your card in {where} to turn face up"
    if kind == "draw":
        if action["from"] == "discard" and view["discard"]:
            return f"Take {_the(view['discard'][0])} from the discard pile"
        return "Draw a card from the deck"
    if kind == "keep":
        position = action["position"]
        replaced = _describe(_card_at(view, me, position))
        verb = "Place" if _is_bomb(held) else "Keep"
        return f"{verb} {held_words} in {_position_name(position)}, replacing {replaced}"
    if kind == "discard":
        if view["minefields"][me]["face_down_count"]:
            return f"Discard {held_words}, then turn up one of your face-down cards"
        return f"Discard {held_words}"
    if kind == "flip":
        return f"Turn up your face-down card in {_position_name(action['position'])}"
    if kind == "peek":
        return f"Peek at your face-down card in {_position_name(action['position'])}"
    if kind == "draw_again":
        return f"Use {held_words}: discard it and draw a new card from the deck"
    if kind == "swap":
        position, target_seat, target = action["position"], action["target_seat"], action["target_position"]
        mine = f"your card in {_position_name(position)} ({_describe(_card_at(view, me, position))})"
        theirs_card = _describe(_card_at(view, target_seat, target))
        if target_seat == me:
            return f"Swap {mine} with your card in {_position_name(target)} ({theirs_card})"
        theirs = f"{_seat_mark(target_seat)}'s card in {_position_name(target)} ({theirs_card})"
        return f"Swap {mine} for {theirs}"
    return str(kind)


# -- prepare ------------------------------------------------------------------------


def _is_revealed(board: Board) -> bool:
    """Everything revealed: a finished match's replay draws every hidden card's face."""
    return bool(board.view.get("revealed"))


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    players = int(view["players"])
    seat = board.seat
    # Seats from the viewer round the table (everyone in seat order for a spectator).
    start = seat if seat is not None else 0
    order = [(start + step) % players for step in range(players)]
    return {
        "prompt": _prompt(board),
        "final_lap": _final_lap(board),
        "minefields": [_minefield(board, owner) for owner in order],
        "deck": _deck(board),
        # Revealed: the whole deck, top first (the next card drawn is the first).
        "deck_order": (view["deck"].get("cards") or []) if _is_revealed(board) else [],
        "discard": _discard(board),
        "removed": view["removed"],
        "held": _held(board),
        "swap": _swap(board, order),
        "scores": _scores(board),
        "last_round": _last_round(board, order),
        "standings": _standings(board),
    }


def _prompt(board: Board) -> str:
    """One line: what the viewer must do now, or whom the table waits for."""
    view = board.view
    phase = view["phase"]
    if board.result is not None or phase == "over":
        return "The game is over: " + _winners_text(board) + "."
    waiting = [seat for seat in view["to_act"] if seat != board.seat]
    if phase == "choose":
        if board.my_turn:
            return "Choose one of your face-down cards to turn face up (everyone chooses at once)."
        if board.seat is not None and view["my_choice"] is not None:
            return f"You chose your card in {_position_name(view['my_choice'])}. Waiting for {board.names_text(waiting)} to choose."
        return f"Waiting for {board.names_text(waiting)} to choose a card to turn face up."
    turn = view["turn"]
    if not board.my_turn:
        doing = {
            "draw": "to draw a card",
            "decide": "to decide what to do with the card in hand",
            "flip": "to turn up a face-down card",
        }.get(phase, "to play")
        return f"Waiting for {board.name(turn)} {doing}."
    if phase == "draw":
        if view["discard"]:
            return f"Your turn: draw from the deck, or take {_the(view['discard'][0])} from the discard pile."
        return "Your turn: draw a card from the deck."
    if phase == "flip":
        return "Turn up one of your face-down cards: click it."
    held = view["held"] or {}
    card = held.get("card") or {}
    if card.get("kind") == "bomb":
        return "You drew a Big Bad Bomb: it must replace one of your cards. Click the card it replaces."
    if held.get("must_keep"):
        return f"Keep {_the(card)}: click the card of your minefield it replaces."
    action = held.get("action")
    uses = {
        "swap": "use it to swap two cards (pick yours, then the other)",
        "peek": "use it to peek at one of your face-down cards",
        "draw_again": "use it to draw a new card",
    }
    text = f"You drew {_the(card)}: keep it (click the card it replaces)"
    if action in uses:
        return f"{text}, discard it, or {uses[action]}."
    if view["minefields"][board.seat]["face_down_count"]:
        return f"{text}, or discard it and turn up a face-down card."
    return f"{text}, or discard it."


def _winners_text(board: Board) -> str:
    result = board.result or {}
    ranks = result.get("ranks") or []
    scores = result.get("scores") or board.view["totals"]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    if not winners:
        return "the scores are final"
    best = scores[winners[0]]
    verb = "wins" if len(winners) == 1 else "share the win"
    if winners == [board.seat]:
        return f"you win with {best} points"
    return f"{board.names_text(winners)} {verb} with {best} points"


def _final_lap(board: Board) -> str:
    lap = board.view["final_lap"]
    if not lap["active"] or board.view["phase"] == "over":
        return ""
    trigger = lap["triggered_by"]
    who = "Your" if trigger == board.seat else f"{board.name(trigger)}'s"
    remaining = lap["remaining"]
    if not remaining:
        return f"Final lap: {who} minefield is all face up."
    return f"Final lap: {who} minefield is all face up. One last turn each for {board.names_text(remaining)}."


def _pick(board: Board, owner: int) -> int | None:
    """The position ``owner`` chose to turn up first, where the board may show it: the
    viewer's own choice, or every seat's when everything is revealed (``as_seen_by``)."""
    view = board.view
    if _is_revealed(board):
        choice: int | None = (view.get("as_seen_by") or {}).get(str(owner), {}).get("my_choice")
        return choice
    return view["my_choice"] if owner == board.seat else None


def _minefield(board: Board, owner: int) -> dict[str, Any]:
    view = board.view
    field = view["minefields"][owner]
    mine = owner == board.seat
    phase = view["phase"]
    held = view["held"]
    revealed = _is_revealed(board)
    pick = _pick(board, owner) if phase == "choose" else None
    cells = []
    for card in field["cards"]:
        position = card["position"]
        primary: ActionButton | None = None
        verb = ""
        peek: ActionButton | None = None
        if mine:
            # What the phase asks of a card is a button laid over that card.
            for kind in ("choose", "flip", "keep"):
                found = board.action_for(type=kind, position=position)
                if found is not None:
                    # The button's word is its label's first ("Place a Big Bad Bomb in ...").
                    primary, verb = (
                        found,
                        "Place" if kind == "keep" and _is_bomb(_held_card(view)) else _VERBS[kind],
                    )
                    break
            peek = board.action_for(type="peek", position=position)
        known_by = [seat for seat in card["known_by"] if seat != board.seat]
        # Revealed, a face-down card shows its face (``face_up`` stays where it lies).
        was_down = revealed and not card["face_up"]
        cells.append(
            {
                "card": card,
                "where": _position_name(position),
                "face": _face(card, shown=was_down),
                "was_down": was_down,
                "primary": primary,
                "verb": verb,
                "peek": peek,
                "chosen": pick == position,
                "pick_words": "your pick" if mine else f"{board.name(owner)}'s pick",
                "known_by": board.names_text(known_by) if known_by else "",
            }
        )
    totals = view["totals"]
    return {
        "seat": owner,
        "name": board.name(owner),
        "is_me": mine,
        "is_turn": view["turn"] == owner,
        "holding": held is not None and held["seat"] == owner,
        "cells": cells,
        "face_down": field["face_down_count"],
        "all_face_up": field["all_face_up"],
        "has_chosen": field["has_chosen"],
        "owes_last_turn": view["final_lap"]["active"] and owner in view["final_lap"]["remaining"],
        # Totals mean something once a round has been scored.
        "total": totals[owner] if view["round_scores"] else None,
    }


def _face(card: dict[str, Any], *, shown: bool = False) -> dict[str, Any] | None:
    """The card's face to draw, or None for a card back; ``shown``: a face-down card whose
    face the view holds (everything revealed)."""
    if not card["face_up"] and not shown:
        return None
    return {key: card[key] for key in ("value", "kind", "label")}


def _deck(board: Board) -> dict[str, Any]:
    deck = board.view["deck"]
    # Known cards come sorted by id (which says nothing); shown grouped by what they are.
    counts: dict[tuple[int, str], list[Any]] = {}
    for card in deck["known_cards"]:
        key = (card["value"], card["label"])
        counts.setdefault(key, [card["label"], 0])[1] += 1
    known = [
        f"{text} (x{number})" if number > 1 else text
        for text, number in (counts[key] for key in sorted(counts))
    ]
    return {
        "size": deck["size"],
        "known": ", ".join(known),
        "known_count": len(deck["known_cards"]),
        "draw": board.action_for(type="draw", **{"from": "deck"}),
    }


def _discard(board: Board) -> dict[str, Any]:
    pile = board.view["discard"]
    return {
        "top": pile[0] if pile else None,
        "below": pile[1:6],
        "more": max(0, len(pile) - 6),
        "size": len(pile),
        "take": board.action_for(type="draw", **{"from": "discard"}),
    }


def _held(board: Board) -> dict[str, Any] | None:
    held = board.view["held"]
    if held is None:
        return None
    mine = held["seat"] == board.seat
    source = "drawn from the deck" if held["from"] == "deck" else "taken from the discard pile"
    who = "You hold" if mine else f"{board.name(held['seat'])} holds"
    card = held["card"]
    # Revealed, a card drawn from the deck shows its face, though only its holder saw it.
    was_down = _is_revealed(board) and held["from"] == "deck" and card is not None
    caption = f"{who} a card {source}"
    if was_down:
        caption += " (only they saw it)"
    return {
        "card": card,
        "was_down": was_down,
        "mine": mine,
        "caption": caption,
        "action_word": KIND_WORDS.get(held.get("action") or "", ""),
        "must_keep": bool(held.get("must_keep")),
        "discard": board.action_for(type="discard"),
        "draw_again": board.action_for(type="draw_again"),
    }


def _swap(board: Board, order: list[int]) -> dict[str, Any] | None:
    """The Swap panel: pick the card you give, then the card you take.

    Every swap action becomes one option placed over the target card (``dgb-at-N``);
    CSS shows only the options of the picked card (``dgb-from-N``). An own-card pair
    names both its cells (``dgb-lo-N dgb-hi-M``), so that the stylesheet can place it
    on whichever of the two was not picked.
    """
    swaps = board.actions_of("swap")
    if not swaps or board.seat is None:
        return None
    me = board.seat
    view = board.view
    give = [
        {
            "position": position,
            "where": _position_name(position),
            "map": _map(position),
            "face": _face(card),
            "card": card,
        }
        for position, card in enumerate(view["minefields"][me]["cards"])
    ]
    targets = []
    for owner in [*order[1:], me]:
        options = []
        for button in swaps:
            action = button.action
            if action["target_seat"] != owner:
                continue
            low, high = action["position"], action["target_position"]
            if owner == me:
                # Placed by the stylesheet on whichever of the two cells was not picked.
                css = f"dgb-pair dgb-lo-{low} dgb-hi-{high}"
            else:
                css = f"dgb-opt dgb-from-{low} dgb-at-{high}"
            options.append({"act": button, "css": css})
        cells = [
            {"position": card["position"], "face": _face(card), "card": card}
            for card in view["minefields"][owner]["cards"]
        ]
        targets.append(
            {
                "seat": owner,
                "is_me": owner == me,
                "title": "Your own minefield" if owner == me else f"{board.name(owner)}'s minefield",
                "cells": cells,
                "options": options,
            }
        )
    return {"give": give, "targets": targets}


def _map(position: int) -> list[dict[str, Any]]:
    """A tiny 3x3 grid drawing with ``position`` filled: where a card lies, without words.
    Each square is 3 units wide with a gap of 1, in an 11x11 box."""
    return [{"x": cell % 3 * 4, "y": cell // 3 * 4, "here": cell == position} for cell in POSITIONS]


def _scores(board: Board) -> dict[str, Any]:
    view = board.view
    players = int(view["players"])
    return {
        "names": [board.name(seat) for seat in range(players)],
        "rounds": [
            {"round": number, "scores": scores} for number, scores in enumerate(view["round_scores"], start=1)
        ],
        "totals": view["totals"],
    }


def _last_round(board: Board, order: list[int]) -> dict[str, Any] | None:
    last = board.view["last_round"]
    if not last:
        return None
    fields = []
    for owner in order:
        field = last["minefields"][owner]
        fields.append(
            {
                "name": board.name(owner),
                "cards": field["cards"],
                "score": last["scores"][owner],
                "zero_lines": ", ".join(field["zero_lines"]),
            }
        )
    return {"round": last["round"], "minefields": fields, "open": board.view["phase"] == "over"}


def _standings(board: Board) -> list[dict[str, Any]]:
    if board.result is None:
        return []
    scores, ranks = board.result["scores"], board.result["ranks"]
    rows = [
        {"seat": seat, "name": board.name(seat), "score": scores[seat], "rank": ranks[seat]}
        for seat in range(len(scores))
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))
