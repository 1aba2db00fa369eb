"""How a round unfolds after an action: the moments and what follows them.

Phases other than the employee's turn are moments at which the Crisis Unit (seat 0)
owes a decision, but only while it holds a Consultant usable at that moment (judged
on public facts, so that a prompt leaks nothing); otherwise the moment passes at
once (``settle``). Countdown cards leave the deck one at a time through
``run_countdown``, which may pause for the Radio Operator and then carries on where
it stopped. Every step changes a ``Draft`` in place (see ``state.Draft``).
"""

from __future__ import annotations

import json
from typing import Any

from games.engine.cards import replace_at
from games.engine.its_a_bomb.board import (
    all_colours_done,
    cables_cut,
    card_acts,
    card_label,
    is_cut,
    is_ready,
    is_timer,
    line_positions,
    line_text,
    scenario_of,
    seconds_left,
    team_score,
    tile_text,
    token_for,
    usable_consultants,
)
from games.engine.its_a_bomb.consultants import (
    ADVANCE,
    CARD_REVEALED,
    CUT_NAMED,
    EMPLOYEE_TURN,
    EXPLOSIVE_REVEALED,
    INFORMATION,
    OVER,
    ROUND_START,
)
from games.engine.its_a_bomb.scenarios import (
    AUXILIARY,
    BATTERY,
    CALL,
    COLOURS,
    EXPLOSION,
    EXPLOSIVE,
    GREY,
    RADIO_OPERATOR,
    RECEIVER,
)
from games.engine.its_a_bomb.state import (
    BLANK,
    REVEALED,
    THEN_ADVANCE,
    THEN_END_ROUND,
    Draft,
    Grid,
    Information,
    Line,
)
from games.engine.log import LogEntry
from games.engine.rng import Rng, resume

# The same canonical JSON as ``log.entry`` writes, with one encoder built once:
# entries are written on every action of every playout a bot runs.
_FACTS_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def log_event(draft: Draft, event: str, seat: int | None, text: str, **facts: Any) -> None:
    """Every entry is public: nothing in this game's log is for one seat only."""
    draft.log = (*draft.log, LogEntry(event, seat, text, _FACTS_JSON.encode(facts)))


def settle(draft: Draft) -> None:
    """Wait while the Crisis Unit holds a Consultant usable now; otherwise move on."""
    if draft.phase in (EMPLOYEE_TURN, OVER) or usable_consultants(draft):
        return
    let_pass(draft)


def let_pass(draft: Draft) -> None:
    """What happens at the current moment when no Consultant is (or will be) used."""
    phase = draft.phase
    if phase == ROUND_START:
        draft.phase = EMPLOYEE_TURN
    elif phase == INFORMATION:
        _give_information(draft)
    elif phase == CUT_NAMED:
        _reveal(draft)
    elif phase == EXPLOSIVE_REVEALED:
        end_game(draft, won=False, cause="explosive")
    elif phase == ADVANCE:
        draft.cards_due, draft.then = 1, THEN_END_ROUND
        run_countdown(draft)
    else:
        assert phase == CARD_REVEALED
        _card_effect(draft, draft.discard[0])
        run_countdown(draft)


# -- Information -----------------------------------------------------------------


def _give_information(draft: Draft) -> None:
    assert draft.asked is not None
    disturbed = draft.disturbances > 0
    rng = resume(draft.rng)
    for line, is_extra in ((draft.asked, False), (draft.extra, True)):
        if line is None:
            continue
        record = _information(draft, line, is_extra, disturbed, rng)
        draft.information = (*draft.information, record)
        text = _information_text(draft, record)
        log_event(draft, "information", draft.active_seat, text, surveyor=is_extra, **_record_facts(record))
    draft.rng = rng.state
    if disturbed:
        draft.disturbances -= 1
    draft.asked = draft.extra = None
    draft.analyst = draft.informant = False
    advance_countdown(draft)


def _information(draft: Draft, line: Line, is_extra: bool, disturbed: bool, rng: Rng) -> Information:
    grid = draft.grids[line.grid]
    positions = line_positions(grid, line.kind, line.index)
    face_down = tuple(position for position in positions if not grid.revealed[position])
    analyst = draft.analyst and not disturbed
    if analyst:
        tokens = tuple(
            REVEALED
            if grid.revealed[position]
            else (token_for(grid.tiles[position], draft.informant) or BLANK)
            for position in positions
        )
        count = sum(1 for token in tokens if token not in (BLANK, REVEALED))
    else:
        found = [
            token
            for position in face_down
            if (token := token_for(grid.tiles[position], draft.informant)) is not None
        ]
        # Sorted first, so that the shown order depends on the seed alone, never on where tiles lie.
        found.sort()
        rng.shuffle(found)
        tokens = tuple(found)
        count = len(tokens)
    return Information(
        round=draft.round,
        grid=line.grid,
        line=line.kind,
        index=line.index,
        face_down=face_down,
        tokens=() if disturbed else tokens,
        count=count,
        analyst=analyst,
        informant=draft.informant,
        surveyor=is_extra,
        disturbed=disturbed,
    )


def _record_facts(record: Information) -> dict[str, Any]:
    return {
        "grid": record.grid,
        "line": record.line,
        "index": record.index,
        "tokens": list(record.tokens),
        "count": record.count,
        "disturbed": record.disturbed,
    }


def _information_text(draft: Draft, record: Information) -> str:
    where = line_text(draft, Line(record.grid, record.line, record.index))
    if record.surveyor:
        asked = f"The Surveyor adds {where}"
    else:
        asked = f"{{s{draft.active_seat}}} asks for Information on {where}"
    if record.disturbed:
        plural = "" if record.count == 1 else "s"
        return f"{asked}. The signal is disturbed: {record.count} token{plural}, nothing more."
    if record.analyst:
        return f"{asked}. In tile order: {', '.join(record.tokens)}."
    return f"{asked}: {', '.join(record.tokens) or 'no token'}."


# -- cutting -----------------------------------------------------------------------

_QUIET_TILES = {
    GREY: "a grey cable, nothing happens.",
    AUXILIARY: "an Auxiliary Detonator, harmless now that the Battery is cut.",
    BATTERY: "the Battery. From now on the Auxiliary Detonators are harmless.",
    RECEIVER: "the Receiver. From now on the Call is harmless.",
}


def _reveal(draft: Draft) -> None:
    ref = draft.tile
    assert ref is not None
    grid = draft.grids[ref.grid]
    kind = grid.tiles[ref.position]
    before = cables_cut(grid, kind) if kind in COLOURS else 0
    grid = Grid(grid.rows, grid.columns, grid.tiles, replace_at(grid.revealed, ref.position, True))
    draft.grids = replace_at(draft.grids, ref.grid, grid)
    seat = draft.active_seat
    cut = f"{{s{seat}}} cuts the tile at {tile_text(draft, ref.grid, ref.position)}"
    facts = {
        "grid": ref.grid,
        "row": ref.position // grid.columns,
        "column": ref.position % grid.columns,
        "kind": kind,
    }
    if kind == EXPLOSIVE:
        log_event(draft, "cut", seat, f"{cut}: an Explosive!", **facts)
        draft.phase = EXPLOSIVE_REVEALED
        settle(draft)
    elif kind in COLOURS:
        _reveal_cable(draft, grid, kind, before, cut, facts)
    elif kind == AUXILIARY and not is_cut(draft, BATTERY):
        log_event(draft, "cut", seat, f"{cut}: an Auxiliary Detonator, and it fires!", fires=True, **facts)
        draft.tile, draft.cards_due, draft.then = None, 1, THEN_ADVANCE
        run_countdown(draft)
    else:
        log_event(draft, "cut", seat, f"{cut}: {_QUIET_TILES[kind]}", **facts)
        advance_countdown(draft)


def _reveal_cable(
    draft: Draft, grid: Grid, colour: str, before: int, cut: str, facts: dict[str, Any]
) -> None:
    scenario = scenario_of(draft)
    if scenario.cutting_order and before == 0:
        order = scenario.grids[facts["grid"]].colours
        skipped = [earlier for earlier in order[: order.index(colour)] if cables_cut(grid, earlier) == 0]
        if skipped:
            text = f"{cut}: a {colour} cable, cut before any {skipped[0]} one. Out of order!"
            log_event(draft, "cut", draft.active_seat, text, **facts)
            end_game(draft, won=False, cause="cutting_order")
            return
    progress = before < scenario.cables_needed(colour)
    verdict = "progress!" if progress else "that colour is already done."
    log_event(
        draft, "cut", draft.active_seat, f"{cut}: a {colour} cable, {verdict}", progress=progress, **facts
    )
    if not progress:
        advance_countdown(draft)
    elif all_colours_done(draft):
        end_game(draft, won=True, cause="defused")
    else:
        end_round(draft)  # progress: this round's advance is skipped


# -- the Countdown -------------------------------------------------------------------


def advance_countdown(draft: Draft) -> None:
    """Advance the Countdown (after the Chronometrist's moment)."""
    draft.phase = ADVANCE
    draft.tile = None
    settle(draft)


def run_countdown(draft: Draft) -> None:
    """The cards due leave the deck one by one, each taking effect at once."""
    while draft.cards_due > 0:
        card = draft.countdown[0]
        draft.countdown = draft.countdown[1:]
        draft.discard = (card, *draft.discard)
        draft.cards_due -= 1
        draft.top_known = False
        if card == EXPLOSION:
            log_event(draft, "countdown", None, "The Countdown reveals the Explosion!", card=card)
            end_game(draft, won=False, cause="explosion")
            return
        if is_timer(card):
            text = f"The Countdown reveals the {card_label(card)} Timer: {seconds_left(draft)} seconds left."
            log_event(draft, "countdown", None, text, card=card)
            continue
        acts = card_acts(draft, card)
        harmless = "" if acts else " It is harmless: the Receiver has been cut."
        log_event(
            draft, "countdown", None, f"The Countdown reveals the {card_label(card)}!{harmless}", card=card
        )
        if not acts:
            continue
        if is_ready(draft, RADIO_OPERATOR):
            draft.phase = CARD_REVEALED
            return
        _card_effect(draft, card)
    if draft.then == THEN_ADVANCE:
        advance_countdown(draft)
    else:
        end_round(draft)


def _card_effect(draft: Draft, card: str) -> None:
    if card == CALL:
        log_event(draft, "call", None, "The Call: two more Countdown cards leave the deck.")
        draft.cards_due += 2
    else:
        text = "The signal is disturbed: the next Information will show only a count."
        log_event(draft, "disturbance", None, text)
        draft.disturbances += 1


# -- the end of a round, the end of the game ---------------------------------------


def _clear_round(draft: Draft) -> None:
    draft.asked = draft.extra = None
    draft.analyst = draft.informant = False
    draft.tile = draft.stopped = None
    draft.cards_due, draft.then = 0, ""


def end_round(draft: Draft) -> None:
    _clear_round(draft)
    draft.round += 1
    draft.active_seat = draft.active_seat + 1 if draft.active_seat + 1 < draft.players else 1
    draft.phase = ROUND_START
    settle(draft)


def end_game(draft: Draft, won: bool, cause: str) -> None:
    _clear_round(draft)
    draft.phase = OVER
    draft.outcome = "won" if won else "lost"
    draft.cause = cause
    text = f"The bomb is defused! Team score {team_score(draft)}." if won else "BOOM. The bomb exploded."
    log_event(draft, "end", None, text, won=won, cause=cause)
