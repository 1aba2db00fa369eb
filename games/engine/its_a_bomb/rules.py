"""Setup, whose decision it is, the legal actions, and playing one action."""

from __future__ import annotations

from typing import Any

from games.engine.errors import IllegalAction
from games.engine.its_a_bomb.board import (
    card_label,
    colourist_targets,
    has_face_down,
    is_coloured,
    is_known_safe,
    is_timer,
    is_usable,
    kind_text,
    line_count,
    line_text,
    marker_targets,
    surveyor_lines,
    tile_text,
    timer_card,
    usable_consultants,
)
from games.engine.its_a_bomb.consultants import (
    CONSULTANT_BY_NAME,
    CUT_NAMED,
    EMPLOYEE_TURN,
    INFORMATION,
    OVER,
    ROUND_START,
)
from games.engine.its_a_bomb.flow import end_round, let_pass, log_event, run_countdown, settle
from games.engine.its_a_bomb.scenarios import (
    ANALYST,
    CHRONOMETRIST,
    COLOURIST,
    CONTAINMENT,
    EXPLOSION,
    EXPLOSIVE,
    INFORMANT,
    MARKER,
    NEGOTIATOR,
    RADIO_OPERATOR,
    SAPPER,
    SCENARIO_BY_SLUG,
    SURVEYOR,
)
from games.engine.its_a_bomb.state import (
    COLUMN,
    CRISIS_UNIT,
    NOT_EXPLOSIVE,
    READY,
    ROW,
    STANDING_PASS,
    THEN_ADVANCE,
    USED,
    Draft,
    Grid,
    HeldConsultant,
    Line,
    State,
    TileFact,
    TileRef,
)
from games.engine.rng import RngState, resume

# -- setup ---------------------------------------------------------------------------


def setup(players: int, rng_state: RngState, scenario_slug: str) -> State:
    scenario = SCENARIO_BY_SLUG[scenario_slug]
    rng = resume(rng_state)
    grids = tuple(
        Grid(spec.rows, spec.columns, rng.shuffled(spec.tiles), (False,) * (spec.rows * spec.columns))
        for spec in scenario.grids
    )
    # The Explosion at the bottom, the Timers on it from 00:10 up to the available time.
    countdown: tuple[str, ...] = (
        *(timer_card(10 * count) for count in range(scenario.time, 0, -1)),
        EXPLOSION,
    )
    for card in scenario.special_cards:
        # Any gap from the very top down to just above the Explosion.
        gap = rng.below(len(countdown))
        countdown = (*countdown[:gap], card, *countdown[gap:])
    names = scenario.consultants
    if scenario.consultants_drawn is not None:
        drawn = set(rng.shuffled(names)[: scenario.consultants_drawn])
        names = tuple(name for name in names if name in drawn)
    draft = Draft(
        scenario=scenario.slug,
        players=players,
        rng=rng.state,
        grids=grids,
        countdown=countdown,
        discard=(),
        top_known=False,
        consultants=tuple(HeldConsultant(name, READY) for name in names),
        round=1,
        active_seat=1,
        phase=ROUND_START,
        asked=None,
        extra=None,
        analyst=False,
        informant=False,
        tile=None,
        stopped=None,
        cards_due=0,
        then="",
        disturbances=0,
        information=(),
        facts=(),
        outcome="",
        cause="",
        log=(),
    )
    labels = ", ".join(CONSULTANT_BY_NAME[name].label for name in names) or "no Consultant"
    log_event(
        draft,
        "setup",
        None,
        f"Scenario {scenario.number}, {scenario.name}: {{s0}} is the Crisis Unit with {labels}.",
        scenario=scenario.slug,
        consultants=list(names),
    )
    settle(draft)
    return draft.freeze()


# -- whose decision, and which ---------------------------------------------------------


def to_act(state: State) -> list[int]:
    if state.phase == OVER:
        return []
    if state.phase == EMPLOYEE_TURN:
        return [state.active_seat]
    return [CRISIS_UNIT]


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    if state.phase == EMPLOYEE_TURN:
        return _employee_actions(state)
    actions: list[dict[str, Any]] = []
    for name in usable_consultants(state):
        if name == SURVEYOR:
            actions.extend(
                {
                    "type": "use_on_line",
                    "consultant": name,
                    "grid": line.grid,
                    "line": line.kind,
                    "index": line.index,
                }
                for line in surveyor_lines(state)
            )
        elif name in (MARKER, COLOURIST):
            targets = marker_targets(state) if name == MARKER else colourist_targets(state)
            for ref in targets:
                columns = state.grids[ref.grid].columns
                actions.append(
                    {
                        "type": "use_on_tile",
                        "consultant": name,
                        "grid": ref.grid,
                        "row": ref.position // columns,
                        "column": ref.position % columns,
                    }
                )
        else:
            actions.append({"type": "use", "consultant": name})
    actions.append({"type": "pass"})
    actions.extend(
        {"type": "standing_pass", "consultant": held.name}
        for held in state.consultants
        if held.status == READY
    )
    return actions


def _employee_actions(state: State) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    stopped = state.stopped
    for index, grid in enumerate(state.grids):
        if stopped is None:
            for kind in (ROW, COLUMN):
                for number in range(line_count(grid, kind)):
                    if has_face_down(grid, kind, number):
                        actions.append({"type": "ask", "grid": index, "line": kind, "index": number})
        skip = stopped.position if stopped is not None and stopped.grid == index else -1
        columns = grid.columns
        for position, revealed in enumerate(grid.revealed):
            if not revealed and position != skip:
                actions.append(
                    {"type": "cut", "grid": index, "row": position // columns, "column": position % columns}
                )
    return actions


# -- playing an action ---------------------------------------------------------------


def play(state: State, seat: int, kind: str, fields: dict[str, Any]) -> State:
    draft = Draft.of(state)
    if state.phase == EMPLOYEE_TURN:
        if kind == "ask":
            _ask(draft, fields)
        elif kind == "cut":
            _cut(draft, fields)
        else:
            raise IllegalAction("not_an_employee_action", "An employee asks for Information or cuts a cable.")
    elif kind == "pass":
        log_event(draft, "pass", seat, "{s0} lets the moment pass.", moment=state.phase)
        let_pass(draft)
    elif kind == "standing_pass":
        _standing_pass(draft, fields["consultant"])
    elif kind in ("use", "use_on_line", "use_on_tile"):
        _use(draft, kind, fields)
    else:
        raise IllegalAction(
            "not_a_crisis_unit_action", "The Crisis Unit uses a Consultant or lets the moment pass."
        )
    return draft.freeze()


def _line_of(draft: Draft, fields: dict[str, Any]) -> Line:
    grid_index, kind, index = fields["grid"], fields["line"], fields["index"]
    if grid_index >= len(draft.grids):
        raise IllegalAction("no_such_grid", "There is no such grid in this scenario.")
    grid = draft.grids[grid_index]
    if index >= line_count(grid, kind):
        raise IllegalAction("no_such_line", f"This grid has no {kind} {index + 1}.")
    if not has_face_down(grid, kind, index):
        raise IllegalAction("line_all_revealed", "Information needs a line with a face-down tile.")
    return Line(grid_index, kind, index)


def _face_down_tile_of(draft: Draft, fields: dict[str, Any]) -> TileRef:
    grid_index, row, column = fields["grid"], fields["row"], fields["column"]
    if grid_index >= len(draft.grids):
        raise IllegalAction("no_such_grid", "There is no such grid in this scenario.")
    grid = draft.grids[grid_index]
    if row >= grid.rows or column >= grid.columns:
        raise IllegalAction("no_such_tile", "There is no tile there.")
    position = row * grid.columns + column
    if grid.revealed[position]:
        raise IllegalAction("tile_revealed", "That tile is already face up.")
    return TileRef(grid_index, position)


def _tile_facts(draft: Draft, ref: TileRef) -> dict[str, int]:
    columns = draft.grids[ref.grid].columns
    return {"grid": ref.grid, "row": ref.position // columns, "column": ref.position % columns}


def _ask(draft: Draft, fields: dict[str, Any]) -> None:
    if draft.stopped is not None:
        raise IllegalAction("must_cut", "The Sapper stopped your cut: name another tile to cut.")
    # Logged with its tokens once given (the pending line is in the view meanwhile).
    draft.phase, draft.asked = INFORMATION, _line_of(draft, fields)
    settle(draft)


def _cut(draft: Draft, fields: dict[str, Any]) -> None:
    ref = _face_down_tile_of(draft, fields)
    if ref == draft.stopped:
        raise IllegalAction("tile_stopped", "The Sapper stopped that cut: name another tile.")
    # Logged with what the tile is once revealed (the pending tile is in the view meanwhile).
    draft.phase, draft.tile = CUT_NAMED, ref
    settle(draft)


# -- the Crisis Unit's Consultants -----------------------------------------------------


def _label(name: str) -> str:
    return CONSULTANT_BY_NAME[name].label


def _ready_consultant(draft: Draft, name: str) -> HeldConsultant:
    for held in draft.consultants:
        if held.name == name:
            if held.status != READY:
                raise IllegalAction("consultant_not_ready", f"The {_label(name)} is no longer available.")
            return held
    raise IllegalAction("no_such_consultant", f"The Crisis Unit has no {_label(name)} in this scenario.")


def _set_status(draft: Draft, name: str, status: str) -> None:
    draft.consultants = tuple(
        HeldConsultant(held.name, status) if held.name == name else held for held in draft.consultants
    )


def _standing_pass(draft: Draft, name: str) -> None:
    _ready_consultant(draft, name)
    _set_status(draft, name, STANDING_PASS)
    log_event(
        draft, "standing_pass", CRISIS_UNIT, f"{{s0}} will not use the {_label(name)}.", consultant=name
    )
    settle(draft)


def _use(draft: Draft, kind: str, fields: dict[str, Any]) -> None:
    name = fields["consultant"]
    card = CONSULTANT_BY_NAME[name]
    _ready_consultant(draft, name)
    if card.moment != draft.phase or not is_usable(draft, name):
        raise IllegalAction("not_its_moment", f"The {card.label} cannot be used now.")
    expected = {"none": "use", "line": "use_on_line", "tile": "use_on_tile"}[card.target]
    if kind != expected:
        raise IllegalAction("wrong_target", f"The {card.label} is used with the action {expected!r}.")
    if name == SURVEYOR:
        _use_surveyor(draft, _line_of(draft, fields))
    elif name == MARKER:
        _use_marker(draft, _face_down_tile_of(draft, fields))
    elif name == COLOURIST:
        _use_colourist(draft, _face_down_tile_of(draft, fields))
    elif name == NEGOTIATOR:
        _use_negotiator(draft)
    else:
        _set_status(draft, name, USED)
        _USES[name](draft)


def _use_analyst(draft: Draft) -> None:
    log_event(draft, "consultant", CRISIS_UNIT, "{s0} calls in the Analyst.", consultant=ANALYST)
    draft.analyst = True
    settle(draft)


def _use_informant(draft: Draft) -> None:
    log_event(draft, "consultant", CRISIS_UNIT, "{s0} calls in the Informant.", consultant=INFORMANT)
    draft.informant = True
    settle(draft)


def _use_sapper(draft: Draft) -> None:
    assert draft.tile is not None
    where = tile_text(draft, draft.tile.grid, draft.tile.position)
    text = f'{{s{draft.active_seat}}} names the tile at {where}. {{s0}} calls in the Sapper: "Stop!" It stays face down.'
    log_event(draft, "consultant", CRISIS_UNIT, text, consultant=SAPPER, **_tile_facts(draft, draft.tile))
    draft.phase, draft.stopped, draft.tile = EMPLOYEE_TURN, draft.tile, None


def _use_containment(draft: Draft) -> None:
    text = "{s0} calls in Containment: the Explosive does not explode; two Countdown cards leave the deck."
    log_event(draft, "consultant", CRISIS_UNIT, text, consultant=CONTAINMENT)
    draft.tile, draft.cards_due, draft.then = None, 2, THEN_ADVANCE
    run_countdown(draft)


def _use_chronometrist(draft: Draft) -> None:
    text = "{s0} calls in the Chronometrist: the Countdown does not advance this round."
    log_event(draft, "consultant", CRISIS_UNIT, text, consultant=CHRONOMETRIST)
    end_round(draft)


def _use_radio_operator(draft: Draft) -> None:
    text = f"{{s0}} calls in the Radio Operator: the {card_label(draft.discard[0])} is cancelled."
    log_event(draft, "consultant", CRISIS_UNIT, text, consultant=RADIO_OPERATOR)
    run_countdown(draft)


_USES = {
    ANALYST: _use_analyst,
    INFORMANT: _use_informant,
    SAPPER: _use_sapper,
    CONTAINMENT: _use_containment,
    CHRONOMETRIST: _use_chronometrist,
    RADIO_OPERATOR: _use_radio_operator,
}


def _use_surveyor(draft: Draft, line: Line) -> None:
    if line == draft.asked:
        raise IllegalAction("same_line", "The Surveyor gives Information on one more line, not the same one.")
    _set_status(draft, SURVEYOR, USED)
    text = f"{{s0}} calls in the Surveyor: Information on {line_text(draft, line)} too."
    log_event(
        draft,
        "consultant",
        CRISIS_UNIT,
        text,
        consultant=SURVEYOR,
        grid=line.grid,
        line=line.kind,
        index=line.index,
    )
    draft.extra = line
    settle(draft)


def _use_marker(draft: Draft, ref: TileRef) -> None:
    if draft.grids[ref.grid].tiles[ref.position] == EXPLOSIVE:
        raise IllegalAction("tile_is_explosive", "The Marker can only mark a tile that is not an Explosive.")
    if is_known_safe(draft, ref.grid, ref.position):
        raise IllegalAction("already_known", "Everyone already knows that tile is not an Explosive.")
    _add_fact(draft, MARKER, ref, NOT_EXPLOSIVE, "is not an Explosive")


def _use_colourist(draft: Draft, ref: TileRef) -> None:
    if is_coloured(draft, ref.grid, ref.position):
        raise IllegalAction("already_known", "The Colourist already showed that tile.")
    kind = draft.grids[ref.grid].tiles[ref.position]
    _add_fact(draft, COLOURIST, ref, kind, f"is {kind_text(kind)}")


def _add_fact(draft: Draft, name: str, ref: TileRef, fact: str, says: str) -> None:
    _set_status(draft, name, USED)
    text = (
        f"{{s0}} calls in the {_label(name)}: the tile at {tile_text(draft, ref.grid, ref.position)} {says}."
    )
    log_event(draft, "consultant", CRISIS_UNIT, text, consultant=name, fact=fact, **_tile_facts(draft, ref))
    draft.facts = (*draft.facts, TileFact(name, draft.round, ref.grid, ref.position, fact))
    settle(draft)


def _use_negotiator(draft: Draft) -> None:
    index = next(index for index, card in enumerate(draft.discard) if is_timer(card))
    timer = draft.discard[index]
    _set_status(draft, NEGOTIATOR, USED)
    draft.discard = draft.discard[:index] + draft.discard[index + 1 :]
    draft.countdown = (timer, *draft.countdown)
    draft.top_known = True
    text = f"{{s0}} calls in the Negotiator: the {card_label(timer)} Timer goes back on top of the Countdown."
    log_event(draft, "consultant", CRISIS_UNIT, text, consultant=NEGOTIATOR, card=timer)
    settle(draft)
