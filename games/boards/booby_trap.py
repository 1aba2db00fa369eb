"""Booby-Trap's board: the tray drawn in SVG from the view, pieces clickable, readouts beside it.

The tray is drawn from the view's rounded positions and nominal sizes (inches, scaled by
``SCALE`` into the SVG's user units), the far wall at the top and the spring bar below the
pack. Every piece is numbered by its place in ``view["pieces"]`` (#1 to #32): that order
is fixed for the whole match and is all anyone needs to tell pieces apart, unlike the
opaque ids. A piece the viewer may touch (or take) carries ``data-click-target`` with the
action's JSON, so the page's script can press the matching button; the buttons themselves
(one per legal action, as the contract wants) sit beside the tray for players without
JavaScript and for keyboards.

Readouts come from the view alone: the viewer's own readings (``reading`` on a piece, the
touch facts of their own log entries), which pieces were touched and passed over since
the tray last settled, the last take's outcome (bar travel in markings, pop-outs,
penalty), the passing count and the bar's position on the side scale.

Everything revealed (a finished match's replay, ``view["revealed"]``) adds what only the
state holds: every piece's reading as a badge (what a touch would read), the force
network drawn over the tray (a line per contact, as wide as its force: the stress
arches, before and after each take as the replay steps), and each piece's hidden
make-up (true radius, friction, load, noise, exact place) in a table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.boards import generic

if TYPE_CHECKING:
    from games.boards import ActionButton, Board

# SVG user units per inch: the view's positions are on a 1/20-inch grid, so every
# centre lands on a whole unit.
SCALE = 100

# Pieces are told apart by size; a colour per size makes the size readable at a glance
# and gives the buttons words that match the picture ("the small red piece").
SIZE_COLOURS = {"small": "red", "medium": "yellow", "large": "blue"}
SIZE_FILLS = {"small": "#c63f17", "medium": "#e6b422", "large": "#2f6db5"}
FEEL_FILLS = {"loose": "#2e7d32", "snug": "#c77800", "tight": "#b3261e"}
SIZES = ("small", "medium", "large")

# Drawing sizes (user units): the frame around the tray, the bar's thickness, and how
# much of the tray behind the bar is drawn (room for the spring).
WALL = 16
BAR_THICKNESS = 20
BEHIND_BAR = 110
SCALE_WIDTH = 70  # the side scale, right of the tray

VARIANT_NAMES = {
    "regular": "Regular game",
    "size-order": "Size order: small pieces first, then medium, then large",
    "no-pass": "No passing: touching and taking are one move",
    "solitaire": "Solitaire: empty the tray, tripping the bar at most three times",
}


# -- Names of things ------------------------------------------------------------------


def _numbers(view: dict[str, Any]) -> dict[str, int]:
    """Each piece's number (1-based place in the view's list, fixed for the match)."""
    return {piece["id"]: index + 1 for index, piece in enumerate(view.get("pieces") or [])}


def _pieces_by_id(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {piece["id"]: piece for piece in view.get("pieces") or []}


def piece_name(size: str, number: int) -> str:
    """``the small red piece (#4)``: the words buttons and readouts use for a piece."""
    return f"the {size} {SIZE_COLOURS.get(size, '')} piece (#{number})".replace("  ", " ")


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def short_name(size: str, number: int) -> str:
    return f"#{number} ({size})"


def _plural(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _points(value: int) -> str:
    return _plural(value, "point")


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "pass":
        return "Pass: leave it in the tray"
    if kind in ("touch", "take"):
        piece = _pieces_by_id(view).get(str(action.get("piece")))
        if piece is not None:
            name = piece_name(piece["size"], _numbers(view)[piece["id"]])
            if kind == "touch":
                # The button shows the viewer's reading after the number ("#21 · snug 3"):
                # its name says it in the same order, so the words shown are part of the name.
                reading = piece.get("reading")
                if reading is not None:
                    return f"Touch {name}: {reading['feel']} {reading['gauge']} when you felt it"
                return f"Touch {name}"
            return f"Take {name}, worth {_points(piece['value'])}"
    return generic.label(view, action)


# -- The tray ---------------------------------------------------------------------------


def _release_bar_y(view: dict[str, Any]) -> float:
    for item in view.get("log") or []:
        if item.get("event") == "release" and item.get("bar_y") is not None:
            return float(item["bar_y"])
    return float(view["tray"]["bar_y"])


def _bar_before_last_take(view: dict[str, Any]) -> float | None:
    """Where the bar stood before the last take (None before any take)."""
    before: float | None = None
    previous = _release_bar_y(view)
    for item in view.get("log") or []:
        if item.get("event") == "take":
            before = previous
            previous = float(item["bar_y"])
    return before


def _units(inches: float) -> int:
    return round(inches * SCALE)


def _tray_drawing(view: dict[str, Any]) -> dict[str, Any]:
    """Geometry of the tray, bar, spring and side scale, in SVG user units."""
    tray = view["tray"]
    width = _units(tray["width"])
    bar = _units(tray["bar_y"])
    # The tray is drawn down to a little behind where the bar first came to rest, so
    # the picture keeps its size through the match while the bar creeps forward.
    length = max(_units(_release_bar_y(view)), bar) + BAR_THICKNESS + BEHIND_BAR
    spring_top = bar + BAR_THICKNESS
    zigzag = 10
    step = (length - spring_top) / zigzag
    spring_points = []
    for index in range(zigzag + 1):
        x = width // 2 + (0 if index in (0, zigzag) else (30 if index % 2 else -30))
        spring_points.append(f"{x},{round(spring_top + index * step)}")
    marking = _units(tray["marking"])
    ticks = []
    for index in range(length // marking + 1):
        y = index * marking
        whole_inch = y % SCALE == 0
        ticks.append({"y": y, "long": whole_inch, "inch": y // SCALE if whole_inch and y else None})
    before = _bar_before_last_take(view)
    ghost = _units(before) if before is not None and _units(before) != bar else None
    left = -WALL - 10
    top = -WALL - 10
    return {
        "width": width,
        "length": length,
        "viewbox": f"{left} {top} {width + 2 * WALL + 20 + SCALE_WIDTH} {length + 2 * WALL + 20}",
        "frame": {"x": -WALL, "y": -WALL, "width": width + 2 * WALL, "height": length + 2 * WALL},
        "bar": bar,
        "bar_thickness": BAR_THICKNESS,
        "spring": " ".join(spring_points),
        "scale_x": width + WALL,
        "ticks": ticks,
        "pointer": f"{width + WALL},{bar} {width + WALL + 22},{bar - 12} {width + WALL + 22},{bar + 12}",
        "ghost": ghost,
    }


# -- Pieces -------------------------------------------------------------------------------


def _action_by_piece(board: Board) -> dict[str, ActionButton]:
    return {str(button.action["piece"]): button for button in board.actions if "piece" in button.action}


def _chip(piece: dict[str, Any], number: int) -> dict[str, Any]:
    """A piece out of the tray (kept or discarded), drawn as a small CSS disc."""
    return {
        "number": number,
        "size": piece["size"],
        "value": piece["value"],
        "name": piece_name(piece["size"], number),
    }


def _touches_this_arrangement(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Touch log entries since the tray last settled, oldest first, each with what
    followed it (``pass``, ``take`` or None while its toucher is still deciding)."""
    log = view.get("log") or []
    touches = []
    for index, item in enumerate(log):
        if item.get("event") != "touch" or item.get("arrangement") != view["arrangement"]:
            continue
        outcome = None
        for later in log[index + 1 :]:
            if later.get("seat") == item.get("seat") and later.get("event") in ("pass", "take"):
                outcome = later["event"]
                break
        touches.append({**item, "outcome": outcome})
    return touches


def _is_revealed(view: dict[str, Any]) -> bool:
    """Everything revealed: readings, hidden make-up and forces are in the view."""
    return bool(view.get("revealed"))


def _tray_pieces(board: Board, numbers: dict[str, int]) -> list[dict[str, Any]]:
    view = board.view
    actions = _action_by_piece(board)
    touched = (view.get("touched") or {}).get("piece")
    passed_by: dict[str, list[str]] = {}
    for item in _touches_this_arrangement(view):
        if item["outcome"] == "pass":
            passed_by.setdefault(item["piece"], []).append(board.name(item["seat"]))
    dim_untouchable = view["phase"] == "touch"
    revealed = _is_revealed(view)
    drawn = []
    for piece in view.get("pieces") or []:
        if piece["where"] != "tray":
            continue
        number = numbers[piece["id"]]
        radius = _units(piece["radius"])
        cx, cy = _units(piece["x"]), _units(piece["y"])
        action = actions.get(piece["id"])
        reading = piece.get("reading")
        classes = ["bt-piece", f"bt-{piece['size']}"]
        if action is not None:
            classes.append("touchable")
        if dim_untouchable and not piece["touchable"]:
            classes.append("bt-out-of-reach")
        if piece["id"] == touched:
            classes.append("bt-current")
        if piece["id"] in passed_by:
            classes.append("bt-passed-over")
        title = f"{_capfirst(piece_name(piece['size'], number))}, worth {_points(piece['value'])}."
        if reading is not None and revealed:
            title += f" A touch reads it {reading['feel']} ({reading['gauge']}/10): hidden during the game."
        elif reading is not None:
            title += f" You felt it {reading['feel']} ({reading['gauge']}/10)."
        if piece["id"] in passed_by:
            title += f" Touched and passed over by {', '.join(passed_by[piece['id']])}."
        if piece["id"] == touched and (reading is None or revealed):
            title += " Touched this turn."
        if action is not None:
            title += f" Click to {action.type} it."
        offset = round(radius * 0.68)
        drawn.append(
            {
                "id": piece["id"],
                "number": number,
                "size": piece["size"],
                "value": piece["value"],
                "fill": SIZE_FILLS.get(piece["size"], "#888"),
                "cx": cx,
                "cy": cy,
                "r": radius,
                "ring": radius + 9,
                "font": round(radius * 0.7),
                "text_y": cy + round(radius * 0.25),
                "action": action,
                "current": piece["id"] == touched,
                "ink": "#1d1b26" if piece["size"] == "medium" else "#ffffff",
                "classes": " ".join(classes),
                # The button's classes: actform escapes inner HTML, so its size swatch and
                # the reading's colour come from CSS on these.
                "pick_class": f"bt-pick bt-pick-{piece['size']}"
                + (f" bt-pick-{reading['feel']}" if reading else ""),
                "title": title,
                "reading": reading,
                "feel_fill": FEEL_FILLS.get(reading["feel"], "#555") if reading else None,
                "badge_x": cx + offset,
                "badge_y": cy - offset,
                "badge_text_y": cy - offset + 7,
            }
        )
    return drawn


def _pick_groups(pieces: list[dict[str, Any]], values: dict[str, int]) -> list[dict[str, Any]]:
    """The touch (or no-pass take) buttons, grouped by size, in piece-number order."""
    groups = []
    for size in SIZES:
        members = sorted(
            (p for p in pieces if p["size"] == size and p["action"] is not None), key=lambda p: p["number"]
        )
        if members:
            groups.append(
                {"size": size, "colour": SIZE_COLOURS[size], "value": values.get(size, 0), "pieces": members}
            )
    return groups


def _gauge_cells(gauge: int) -> list[bool]:
    return [cell < gauge for cell in range(10)]


# -- Readouts -------------------------------------------------------------------------------


def _current_touch(board: Board, numbers: dict[str, int]) -> dict[str, Any] | None:
    view = board.view
    touched = view.get("touched")
    if not touched:
        return None
    piece = _pieces_by_id(view)[touched["piece"]]
    name = piece_name(piece["size"], numbers[piece["id"]])
    reading = touched.get("reading")
    is_mine = board.seat is not None and touched["seat"] == board.seat
    if reading is not None and not is_mine and _is_revealed(view):
        text = (
            f"{board.name(touched['seat'])} touched {name}: it feels {reading['feel']} "
            f"({reading['gauge']}/10), which only they knew."
        )
    elif reading is not None:
        text = f"You touched {name}: it feels {reading['feel']} ({reading['gauge']}/10)."
    elif is_mine:
        text = f"You touched {name}."
    else:
        text = f"{board.name(touched['seat'])} touched {name}; only they know how tight it feels."
    return {
        "text": text,
        "reading": reading,
        "cells": _gauge_cells(int(reading["gauge"])) if reading else [],
    }


def _last_take(board: Board, numbers: dict[str, int]) -> dict[str, Any] | None:
    view = board.view
    takes = [item for item in view.get("log") or [] if item.get("event") == "take"]
    if not takes:
        return None
    item = takes[-1]
    pieces = _pieces_by_id(view)
    who = board.name(item["seat"])
    name = piece_name(item["size"], numbers[item["piece"]])
    if not item["tripped"]:
        return {"tripped": False, "text": f"{who} took {name} safely: the bar moved less than one marking."}
    markings = _plural(int(item["markings"]), "marking")
    text = f"{who} tripped the bar ({markings}): {name} went to the discard pile"
    popped = [
        short_name(pieces[piece_id]["size"], numbers[piece_id]) for piece_id in item.get("popped") or []
    ]
    if popped:
        text += f", with {', '.join(popped)}, which jumped out"
    if item.get("penalty"):
        text += f". {who} loses {_points(int(item['penalty']))}."
    elif view.get("trips_allowed") is not None:
        trips, allowed = view["scores"][item["seat"]]["trips"], view["trips_allowed"]
        if trips > allowed:
            text += f". That was trip {trips}: one more than the {allowed} allowed."
        else:
            text += f". Trips so far: {trips} of {allowed} allowed."
    else:
        text += "."
    return {"tripped": True, "text": text}


def _touch_history(board: Board, numbers: dict[str, int]) -> list[str]:
    """Who touched what and passed since the tray last settled (the current touch aside)."""
    lines = []
    pieces = _pieces_by_id(board.view)
    for item in _touches_this_arrangement(board.view):
        if item["outcome"] != "pass":
            continue
        piece = pieces[item["piece"]]
        mine = board.seat is not None and item["seat"] == board.seat
        who = "You" if mine else board.name(item["seat"])
        line = f"{who} touched {short_name(piece['size'], numbers[piece['id']])}"
        if "feel" in item:
            line += f", felt it {item['feel']} ({item['gauge']}/10)"
        lines.append(f"{line} and passed.")
    return lines


def _passing(view: dict[str, Any]) -> str:
    if view["phase"] == "over":
        return ""
    if view["variant"] == "no-pass":
        return "No passing in this game: every turn takes a piece."
    done, limit = view["passes_in_a_row"], view["pass_limit"]
    if view["must_take"]:
        return f"{_plural(done, 'pass', 'passes')} in a row: the piece touched now must be taken."
    return f"Passes in a row: {done} of {limit}. At {limit}, the next piece touched must be taken."


def _result_text(board: Board) -> str:
    result = board.result
    if not result:
        return ""
    view = board.view
    if view["variant"] == "solitaire":
        taken = _plural(int(result["scores"][0]), "piece")
        if result.get("won"):
            return f"Solitaire won: {taken} taken safely."
        return f"Solitaire lost: the bar tripped a fourth time ({taken} taken safely)."
    scores = result["scores"]
    winners = [board.name(seat) for seat, rank in enumerate(result["ranks"]) if rank == 1]
    best = _points(int(max(scores)))
    if len(winners) == 1:
        return f"{winners[0]} wins with {best}."
    return f"{' and '.join(winners)} share the win with {best}."


def _prompt(board: Board, numbers: dict[str, int]) -> str:
    view = board.view
    if view["phase"] == "over":
        return f"The game is over. {_result_text(board)}"
    turn = view["turn"]
    no_pass = view["variant"] == "no-pass"
    mine = board.my_turn
    who = "You" if mine else board.name(turn)
    if view["phase"] == "touch":
        if no_pass:
            text = f"{who} must take a piece (no passing in this game)"
            text += ": click the one that looks loosest." if mine else "."
        elif mine:
            text = "Your turn: touch a piece to feel how tightly it is held."
            if view["must_take"]:
                text = (
                    "Your turn: everyone has passed twice in a row, so you must take the piece you touch. "
                    "Touch the one you would rather take."
                )
        else:
            text = f"{who} is choosing a piece to touch."
        reachable = {piece["size"] for piece in view["pieces"] if piece["touchable"]}
        if view["variant"] == "size-order" and len(reachable) == 1:
            text += f" Only {reachable.pop()} pieces may be touched now."
        return text
    touched = view["touched"]
    piece = _pieces_by_id(view)[touched["piece"]]
    name = piece_name(piece["size"], numbers[piece["id"]])
    reading = touched.get("reading")
    if mine:
        felt = f"{name} feels {reading['feel']} ({reading['gauge']}/10)" if reading else f"You touched {name}"
        felt = _capfirst(felt)
        if view["must_take"]:
            return f"{felt}. Everyone has passed twice in a row: you must take it."
        return f"{felt}. Take it, or pass?"
    if view["must_take"]:
        return f"{who} touched {name} and must take it."
    return f"{who} touched {name} and is deciding whether to take it."


# -- Players and piles ------------------------------------------------------------------------


def _players(board: Board, numbers: dict[str, int]) -> list[dict[str, Any]]:
    view = board.view
    pieces = _pieces_by_id(view)
    ranks = (board.result or {}).get("ranks") or []
    solitaire = view["variant"] == "solitaire"
    players = []
    for line in view["scores"]:
        seat = line["seat"]
        kept = sorted(
            (_chip(pieces[piece_id], numbers[piece_id]) for piece_id in line["kept"]),
            key=lambda c: c["number"],
        )
        players.append(
            {
                "seat": seat,
                "name": board.name(seat),
                "is_you": board.seat == seat,
                "to_act": seat in board.to_act,
                "kept": kept,
                "kept_count": len(kept),
                "kept_value": line["kept_value"],
                "penalties": line["penalties"],
                "trips": line["trips"],
                "score": line["score"],
                "rank": ranks[seat] if seat < len(ranks) and not solitaire else None,
            }
        )
    return players


# -- Everything revealed: the forces and the hidden make-up ------------------------------------

# How wide a contact's line is drawn (SVG units) per unit of force (a fraction of the bar's
# push): the strongest contacts carry about half the push, about as wide as a small piece's
# radius; the weakest stay visible.
FORCE_WIDTH = 40
FORCE_MIN_WIDTH = 2
STRONGEST_SHOWN = 3  # contacts said in words beside the picture
WHERE_WORDS = {"tray": "in the tray", "kept": "kept", "discard": "discarded"}


def _exact_centres(view: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each piece's exact centre in SVG units (the hidden, unrounded place)."""
    return {
        piece["id"]: (piece["hidden"]["x"] * SCALE, piece["hidden"]["y"] * SCALE)
        for piece in view.get("pieces") or []
        if piece.get("hidden")
    }


def _end_words(end: str, pieces: dict[str, dict[str, Any]], numbers: dict[str, int]) -> str:
    if end == "bar":
        return "the spring bar"
    if end == "wall":
        return "a wall"
    return short_name(pieces[end]["size"], numbers[end])


def _forces(view: dict[str, Any], numbers: dict[str, int]) -> dict[str, Any] | None:
    """The force network as lines over the tray: piece to piece from centre to centre,
    piece to bar or wall from the piece's centre to the contact point; each as wide as
    its force. None unless everything is revealed."""
    if not _is_revealed(view):
        return None
    centres = _exact_centres(view)
    pieces = _pieces_by_id(view)
    lines = []
    for contact in view.get("forces") or []:
        a, b = contact["a"], contact["b"]
        point = (contact["x"] * SCALE, contact["y"] * SCALE)
        start = centres.get(a, point)
        end = centres.get(b, point)
        lines.append(
            {
                "x1": f"{start[0]:.1f}",
                "y1": f"{start[1]:.1f}",
                "x2": f"{end[0]:.1f}",
                "y2": f"{end[1]:.1f}",
                "width": f"{max(FORCE_MIN_WIDTH, contact['force'] * FORCE_WIDTH):.1f}",
                "words": f"{_end_words(a, pieces, numbers)} on {_end_words(b, pieces, numbers)}: "
                f"{contact['force']:.3f} of the bar's push",
            }
        )
    return {
        "lines": lines,
        "count": len(lines),
        "strongest": [line["words"] for line in lines[:STRONGEST_SHOWN]],
    }


def _hidden_figures(piece: dict[str, Any]) -> dict[str, str]:
    """One piece's hidden make-up in words and figures, as the table shows it."""
    hidden = piece["hidden"]
    return {
        "radius": f"{hidden['radius']:.3f}",
        "friction": f"{hidden['friction']:.3f}",
        "load": f"{hidden['load']:.3f}",
        "noise": f"{hidden['noise']:+.2f}",
        "place": f"{hidden['x']:.3f}, {hidden['y']:.3f}",
    }


def _hidden_make_up(view: dict[str, Any], numbers: dict[str, int]) -> list[dict[str, Any]]:
    """Every piece's hidden make-up, by piece number (empty unless everything is revealed)."""
    if not _is_revealed(view):
        return []
    rows = []
    for piece in view.get("pieces") or []:
        reading = piece.get("reading")
        rows.append(
            {
                "id": piece["id"],
                "name": short_name(piece["size"], numbers[piece["id"]]),
                "where": WHERE_WORDS.get(piece["where"], piece["where"]),
                "reading": f"{reading['feel']} {reading['gauge']}/10" if reading else "",
                **_hidden_figures(piece),
            }
        )
    return rows


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    numbers = _numbers(view)
    in_tray = _tray_pieces(board, numbers)
    pieces = view.get("pieces") or []
    discard = [_chip(piece, numbers[piece["id"]]) for piece in pieces if piece["where"] == "discard"]
    touched_id = (view.get("touched") or {}).get("piece")
    # Touch phase: one button per piece (grouped by size). Decide phase: take and pass.
    decide_take = board.action_for(type="take", piece=touched_id) if touched_id else None
    pass_action = board.action_for(type="pass")
    picks = [] if touched_id else _pick_groups(in_tray, view.get("values") or {})
    placed = {id(piece["action"]) for group in picks for piece in group["pieces"]}
    placed |= {id(button) for button in (decide_take, pass_action) if button is not None}
    # Anything a future engine version might offer beyond these still gets its button.
    leftover = [button for button in board.actions if id(button) not in placed]
    values = view.get("values") or {}
    tray = view["tray"]
    return {
        "drawing": _tray_drawing(view),
        "pieces": in_tray,
        "picks": picks,
        "has_readings": any(piece["reading"] for piece in in_tray),
        "revealed": _is_revealed(view),
        "forces": _forces(view, numbers),
        "hidden_make_up": _hidden_make_up(view, numbers),
        "passed_over": any("bt-passed-over" in piece["classes"] for piece in in_tray),
        "pick_heading": "Take a piece" if view["variant"] == "no-pass" else "Touch a piece",
        "take": decide_take,
        "pass": pass_action,
        "leftover": leftover,
        "prompt": _prompt(board, numbers),
        "current_touch": _current_touch(board, numbers),
        "last_take": _last_take(board, numbers),
        "touch_history": _touch_history(board, numbers),
        "passing": _passing(view),
        "players": _players(board, numbers),
        "discard": discard,
        "solitaire": view["variant"] == "solitaire",
        "variant_name": VARIANT_NAMES.get(view["variant"], view["variant"]),
        "sizes": [
            {"size": size, "colour": SIZE_COLOURS[size], "value": values.get(size, 0)} for size in SIZES
        ],
        "bar_y": f"{tray['bar_y']:.2f}",
        "bar_at_release": f"{_release_bar_y(view):.2f}",
        "marking": f"{tray['marking']:g}",
    }
