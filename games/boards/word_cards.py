"""What the three word-card boards (Ka-Blam!, Go Fox!, Read and Grab) share.

A card in a view is a dict (``id``, ``kind``, ``colour``, ``number``, ``word``,
and in Ka-Blam! ``label``); the boards draw it with
``templates/jinja2/games/_word_card.html`` from the dict ``face`` builds here: the text
to show large and to say aloud, and the colour's hex from the view's legend (so a
swapped word list draws its own colours). Hands the viewer cannot see are drawn
as card backs from a count only (``backs``).

Everything revealed (a finished match's replay, ``view["revealed"]``) adds what was
hidden: every hand, the pile in order. Those cards are drawn face up by
``templates/jinja2/games/_word_cards_revealed.html``, each marked as hidden during the game (a
dashed outline and a corner in the back's stripes, and words for screen readers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.boards import Board

# How many card backs a hidden hand draws at most; the count is written beside them.
MAX_BACKS = 8


def legend(view: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The view's colours by name: ``{"red": {"hex": "#d7263d", "pattern": "short a"}}``."""
    return {entry["colour"]: {"hex": entry["hex"], "pattern": entry["pattern"]} for entry in view["colours"]}


def face(card: dict[str, Any], colours: dict[str, dict[str, str]]) -> dict[str, Any]:
    """What the card template draws for one card of a view."""
    colour = card.get("colour")
    text = card.get("label") or card.get("word") or ""
    return {
        "id": card["id"],
        "kind": card["kind"],
        "colour": colour,
        "hex": colours[colour]["hex"] if colour else "",
        "number": card.get("number"),
        "text": text,  # shown large and said aloud: the word, or an action card's name
        "is_word": card["kind"] == "word",
        "fit": _fit(text) if card["kind"] == "word" else "",
        # A Wild is drawn in stripes of every colour of the word list.
        "bands": _bands(colours) if card["kind"] == "wild" else [],
    }


def _fit(word: str) -> str:
    """A smaller type size for a longer word, so that it stays on one line of its card."""
    if len(word) <= 3:
        return ""
    if len(word) == 4:
        return "wc-fit-4"
    if len(word) <= 6:
        return "wc-fit-6"
    return "wc-fit-long"


def _bands(colours: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """The stripes of a Wild's picture: one per colour, filling y 4..36 of a 40x40 box."""
    height = 32 / len(colours)
    return [
        {"hex": colour["hex"], "y": f"{4 + index * height:.2f}", "height": f"{height + 0.05:.2f}"}
        for index, colour in enumerate(colours.values())
    ]


def card_name(card: dict[str, Any]) -> str:
    """How a button's words name a card: ``"cat" (red 1)``, ``Pick Up 2 (red)``, ``the Wild``:
    the words the card shows, in the order it shows them (its word or name above its
    colour), so that a button's visible words are part of its name."""
    if card["kind"] == "word":
        return f'"{card["word"]}" ({card["colour"]} {card["number"]})'
    label = card.get("label") or card["kind"].replace("_", " ")
    if card.get("colour"):
        return f"{label} ({card['colour']})"
    return f"the {label}"


def is_revealed(view: dict[str, Any]) -> bool:
    """Everything revealed: the view holds every hidden card (a finished match's replay)."""
    return bool(view.get("revealed"))


def revealed_cards(
    cards: list[dict[str, Any]], colours: dict[str, dict[str, str]], label: str
) -> dict[str, Any]:
    """A row of cards hidden during the game (a hand, a pile), drawn face up with their
    count: ``label`` names the row for screen readers ("Ann's hand")."""
    return {
        "cards": [face(card, colours) for card in cards],
        "label": label,
        "count": plural(len(cards), "card"),
    }


def revealed_hand(board: Board, seat: int, colours: dict[str, dict[str, str]]) -> dict[str, Any] | None:
    """Everything revealed: ``seat``'s hand face up (from the reveal's ``hands``); None
    on any other board, which draws the hand as backs."""
    if not is_revealed(board.view):
        return None
    return revealed_cards(board.view["hands"][seat], colours, f"{board.name(seat)}'s hand")


def revealed_pile(
    view: dict[str, Any], field: str, colours: dict[str, dict[str, str]], label: str
) -> dict[str, Any] | None:
    """Everything revealed: the face-down pile the reveal adds as ``field``, top first;
    None on any other board."""
    if not is_revealed(view):
        return None
    return revealed_cards(view[field], colours, label)


def backs(count: int) -> dict[str, Any]:
    """A hidden hand of ``count`` cards: at most ``MAX_BACKS`` backs drawn, the count written."""
    return {"count": count, "drawn": range(min(count, MAX_BACKS)), "more": count > MAX_BACKS}


def seat_order(board: Board) -> list[int]:
    """Every seat but the viewer's, in seat order starting after the viewer (all, for a spectator)."""
    players = len(board.names)
    if board.seat is None:
        return list(range(players))
    return [(board.seat + step) % players for step in range(1, players)]


def article(number: int) -> str:
    """'a 5', 'an 8', 'an 11'."""
    return f"an {number}" if number in (8, 11) else f"a {number}"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def standings(board: Board, unit: str) -> list[dict[str, Any]]:
    """The final result as rows (rank, name, score text), best first; empty while playing."""
    result = board.result
    if not result:
        return []
    rows = [
        {
            "seat": seat,
            "rank": rank,
            "name": who(board, seat),
            "score": plural(score, unit),
            "is_me": seat == board.seat,
        }
        for seat, (rank, score) in enumerate(zip(result["ranks"], result["scores"], strict=True))
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def winners_text(board: Board) -> str:
    """'Ann wins!', 'Ann and Ben share first place!', 'You win!' (empty while playing)."""
    result = board.result
    if not result:
        return ""
    first = [seat for seat, rank in enumerate(result["ranks"]) if rank == 1]
    if len(first) == 1:
        return "You win!" if first[0] == board.seat else f"{board.name(first[0])} wins!"
    names = [("you" if seat == board.seat else board.name(seat)) for seat in first]
    joined = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{joined[0].upper()}{joined[1:]} share first place!"


def who(board: Board, seat: int | None) -> str:
    """The viewer as 'You', anyone else by name."""
    return "You" if seat is not None and seat == board.seat else board.name(seat)


def does(board: Board, seat: int | None, you: str, they: str) -> str:
    """``seat`` and its verb, agreeing: "You draw" for the viewer, "Ann draws" for anyone
    else. (The viewer's own seat without buttons is a replay through their eyes.)"""
    return f"You {you}" if seat is not None and seat == board.seat else f"{board.name(seat)} {they}"
