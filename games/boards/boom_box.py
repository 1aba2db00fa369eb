"""Bouldertroll Boom Box's board: every troll's Start Line, the boxes passed to them with
the claims made, their opened stack and gems, built from one seat's view (see
games/boards/__init__.py).

Every action is a labelled button on the box it acts on (set aside, pass claiming a
gem or a Boom, open, remove); ending the turn is a plain button in the turn bar.

Everything revealed (a finished match's replay, ``view["revealed"]``): every unopened
box shows what it holds, marked as hidden during the game (a striped lid, a dashed
outline and words), and every troll's boxes set aside, and those not yet set aside or
laid out while they choose, are drawn in their rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.boards import Board

CONTENT_WORDS = {"boom": "a Boom", "gem": "one gem", "two_gems": "two gems"}
CLAIM_WORDS = {"gem": "a gem", "boom": "a Boom"}
# The viewer's own boxes before the Start Line is laid out have no letter yet: they are
# told apart by what they hold (boxes holding the same are alike).
KIND_WORDS = {
    "boom": ("Boom box", "Boom boxes"),
    "gem": ("one-gem box", "one-gem boxes"),
    "two_gems": ("two-gem box", "two-gem boxes"),
}

# What a final score counts (``score_in_words``): the gems won (boxes opened only break ties).
SCORE_UNITS = ("gem", "gems")


def _seat_mark(seat: int) -> str:
    # Labels see the view only, not display names: a player is named by a seat mark, as in
    # log texts, and build_board puts the names in.
    return f"{{s{seat}}}"


def _box(view: dict[str, Any], box_id: str) -> dict[str, Any]:
    box: dict[str, Any] = view["boxes"].get(box_id) or {}
    return box


def _box_words(box: dict[str, Any]) -> str:
    """A box on the table as people call it: "box C" (its letter, ``name`` in the view)."""
    return f"box {box.get('name') or '?'}"


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    box = _box(view, str(action.get("box", "")))
    content = CONTENT_WORDS.get(box.get("content") or "")
    known = f" ({content})" if content else ""
    if kind == "set_aside":
        return _set_aside_label(view, box)
    if kind == "pass":
        claim = CLAIM_WORDS.get(action.get("claim", ""), str(action.get("claim")))
        receiver = (int(view.get("seat") or 0) + 1) % int(view["players"])
        return f"Pass {_box_words(box)}{known} to {_seat_mark(receiver)}, saying it holds {claim}"
    if kind == "open":
        if box.get("owner") == view.get("seat"):
            return f"Open {_box_words(box)}, your own box that came back{known}"
        return f"Open {_box_words(box)}"
    if kind == "done":
        return "End your turn"
    if kind == "remove":
        loss = view.get("pending_loss") or {}
        opener = loss.get("opener")
        if opener is None:
            whose = "the opener's"
        elif opener == view.get("seat"):
            whose = "your"
        else:
            whose = f"{_seat_mark(opener)}'s"
        return f"Remove {_box_words(box)}{known} from {whose} boxes: it leaves the game unopened"
    return str(kind)


def _set_aside_label(view: dict[str, Any], box: dict[str, Any]) -> str:
    """ "Set aside your two-gem box", "Set aside one of your Boom boxes": boxes holding the
    same are alike, so either of two Booms is the same choice."""
    content = box.get("content") or ""
    one, many = KIND_WORDS.get(content, ("box", "boxes"))
    alike = sum(1 for box_id in view.get("choose_from") or [] if _box(view, box_id).get("content") == content)
    return f"Set aside one of your {many}" if alike > 1 else f"Set aside your {one}"


# -- prepare ------------------------------------------------------------------------


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    players = int(view["players"])
    start = board.seat if board.seat is not None else 0
    # From the viewer round the table: boxes travel this way, to the left.
    order = [(start + step) % players for step in range(players)]
    return {
        "prompt": _prompt(board),
        "turn": _turn(board),
        "loss": _loss(board),
        "seats": [_seat(board, seat) for seat in order],
        "done": board.action_for(type="done"),
        "standings": _standings(board),
    }


def _next(board: Board, seat: int) -> int:
    return (seat + 1) % int(board.view["players"])


def _prompt(board: Board) -> str:
    """One line: what the viewer must do now, or whom the table waits for."""
    view = board.view
    phase = view["phase"]
    if phase == "over" or board.result is not None:
        return "The game is over: " + _winners_text(board) + "."
    if phase == "setup":
        if board.my_turn:
            left = 2 - view["seats"][board.seat]["set_aside_count"]
            boxes = "box" if left == 1 else "boxes"
            return (
                f"Set aside {left} more {boxes}: they leave the game unseen; "
                "the other four become your Start Line."
            )
        waiting = [seat for seat in view["to_act"] if seat != board.seat]
        return f"Waiting for {board.names_text(waiting)} to lay out a Start Line."
    loss = view["pending_loss"]
    if loss is not None:
        chooser, opener = loss["chooser"], loss["opener"]
        if chooser == board.seat:
            whose = "your own" if opener == board.seat else f"{board.name(opener)}'s"
            victim = "you were" if opener == board.seat else f"{board.name(opener)} was"
            return (
                f"Your Boom went off and {victim} already at zero gems: "
                f"choose one of {whose} boxes to leave the game unopened."
            )
        return f"Waiting for {board.name(chooser)} to choose which of {board.name(opener)}'s boxes leaves the game."
    turn = view["turn"]
    if not board.my_turn:
        return f"Waiting for {board.name(turn['seat'])} to play."
    can_pass = bool(board.actions_of("pass"))
    can_open = bool(board.actions_of("open"))
    to = board.name(_next(board, board.seat or 0))
    if turn["must_open"]:
        returned = _box_words(_box(view, turn["must_open"]))
        text = f"Your own {returned} came back to you: you must open it"
        return text + (f", and you may pass a box to {to}." if can_pass else ".")
    if turn["must_pass"] and can_pass:
        text = f"Pass a box to {to} (compulsory while your Start Line has boxes), saying gem or Boom"
        return text + (", and you may open a box passed to you." if can_open else ".")
    choices = []
    if can_pass:
        choices.append(f"pass a box to {to}")
    if can_open:
        choices.append("open a box passed to you")
    if board.action_for(type="done") is not None:
        choices.append("end your turn")
    if len(choices) > 1:
        return "Your turn: " + ", ".join(choices[:-1]) + " or " + choices[-1] + "."
    return "Your turn: " + "".join(choices) + "."


def _winners_text(board: Board) -> str:
    result = board.result or board.view.get("result") or {}
    scores, ranks = result.get("scores") or [], result.get("ranks") or []
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    if not winners:
        return "the scores are final"
    gems = scores[winners[0]]
    word = "gem" if gems == 1 else "gems"
    if winners == [board.seat]:
        return f"you win with {gems} {word}"
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"{board.names_text(winners)} {verb} with {gems} {word}"


def _turn(board: Board) -> dict[str, Any] | None:
    turn = board.view["turn"]
    if turn is None:
        return None
    seat = turn["seat"]
    return {
        "title": "Your turn" if seat == board.seat else f"{board.name(seat)}'s turn",
        "passed": turn["has_passed"],
        "opened": turn["has_opened"],
        "must_open": turn["must_open"],
    }


def _loss(board: Board) -> str:
    loss = board.view["pending_loss"]
    if loss is None:
        return ""
    chooser, opener = loss["chooser"], loss["opener"]
    who = "You choose" if chooser == board.seat else f"{board.name(chooser)} chooses"
    whose = "your" if opener == board.seat else f"{board.name(opener)}'s"
    boom = _box_words(_box(board.view, loss["boom"]))
    return (
        f"{boom[0].upper()}{boom[1:]} was a Boom at zero gems: {who} which of {whose} boxes leaves the game."
    )


def _is_revealed(view: dict[str, Any]) -> bool:
    """Everything revealed: every box's content and every set-aside box are in the view."""
    return bool(view.get("revealed"))


def _still_to_choose(board: Board, seat: int) -> list[str]:
    """The boxes ``seat`` may still set aside during setup, where the board may show
    them: the viewer's own, or every seat's when everything is revealed (``as_seen_by``)."""
    view = board.view
    if _is_revealed(view):
        seen = (view.get("as_seen_by") or {}).get(str(seat)) or {}
        return list(seen.get("choose_from") or [])
    return list(view["choose_from"] or []) if seat == board.seat else []


def _seat(board: Board, seat: int) -> dict[str, Any]:
    view = board.view
    facts = view["seats"][seat]
    mine = seat == board.seat
    turn = view["turn"]
    loss = view["pending_loss"]
    revealed = _is_revealed(view)
    own_setup = _still_to_choose(board, seat)
    return {
        "seat": seat,
        "name": board.name(seat),
        "title": "You" if mine else board.name(seat),
        "is_me": mine,
        "colour": facts["colour"],
        "is_turn": turn is not None and turn["seat"] == seat,
        "is_choosing": loss is not None and loss["chooser"] == seat,
        "next_name": "you" if _next(board, seat) == board.seat else board.name(_next(board, seat)),
        "gems": facts["gems"],
        "opened_count": facts["boxes_opened"],
        "held": facts["boxes_held"],
        "has_chosen": facts["has_chosen"],
        "setup": view["phase"] == "setup",
        "over": view["phase"] == "over",
        "set_aside_count": facts["set_aside_count"],
        "unchosen": [_box_entry(board, box_id) for box_id in own_setup],
        "unchosen_title": "Not yet set aside or laid out" if revealed else "Your boxes: set aside two",
        "set_aside_title": "Set aside (unseen during the game)" if revealed else "Set aside (only you know)",
        "set_aside": [_box_entry(board, box_id) for box_id in (facts["set_aside"] or [])],
        "start_line": [_box_entry(board, box_id) for box_id in facts["start_line"]],
        "in_front": [_box_entry(board, box_id) for box_id in facts["in_front"]],
        # Top of the stack first: the last box opened decides the count.
        "opened": [_box_entry(board, box_id) for box_id in reversed(facts["opened"])],
        "removed": [_box_entry(board, item["box"]) for item in view["removed"] if item["from"] == seat],
    }


def _box_entry(board: Board, box_id: str) -> dict[str, Any]:
    """A box as drawn: colour, what the viewer knows of it, its claims, its buttons."""
    view = board.view
    box = _box(view, box_id)
    content = box.get("content")
    owner = box.get("owner")
    # Revealed, every unopened box shows its content, though nobody but its owner knew it.
    was_hidden = _is_revealed(view) and content is not None and not box.get("face_up")
    turn = view["turn"] or {}
    passes = [
        {
            "from": board.names_text([item["from"]]),
            "to": board.names_text([item["to"]]),
            "claim": item["claim"],
            "claim_word": "Gem" if item["claim"] == "gem" else "Boom",
        }
        for item in box.get("passes", [])
    ]
    return {
        "id": box_id,  # for programs (a data attribute); people read its name
        "name": box.get("name") or "",
        "colour": box.get("colour", ""),
        "owner": "yours" if owner == board.seat else board.name(owner),
        "is_own": owner == board.seat,
        "content": content,
        "content_words": CONTENT_WORDS.get(content or "", ""),
        "face_up": bool(box.get("face_up")),
        # The viewer's own unopened box: its content is known here but still secret.
        "secret": content is not None and not box.get("face_up") and not was_hidden,
        "was_hidden": was_hidden,
        "last_claim": passes[-1] if passes else None,
        "earlier_claims": passes[:-1],
        "returned": turn.get("must_open") == box_id,
        "set_aside": board.action_for(type="set_aside", box=box_id),
        "pass_gem": board.action_for(type="pass", box=box_id, claim="gem"),
        "pass_boom": board.action_for(type="pass", box=box_id, claim="boom"),
        "open": board.action_for(type="open", box=box_id),
        "remove": board.action_for(type="remove", box=box_id),
    }


def _standings(board: Board) -> list[dict[str, Any]]:
    result = board.result
    if result is None:
        return []
    seats = board.view["seats"]
    rows = [
        {
            "name": board.name(seat),
            "gems": result["scores"][seat],
            "opened": seats[seat]["boxes_opened"],
            "rank": result["ranks"][seat],
            "seat": seat,
        }
        for seat in range(len(result["scores"]))
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))
