"""What each seat sees. The Crisis Unit sees every tile and the Countdown's order;
employees and spectators see the public board only; ``reveal`` (finished matches
only) is the Crisis Unit's board for everyone. Everything a bot or a board
template needs is here, and ``sampling`` rebuilds a state from it."""

from __future__ import annotations

from typing import Any

from games.engine.its_a_bomb.board import (
    GRID_LABELS,
    cables_cut,
    card_label,
    is_cut,
    is_timer,
    line_positions,
    line_text,
    scenario_of,
    score_parts,
    seconds_left,
    team_score,
    tile_text,
    timer_seconds,
    usable_consultants,
)
from games.engine.its_a_bomb.consultants import (
    CONSULTANT_BY_NAME,
    EMPLOYEE_TURN,
    OVER,
)
from games.engine.its_a_bomb.rules import to_act
from games.engine.its_a_bomb.scenarios import (
    BATTERY,
    CALL,
    COLOURIST,
    DISTURBED_SIGNAL,
    EXPLOSION,
    RECEIVER,
    SPECIAL_CARDS,
    Scenario,
)
from games.engine.its_a_bomb.state import (
    CRISIS_UNIT,
    NOT_EXPLOSIVE,
    REVEALED,
    Information,
    Line,
    State,
    TileRef,
)
from games.engine.log import log_reveal, log_view


def view(state: State, seat: int | None) -> dict[str, Any]:
    scenario = scenario_of(state)
    sees_all = seat == CRISIS_UNIT
    running = state.phase != OVER
    return {
        "game": "its-a-bomb",
        "seat": seat,
        "role": _role(seat),
        "players": state.players,
        "crisis_unit_seat": CRISIS_UNIT,
        "employees": list(range(1, state.players)),
        # The Crisis Unit speaks only through its Consultants until the game ends.
        "chat_closed_seats": [CRISIS_UNIT] if running else [],
        "scenario": scenario_view(scenario),
        "round": state.round,
        "active_seat": state.active_seat,
        "phase": state.phase,
        "to_act": to_act(state),
        "prompt": _prompt(state),
        "pending": _pending(state),
        "colours": _colours(state, scenario),
        "grids": [_grid(state, index, sees_all) for index in range(len(state.grids))],
        "information": [_information(state, record) for record in state.information],
        "tile_facts": [
            {
                "consultant": fact.consultant,
                "round": fact.round,
                **_tile(state, TileRef(fact.grid, fact.position)),
                "fact": fact.fact,
            }
            for fact in state.facts
        ],
        "countdown": _countdown(state, sees_all),
        "disturbances_armed": state.disturbances,
        "battery": {"in_play": scenario.has_battery, "cut": is_cut(state, BATTERY)},
        "receiver": {"in_play": scenario.has_receiver, "cut": is_cut(state, RECEIVER)},
        "consultants": _consultants(state),
        "score": score_parts(state),
        "outcome": None
        if running
        else {
            "won": state.outcome == "won",
            "cause": state.cause,
            "score": team_score(state) if state.outcome == "won" else 0,
        },
        "log": log_view(state.log, seat),
    }


def reveal(state: State) -> dict[str, Any]:
    """Everything revealed (``Game.reveal``, finished matches only): what the Crisis Unit
    sees (every tile, the Countdown in order), shaped as a spectator's view."""
    shown = view(state, CRISIS_UNIT)
    shown.update(
        seat=None,
        role=_role(None),
        log=log_reveal(state.log),
        revealed=True,
        as_seen_by={str(seat): {"seat": seat, "role": _role(seat)} for seat in range(state.players)},
    )
    return shown


def _role(seat: int | None) -> str:
    if seat is None:
        return "spectator"
    return "crisis_unit" if seat == CRISIS_UNIT else "employee"


def scenario_view(scenario: Scenario) -> dict[str, Any]:
    return {
        "slug": scenario.slug,
        "number": scenario.number,
        "name": scenario.name,
        "level": scenario.level,
        "grids": [
            {
                "label": GRID_LABELS[index],
                "rows": spec.rows,
                "columns": spec.columns,
                "colours": list(spec.colours),
                "tiles": {kind: spec.tiles.count(kind) for kind in dict.fromkeys(spec.tiles)},
            }
            for index, spec in enumerate(scenario.grids)
        ],
        "colours": list(scenario.colours),
        "available_time": 10 * scenario.time,
        "special_cards": list(scenario.special_cards),
        "consultants": list(scenario.consultants),
        "consultants_drawn": scenario.consultants_drawn,
        "purple_rule": scenario.purple_rule,
        "cutting_order": list(scenario.colours) if scenario.cutting_order else None,
        "additional_bomb": scenario.additional_bomb,
    }


def _tile(state: State, ref: TileRef) -> dict[str, Any]:
    columns = state.grids[ref.grid].columns
    return {
        "grid": ref.grid,
        "row": ref.position // columns,
        "column": ref.position % columns,
        "label": tile_text(state, ref.grid, ref.position),
    }


def _line(state: State, line: Line) -> dict[str, Any]:
    return {"grid": line.grid, "line": line.kind, "index": line.index, "label": line_text(state, line)}


def _prompt(state: State) -> dict[str, Any] | None:
    """Who owes which decision now (public: it is built from public facts only)."""
    if state.phase == OVER:
        return None
    if state.phase == EMPLOYEE_TURN:
        must_cut = state.stopped is not None
        return {
            "seat": state.active_seat,
            "decision": "cut_again" if must_cut else "ask_or_cut",
            "text": f"{{s{state.active_seat}}} must name another tile to cut."
            if must_cut
            else f"{{s{state.active_seat}}} asks for Information or cuts a cable.",
        }
    usable = usable_consultants(state)
    labels = " or ".join(CONSULTANT_BY_NAME[name].label for name in usable)
    return {
        "seat": CRISIS_UNIT,
        "decision": "consultant",
        "moment": state.phase,
        "usable_consultants": usable,
        "text": f"{{s0}} may use the {labels}, or let the moment pass.",
    }


def _pending(state: State) -> dict[str, Any]:
    """The round's unfinished business (what a Consultant decision is about)."""
    return {
        "asked_line": None if state.asked is None else _line(state, state.asked),
        "extra_line": None if state.extra is None else _line(state, state.extra),
        "analyst": state.analyst,
        "informant": state.informant,
        "tile": None if state.tile is None else _tile(state, state.tile),
        "stopped_tile": None if state.stopped is None else _tile(state, state.stopped),
        "cards_due": state.cards_due,
        "then": state.then or None,
    }


def _colours(state: State, scenario: Scenario) -> list[dict[str, Any]]:
    colours = []
    for index, spec in enumerate(scenario.grids):
        for colour in spec.colours:
            cut = cables_cut(state.grids[index], colour)
            needed = scenario.cables_needed(colour)
            colours.append(
                {
                    "grid": index,
                    "colour": colour,
                    "cut": cut,
                    "needed": needed,
                    "started": cut > 0,
                    "done": cut >= needed,
                }
            )
    return colours


def _grid(state: State, index: int, sees_all: bool) -> dict[str, Any]:
    grid = state.grids[index]
    known_safe = {fact.position for fact in state.facts if fact.grid == index and fact.fact == NOT_EXPLOSIVE}
    shown_kind = {
        fact.position: fact.fact
        for fact in state.facts
        if fact.grid == index and fact.consultant == COLOURIST
    }
    tiles = []
    for position, revealed in enumerate(grid.revealed):
        tiles.append(
            {
                "row": position // grid.columns,
                "column": position % grid.columns,
                "revealed": revealed,
                "kind": grid.tiles[position] if revealed or sees_all else None,
                "marked_not_explosive": position in known_safe,
                "colourist_kind": shown_kind.get(position),
            }
        )
    return {
        "grid": index,
        "label": GRID_LABELS[index],
        "rows": grid.rows,
        "columns": grid.columns,
        "face_down": grid.revealed.count(False),
        "tiles": tiles,
    }


def _information(state: State, record: Information) -> dict[str, Any]:
    grid = state.grids[record.grid]
    columns = grid.columns
    shown: dict[str, Any] = {
        "round": record.round,
        **_line(state, Line(record.grid, record.line, record.index)),
        "face_down": [
            {"row": position // columns, "column": position % columns} for position in record.face_down
        ],
        "tokens": list(record.tokens),
        "count": record.count,
        "analyst": record.analyst,
        "informant": record.informant,
        "surveyor": record.surveyor,
        "disturbed": record.disturbed,
        "slots": None,
    }
    if record.analyst:
        positions = line_positions(grid, record.line, record.index)
        shown["slots"] = [
            {
                "row": position // columns,
                "column": position % columns,
                "shows": token,
                # A tile revealed before the Information shows itself.
                "tile": grid.tiles[position] if token == REVEALED else None,
            }
            for position, token in zip(positions, record.tokens, strict=True)
        ]
    return shown


def card_view(card: str) -> dict[str, Any]:
    timer = is_timer(card)
    return {
        "card": card,
        "kind": "timer" if timer else card,
        "label": card_label(card),
        "seconds": timer_seconds(card) if timer else None,
    }


def _countdown(state: State, sees_all: bool) -> dict[str, Any]:
    remaining = [card for card in state.countdown if card in SPECIAL_CARDS]
    return {
        "size": len(state.countdown),
        "seconds_left": seconds_left(state),
        "timers_left": sum(1 for card in state.countdown if is_timer(card)),
        "special_cards": [card for card in (CALL, DISTURBED_SIGNAL) for _ in range(remaining.count(card))],
        "has_explosion": EXPLOSION in state.countdown,
        "top": card_view(state.countdown[0]) if state.top_known else None,
        "cards": [card_view(card) for card in state.countdown] if sees_all else None,
        "discard": [card_view(card) for card in state.discard],
    }


def _consultants(state: State) -> list[dict[str, Any]]:
    usable = set(usable_consultants(state))
    return [
        {
            "name": held.name,
            "label": CONSULTANT_BY_NAME[held.name].label,
            "moment": CONSULTANT_BY_NAME[held.name].moment,
            "target": CONSULTANT_BY_NAME[held.name].target,
            "text": CONSULTANT_BY_NAME[held.name].text,
            "status": held.status,
            "usable_now": held.name in usable,
        }
        for held in state.consultants
    ]
