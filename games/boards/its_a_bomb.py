"""The board of It's a Bomb!: the grid(s) of tiles, the Information records, the
Countdown and the Crisis Unit's Consultants, drawn from one seat's view.

Where each legal action goes:

- ``ask`` (an employee) and ``use_on_line`` (the Surveyor) are the buttons at the
  edges of the grid, one per row and column; they are never legal at the same time;
- ``cut`` is the tile itself;
- ``use_on_tile`` (Marker, Colourist) are small buttons under the tile they name;
- ``use`` and ``standing_pass`` sit on the Consultant's card: the cards usable at this
  moment are drawn in the prompt, with ``pass`` after them; the others keep their
  ``standing_pass`` on the list of Consultants.

Whatever this module does not place (nothing, today) is listed as plain buttons, so
that every legal action is always exactly one button.

``actform`` escapes markup inside a button (it strips the rendered inner HTML,
which drops its "safe" mark), so the tile and target buttons carry their label as text
and lie, transparent, over their SVG drawing (``.iab-hit`` in the CSS).

Everything revealed (a finished match's replay, ``view["revealed"]``) is the Crisis
Unit's board for everyone: every face-down tile shows its kind, marked as hidden during
the game (a dashed frame and a corner in the back's stripes, and words), and the
Countdown is laid out in order, top first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.boards import generic
from games.boards.its_a_bomb_scenarios import scenario_summary
from games.engine.log import render_text

if TYPE_CHECKING:
    from games.boards import ActionButton, Board

COLOURS = ("red", "yellow", "blue", "green", "purple")

# What a tile is, in words (titles, labels, legends).
KIND_WORDS = {
    "red": "a red cable",
    "yellow": "a yellow cable",
    "blue": "a blue cable",
    "green": "a green cable",
    "purple": "a purple cable",
    "grey": "a grey cable",
    "auxiliary": "an Auxiliary Detonator",
    "explosive": "an Explosive",
    "battery": "the Battery",
    "receiver": "the Receiver",
}
KIND_NAMES = {
    "red": "red cable",
    "yellow": "yellow cable",
    "blue": "blue cable",
    "green": "green cable",
    "purple": "purple cable",
    "grey": "grey cable",
    "auxiliary": "Auxiliary Detonator",
    "explosive": "Explosive",
    "battery": "Battery",
    "receiver": "Receiver",
}
# A letter on coloured tiles and tokens, so that colour is never the only clue.
KIND_LETTERS = {
    "red": "R",
    "yellow": "Y",
    "blue": "B",
    "green": "G",
    "purple": "P",
    "grey": "",
    "auxiliary": "",
    "explosive": "",
    "battery": "",
    "receiver": "",
}
# Which drawing (an SVG symbol of the board's sprite) shows a kind.
KIND_SYMBOLS = {
    **dict.fromkeys(COLOURS, "cable"),
    "grey": "cable",
    "auxiliary": "aux",
    "explosive": "explosive",
    "battery": "battery",
    "receiver": "receiver",
}

TOKEN_WORDS = {
    **{colour: colour for colour in COLOURS},
    "grey": "grey",
    "explosive": "Explosive",
    "battery": "Battery",
    "receiver": "Receiver",
    "blank": "blank (a grey cable or an Auxiliary)",
    "revealed": "already revealed",
}
TOKEN_GLYPHS = {
    **{colour: KIND_LETTERS[colour] for colour in COLOURS},
    "grey": "",
    "explosive": "!",
    "battery": "+",
    "receiver": "~",
    "blank": "",
    "revealed": "",
}

LEVEL_WORDS = {
    "training": "Training",
    "standard": "Standard",
    "advanced": "Advanced",
    "special": "Special",
}

MOMENT_WORDS = {
    "round_start": "Start of a round",
    "information": "Information",
    "cut_named": "A cut is named",
    "explosive_revealed": "An Explosive is revealed",
    "advance": "Advance the Countdown",
    "card_revealed": "A Call or Signal is revealed",
}

STATUS_WORDS = {
    "ready": "Ready",
    "used": "Used",
    "standing_pass": "Will not be used",
}

# The "pass" button says what letting this moment pass means.
PASS_WORDS = {
    "round_start": "Pass: let the round begin",
    "information": "Pass: give the Information as it is",
    "cut_named": "Pass: let the cut go ahead",
    "explosive_revealed": "Pass: let the Explosive go off",
    "advance": "Pass: let the Countdown advance",
    "card_revealed": "Pass: let the card act",
}

CAUSE_WORDS = {
    "defused": "Every colour is done: the bomb is defused!",
    "explosive": "An Explosive went off. BOOM.",
    "explosion": "The Countdown reached the Explosion. BOOM.",
    "cutting_order": "A colour was started out of order. BOOM.",
}

CARD_WORDS = {
    "call": "Call",
    "disturbed_signal": "Disturbed Signal",
    "explosion": "Explosion",
}


# -- words ---------------------------------------------------------------------------


def _two_grids(view: dict[str, Any]) -> bool:
    return bool(view.get("scenario", {}).get("additional_bomb"))


def _grid_letter(grid: int) -> str:
    return "AB"[grid] if 0 <= grid < 2 else str(grid + 1)


def _line_words(view: dict[str, Any], grid: int, line: str, index: int) -> str:
    where = f"{line} {index + 1}"
    return f"{where} of grid {_grid_letter(grid)}" if _two_grids(view) else where


def _tile_words(view: dict[str, Any], grid: int, row: int, column: int) -> str:
    where = f"row {row + 1}, column {column + 1}"
    return f"grid {_grid_letter(grid)}, {where}" if _two_grids(view) else where


def _tile_of(view: dict[str, Any], grid: int, row: int, column: int) -> dict[str, Any] | None:
    grids = view.get("grids") or []
    if not 0 <= grid < len(grids):
        return None
    for tile in grids[grid]["tiles"]:
        if tile["row"] == row and tile["column"] == column:
            return dict(tile)
    return None


def _consultant_label(view: dict[str, Any], name: str) -> str:
    for held in view.get("consultants") or []:
        if held["name"] == name:
            return str(held["label"])
    return name.replace("_", " ").title()


def _the(label: str) -> str:
    # "the Analyst", but "Containment" reads without an article.
    return label if label == "Containment" else f"the {label}"


def _minutes(seconds: int) -> str:
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def _what_is_known(view: dict[str, Any], grid: int, row: int, column: int) -> str:
    """What the viewer knows about a face-down tile, for a button's words ("" if nothing)."""
    tile = _tile_of(view, grid, row, column)
    if tile is None:
        return ""
    if tile.get("kind"):
        return f" ({KIND_WORDS.get(tile['kind'], tile['kind'])})"
    if tile.get("colourist_kind"):
        return f" (the Colourist showed {KIND_WORDS.get(tile['colourist_kind'], tile['colourist_kind'])})"
    if tile.get("marked_not_explosive"):
        return " (marked: not an Explosive)"
    return ""


def _use_words(view: dict[str, Any], name: str) -> str:
    label = _consultant_label(view, name)
    discard = view.get("countdown", {}).get("discard") or []
    if name == "analyst":
        return "Use the Analyst: lay the tokens out in tile order"
    if name == "informant":
        return "Use the Informant: grey cables give grey tokens too"
    if name == "sapper":
        return 'Use the Sapper: "Stop!" this cut'
    if name == "containment":
        return "Use Containment: the Explosive does not explode"
    if name == "chronometrist":
        return "Use the Chronometrist: skip this round's advance"
    if name == "negotiator":
        timer = next((card for card in discard if card.get("kind") == "timer"), None)
        back = f"the {timer['label']} Timer" if timer else "the last Timer"
        return f"Use the Negotiator: put {back} back on top"
    if name == "radio_operator":
        card = f"the {discard[0]['label']}" if discard else "the card"
        return f"Use the Radio Operator: cancel {card}"
    return f"Use {_the(label)}"


def choice_label(option: str, choice: str) -> str | None:
    """A scenario in words, wherever players pick or see one: its number, its name,
    its class and how often a bot team wins it, as measured, so a table can pick its
    difficulty ("2. Lab N457 (standard, a basic bot team wins 61%)")."""
    scenario = scenario_summary(choice) if option == "scenario" else None
    return scenario.label if scenario is not None else None


def label(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "ask":
        return f"Ask for Information on {_line_words(view, action['grid'], action['line'], action['index'])}"
    if kind == "cut":
        grid, row, column = action["grid"], action["row"], action["column"]
        known = _what_is_known(view, grid, row, column)
        return f"Cut the tile at {_tile_words(view, grid, row, column)}{known}"
    if kind == "use":
        return _use_words(view, action["consultant"])
    if kind == "use_on_line":
        where = _line_words(view, action["grid"], action["line"], action["index"])
        return f"{_consultant_label(view, action['consultant'])}: also give Information on {where}"
    if kind == "use_on_tile":
        grid, row, column = action["grid"], action["row"], action["column"]
        where = _tile_words(view, grid, row, column) + _what_is_known(view, grid, row, column)
        if action["consultant"] == "marker":
            return f"Marker: mark the tile at {where} as not an Explosive"
        if action["consultant"] == "colourist":
            return f"Colourist: show everyone the tile at {where}"
        return f"{_consultant_label(view, action['consultant'])}: the tile at {where}"
    if kind == "pass":
        return PASS_WORDS.get(str(view.get("phase")), "Pass: let the moment pass")
    if kind == "standing_pass":
        return f"Never use {_the(_consultant_label(view, action['consultant']))} (stop asking)"
    return generic.label(view, action)


# -- the board -----------------------------------------------------------------------


class _Actions:
    """The viewer's legal actions, taken out one by one as the board places them."""

    def __init__(self, actions: list[ActionButton]) -> None:
        self.left = list(actions)

    def take(self, **fields: Any) -> ActionButton | None:
        for button in self.left:
            if all(button.action.get(key) == value for key, value in fields.items()):
                self.left.remove(button)
                return button
        return None


def _same_line(line: dict[str, Any] | None, grid: int, kind: str, index: int) -> bool:
    return line is not None and (line["grid"], line["line"], line["index"]) == (grid, kind, index)


def _same_tile(tile: dict[str, Any] | None, grid: int, row: int, column: int) -> bool:
    return tile is not None and (tile["grid"], tile["row"], tile["column"]) == (grid, row, column)


def _token(kind: str, tile: str | None = None) -> dict[str, Any]:
    """One Information token as drawn: ``tile`` is the revealed tile an Analyst slot shows."""
    words = TOKEN_WORDS.get(kind, kind)
    if kind == "revealed" and tile:
        words = f"already revealed ({KIND_NAMES.get(tile, tile)})"
    return {"kind": kind, "glyph": TOKEN_GLYPHS.get(kind, ""), "words": words}


def _record(view: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """An Information record: its tokens as drawn, and its story in words."""
    if record["disturbed"]:
        tokens = [{"kind": "unknown", "glyph": "?", "words": "a token (disturbed)"}] * record["count"]
        plural = "" if record["count"] == 1 else "s"
        summary = f"disturbed signal: {record['count']} token{plural}, nothing more"
    elif record["analyst"] and record.get("slots"):
        tokens = [_token(slot["shows"], slot.get("tile")) for slot in record["slots"]]
        summary = "in tile order: " + ", ".join(token["words"] for token in tokens)
    else:
        tokens = [_token(kind) for kind in record["tokens"]]
        summary = ", ".join(token["words"] for token in tokens) or "no token"
    tags = [
        tag
        for tag, on in (
            ("Surveyor", record["surveyor"]),
            ("Analyst", record["analyst"]),
            ("Informant", record["informant"]),
            ("Disturbed", record["disturbed"]),
        )
        if on
    ]
    where = _line_words(view, record["grid"], record["line"], record["index"])
    return {
        "round": record["round"],
        "grid": record["grid"],
        "line": record["line"],
        "index": record["index"],
        "where": where,
        "tokens": tokens,
        "tags": tags,
        "ordered": record["analyst"] and not record["disturbed"],
        "disturbed": record["disturbed"],
        "summary": summary,
        "words": f"Round {record['round']}, {where}: {summary}",
    }


def _is_revealed(view: dict[str, Any]) -> bool:
    """Everything revealed: every tile's kind and the Countdown's order are in the view."""
    return bool(view.get("revealed"))


def _tile_cell(
    view: dict[str, Any], grid: int, tile: dict[str, Any], actions: _Actions, pending: dict[str, Any]
) -> dict[str, Any]:
    row, column = tile["row"], tile["column"]
    revealed = tile["revealed"]
    kind = tile.get("kind")
    everything = _is_revealed(view)
    # What the Colourist showed is everyone's knowledge: said so wherever the viewer would
    # not know the kind otherwise, and once everything is revealed.
    shown_by_colourist = (
        not revealed and tile.get("colourist_kind") is not None and (kind is None or everything)
    )
    if shown_by_colourist:
        kind = tile["colourist_kind"]
    # Everything revealed: any other face-down tile's kind was the Crisis Unit's alone.
    was_hidden = everything and not revealed and kind is not None and not shown_by_colourist
    face = "up" if revealed else "known" if kind else "down"
    where = _tile_words(view, grid, row, column)
    if revealed:
        words = f"{where}: {KIND_WORDS.get(kind or '', kind)}, cut"
    elif shown_by_colourist:
        words = f"{where}: face down, the Colourist showed {KIND_WORDS.get(kind or '', kind)}"
    elif was_hidden:
        words = f"{where}: face down, hidden during the game: {KIND_WORDS.get(kind or '', kind)}"
    elif kind:
        words = f"{where}: face down, {KIND_WORDS.get(kind, kind)} (only you see it)"
    else:
        words = f"{where}: face down"
    if tile.get("marked_not_explosive"):
        words += "; marked: not an Explosive"
    named = _same_tile(pending.get("tile"), grid, row, column)
    stopped = _same_tile(pending.get("stopped_tile"), grid, row, column)
    if named:
        words += "; named for the cut" if not revealed else "; just revealed"
    if stopped:
        words += "; stopped by the Sapper"
    return {
        "row": row,
        "column": column,
        "face": face,
        "kind": kind or "",
        "was_hidden": was_hidden,
        "symbol": KIND_SYMBOLS.get(kind or "", ""),
        "letter": KIND_LETTERS.get(kind or "", ""),
        "words": words,
        "marked": bool(tile.get("marked_not_explosive")),
        "colourist": tile.get("colourist_kind") is not None,
        "named": named,
        "stopped": stopped,
        "on_asked": False,  # set by the lines below
        "on_extra": False,
        "cut_act": actions.take(type="cut", grid=grid, row=row, column=column),
        "mark_act": actions.take(type="use_on_tile", consultant="marker", grid=grid, row=row, column=column),
        "show_act": actions.take(
            type="use_on_tile", consultant="colourist", grid=grid, row=row, column=column
        ),
    }


def _line_head(
    view: dict[str, Any],
    grid: int,
    kind: str,
    index: int,
    actions: _Actions,
    records: list[dict[str, Any]],
    pending: dict[str, Any],
) -> dict[str, Any]:
    # An employee's ask and the Surveyor's extra line are never legal at once.
    act = actions.take(type="ask", grid=grid, line=kind, index=index) or actions.take(
        type="use_on_line", grid=grid, line=kind, index=index
    )
    surveyor = act is not None and act.type == "use_on_line"
    return {
        "kind": kind,
        "index": index,
        "number": index + 1,
        "words": _line_words(view, grid, kind, index),
        "act": act,
        "surveyor": surveyor,
        "css": "iab-line-btn iab-line-btn--survey" if surveyor else "iab-line-btn",
        "asked": _same_line(pending.get("asked_line"), grid, kind, index),
        "extra": _same_line(pending.get("extra_line"), grid, kind, index),
        "records": [
            record
            for record in records
            if (record["grid"], record["line"], record["index"]) == (grid, kind, index)
        ],
    }


def _grids(
    view: dict[str, Any], actions: _Actions, records: list[dict[str, Any]], pending: dict[str, Any]
) -> list[dict[str, Any]]:
    grids = []
    for grid in view.get("grids") or []:
        number = grid["grid"]
        rows, columns = grid["rows"], grid["columns"]
        cells = {
            (tile["row"], tile["column"]): _tile_cell(view, number, tile, actions, pending)
            for tile in grid["tiles"]
        }
        column_heads = [
            _line_head(view, number, "column", column, actions, records, pending) for column in range(columns)
        ]
        row_lines = []
        for row in range(rows):
            head = _line_head(view, number, "row", row, actions, records, pending)
            tiles = [cells[(row, column)] for column in range(columns)]
            for column, tile in enumerate(tiles):
                tile["on_asked"] = head["asked"] or column_heads[column]["asked"]
                tile["on_extra"] = head["extra"] or column_heads[column]["extra"]
            row_lines.append({"head": head, "tiles": tiles})
        targets = any(cell["mark_act"] or cell["show_act"] for cell in cells.values())
        grids.append(
            {
                "grid": number,
                "label": grid["label"],
                "rows": rows,
                "columns": columns,
                "face_down": grid["face_down"],
                "column_heads": column_heads,
                "row_lines": row_lines,
                "tile_targets": targets,
            }
        )
    return grids


def _goal(view: dict[str, Any]) -> dict[str, Any]:
    scenario = view["scenario"]
    colours = scenario["colours"]
    if scenario["additional_bomb"]:
        parts = [f"grid {spec['label']} one {', one '.join(spec['colours'])}" for spec in scenario["grids"]]
        text = (
            "Two bombs share one Countdown. Cut a cable of each colour in each grid: "
            + "; ".join(parts)
            + "."
        )
    else:
        text = f"Cut at least one cable of each colour in play: {', '.join(colours)}."
    rules = []
    if scenario["purple_rule"]:
        rules.append("Purple rule: purple is done only when all three purple cables are cut.")
    if scenario["cutting_order"]:
        order = " → ".join(scenario["cutting_order"])
        rules.append(
            f"Cutting order: start the colours in this order, {order}; starting one early explodes the bomb."
        )
    battery, receiver = view.get("battery") or {}, view.get("receiver") or {}
    has_auxiliaries = any(spec["tiles"].get("auxiliary") for spec in scenario["grids"])
    if has_auxiliaries:
        if battery.get("in_play"):
            state = "cut: they are harmless now" if battery.get("cut") else "not cut yet"
            rules.append(
                f"An Auxiliary Detonator fires one extra Countdown card until the Battery is cut ({state})."
            )
        else:
            rules.append("No Battery: every Auxiliary Detonator fires one extra Countdown card.")
    if "call" in scenario["special_cards"]:
        if receiver.get("in_play"):
            state = "cut: the Call is harmless now" if receiver.get("cut") else "not cut yet"
            rules.append(f"The Call sends two more Countdown cards until the Receiver is cut ({state}).")
        else:
            rules.append("The Call sends two more Countdown cards.")
    if "disturbed_signal" in scenario["special_cards"]:
        rules.append("A Disturbed Signal makes the next Information show only its number of tokens.")
    mixes = []
    for spec in scenario["grids"]:
        mix = [
            {
                "kind": kind,
                "symbol": KIND_SYMBOLS.get(kind, ""),
                "letter": KIND_LETTERS.get(kind, ""),
                "count": count,
                "words": f"{count} {KIND_NAMES.get(kind, kind)}{'s' if count > 1 else ''}",
            }
            for kind, count in spec["tiles"].items()
        ]
        mixes.append({"label": spec["label"], "tiles": mix})
    return {"text": text, "rules": rules, "mixes": mixes}


def _colours(view: dict[str, Any]) -> list[dict[str, Any]]:
    progress = []
    for item in view.get("colours") or []:
        grid_prefix = f"grid {_grid_letter(item['grid'])}: " if _two_grids(view) else ""
        state = "done" if item["done"] else f"{item['cut']} of {item['needed']} cut"
        progress.append(
            {
                **item,
                "letter": KIND_LETTERS.get(item["colour"], ""),
                "grid_label": _grid_letter(item["grid"]),
                "words": f"{grid_prefix}{item['colour']}: {state}",
            }
        )
    return progress


def _card(card: dict[str, Any]) -> dict[str, Any]:
    return {**card, "words": card["label"] if card["kind"] != "timer" else f"Timer {card['label']}"}


def _countdown(view: dict[str, Any]) -> dict[str, Any]:
    countdown = view["countdown"]
    specials = countdown.get("special_cards") or []
    special_counts = [
        {"kind": kind, "count": specials.count(kind), "words": CARD_WORDS[kind]}
        for kind in ("call", "disturbed_signal")
        if kind in specials
    ]
    cards = countdown.get("cards")
    return {
        "time": _minutes(countdown["seconds_left"]),
        "seconds_left": countdown["seconds_left"],
        "size": countdown["size"],
        "timers_left": countdown["timers_left"],
        "specials": special_counts,
        "has_explosion": countdown["has_explosion"],
        "top": _card(countdown["top"]) if countdown.get("top") else None,
        "cards": [_card(card) for card in cards] if cards is not None else None,
        # Who may see the order: the Crisis Unit during the game, everyone once revealed.
        "order_words": "hidden during the game" if _is_revealed(view) else "only you see it",
        "discard": [_card(card) for card in countdown.get("discard") or []],
        "disturbances": view.get("disturbances_armed", 0),
    }


def _consultants(view: dict[str, Any], actions: _Actions, deciding: bool) -> list[dict[str, Any]]:
    """The Crisis Unit's cards; ``deciding``: the viewer is the Crisis Unit owing a decision now.

    The cards usable at this moment are drawn again in the prompt (``now``), with their
    buttons, so that the whole decision sits in one place; the others keep their
    "never ask again" button on the list."""
    shown = []
    for held in view.get("consultants") or []:
        name = held["name"]
        now = deciding and held["usable_now"]
        target_hint = ""
        if now and held["target"] == "line":
            target_hint = "Pick the extra line with the ⊕ buttons at the edges of the grid."
        elif now and held["target"] == "tile":
            icon = "shield" if name == "marker" else "eye"
            target_hint = f"Pick a tile with its {icon} button under the tile."
        shown.append(
            {
                **held,
                "now": now,
                "buttons_on_list": not now,
                "moment_words": MOMENT_WORDS.get(held["moment"], held["moment"]),
                "status_words": STATUS_WORDS.get(held["status"], held["status"]),
                "use_act": actions.take(type="use", consultant=name),
                "standing_act": actions.take(type="standing_pass", consultant=name),
                "target_hint": target_hint,
            }
        )
    return shown


def _moment(board: Board) -> str:
    """What is going on now, in words every seat may read."""
    view = board.view
    phase = view["phase"]
    pending = view.get("pending") or {}
    active = board.name(view.get("active_seat"))
    if phase == "over":
        return CAUSE_WORDS.get((view.get("outcome") or {}).get("cause", ""), "The game is over.")
    if phase == "round_start":
        return f"Round {view['round']} begins: it is {active}'s round."
    if phase == "employee_turn":
        stopped = pending.get("stopped_tile")
        if stopped:
            return f"The Sapper stopped the cut at {stopped['label']}: {active} must name another tile."
        return f"Round {view['round']}: {active} asks for Information or cuts a cable."
    if phase == "information" and pending.get("asked_line"):
        text = f"{active} asks for Information on {pending['asked_line']['label']}."
        if pending.get("extra_line"):
            text += f" The Surveyor adds {pending['extra_line']['label']}."
        applied = [
            name
            for name, on in (("Analyst", pending.get("analyst")), ("Informant", pending.get("informant")))
            if on
        ]
        if applied:
            text += f" With the {' and the '.join(applied)}."
        return text
    if phase == "cut_named" and pending.get("tile"):
        return f"{active} names the tile at {pending['tile']['label']} to cut."
    if phase == "explosive_revealed" and pending.get("tile"):
        return f"The tile at {pending['tile']['label']} is an Explosive!"
    if phase == "advance":
        return "The Countdown is about to advance."
    if phase == "card_revealed":
        discard = view["countdown"]["discard"]
        card = discard[0]["label"] if discard else "a card"
        return f"The Countdown revealed the {card}."
    return ""


def _prompt(board: Board) -> str:
    """One line: what the viewer must do now (or whom we wait for)."""
    view = board.view
    prompt = view.get("prompt")
    if view["phase"] == "over" or prompt is None:
        # The outcome itself is the banner above; this line says what is left to see.
        won = (view.get("outcome") or {}).get("won")
        together = "The whole team wins together." if won else "The whole team loses together."
        return f"Game over. {together} The replay shows where every tile was."
    if not board.my_turn:
        return render_text(str(prompt["text"]), board.names)
    if prompt["decision"] == "cut_again":
        return "The Sapper stopped your cut: tap another tile to cut it."
    if prompt["decision"] == "ask_or_cut":
        return (
            "Your round: ask for Information on a line (the arrows at the edges of the grid) "
            "or cut a cable (tap a face-down tile)."
        )
    usable = [_the(_consultant_label(view, name)) for name in prompt.get("usable_consultants") or []]
    offer = usable[-1] if len(usable) < 2 else f"{', '.join(usable[:-1])} or {usable[-1]}"
    return f"{_moment(board)} You may call in {offer}, or pass."


def _employees(board: Board) -> list[dict[str, Any]]:
    view = board.view
    return [
        {"seat": seat, "name": board.name(seat), "active": seat == view.get("active_seat")}
        for seat in view.get("employees") or []
    ]


def _facts(view: dict[str, Any]) -> list[str]:
    facts = []
    for fact in view.get("tile_facts") or []:
        where = _tile_words(view, fact["grid"], fact["row"], fact["column"])
        says = (
            "is not an Explosive"
            if fact["fact"] == "not_explosive"
            else f"is {KIND_WORDS.get(fact['fact'], fact['fact'])}"
        )
        facts.append(f"Round {fact['round']}, {fact['consultant'].title()}: the tile at {where} {says}.")
    return facts


def prepare(board: Board) -> dict[str, Any]:
    view = board.view
    actions = _Actions(board.actions)
    pending = view.get("pending") or {}
    records = [_record(view, record) for record in view.get("information") or []]
    grids = _grids(view, actions, records, pending)
    consultants = _consultants(view, actions, board.my_turn and view["role"] == "crisis_unit")
    pass_act = actions.take(type="pass")
    scenario = view["scenario"]
    outcome = view.get("outcome")
    score = view.get("score") or {}
    return {
        "role": view["role"],
        "revealed": _is_revealed(view),
        "is_crisis_unit": view["role"] == "crisis_unit",
        "crisis_unit_name": board.name(view.get("crisis_unit_seat", 0)),
        "scenario": scenario,
        "level": LEVEL_WORDS.get(scenario["level"], scenario["level"]),
        "goal": _goal(view),
        "colours": _colours(view),
        "two_grids": _two_grids(view),
        "grids": grids,
        "records": list(reversed(records)),  # newest first
        "facts": _facts(view),
        "countdown": _countdown(view),
        "consultants": consultants,
        "consultants_now": [held for held in consultants if held["now"]],
        "pass_act": pass_act,
        "moment": _moment(board),
        "prompt": _prompt(board),
        "employees": _employees(board),
        "round": view["round"],
        "over": view["phase"] == "over",
        "outcome": outcome,
        "score": score,
        # Anything not placed above stays reachable as a plain button.
        "other_actions": actions.left,
    }
