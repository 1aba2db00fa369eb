"""The rules of Boom Box as pure functions from a state to a new state.

``Game.apply`` has already checked the seat and the action's shape; these
functions check what the action means here and raise ``IllegalAction`` if the
rules forbid it. A turn is a series of single actions (pass, open, done); the turn
ends by itself once ``done`` is the only thing left to do.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engine.boom_box import events
from games.engine.boom_box.state import (
    BOOM,
    BOX_SET,
    SET_ASIDE_COUNT,
    BoomBoxState,
    Box,
    Pass,
    Removal,
    box_names,
    find_box,
    owner_of,
)
from games.engine.cards import replace_at
from games.engine.errors import IllegalAction
from games.engine.ranking import competition_ranks
from games.engine.rng import RngState, resume


def new_state(players: int, rng_state: RngState) -> BoomBoxState:
    rng = resume(rng_state)
    ids = rng.unique_tokens(players * len(BOX_SET))
    boxes: list[Box] = []
    for seat in range(players):
        contents = rng.shuffled(BOX_SET)
        own_ids = ids[seat * len(BOX_SET) : (seat + 1) * len(BOX_SET)]
        boxes.extend(Box(box_id, seat, gems) for box_id, gems in zip(own_ids, contents, strict=True))
    empty: tuple[tuple[str, ...], ...] = ((),) * players
    return BoomBoxState(
        players=players,
        rng=rng.state,
        phase="setup",
        # Ordered by id so that no order in the state follows the contents.
        boxes=tuple(sorted(boxes, key=lambda box: box.id)),
        start_lines=empty,
        set_aside=empty,
        fronts=empty,
        stacks=empty,
        gems=(0,) * players,
        passes=(),
        removed=(),
        starting_seat=None,
        turn=None,
        has_passed=False,
        has_opened=False,
        loss_chooser=None,
        log=(events.deal_entry(),),
    )


# -- what a seat holds and owes ------------------------------------------------


def to_act(state: BoomBoxState) -> list[int]:
    if state.phase == "setup":
        return [seat for seat in range(state.players) if not has_chosen(state, seat)]
    if state.phase == "over":
        return []
    if state.loss_chooser is not None:
        return [state.loss_chooser]
    assert state.turn is not None
    return [state.turn]


def boxes_of(state: BoomBoxState, seat: int) -> tuple[str, ...]:
    """The ids of the six boxes in ``seat``'s colour, in id order."""
    return tuple(box.id for box in state.boxes if box.owner == seat)


def has_chosen(state: BoomBoxState, seat: int) -> bool:
    return len(state.set_aside[seat]) == SET_ASIDE_COUNT


def holds_boxes(state: BoomBoxState, seat: int) -> bool:
    return bool(state.start_lines[seat] or state.fronts[seat])


def unopened_left(state: BoomBoxState) -> bool:
    return any(state.start_lines) or any(state.fronts)


def returned_box(state: BoomBoxState, seat: int) -> str | None:
    """The seat's own box passed back to it, which it must open (at most one at a time)."""
    for box_id in state.fronts[seat]:
        if owner_of(state.boxes, box_id) == seat:
            return box_id
    return None


def must_pass(state: BoomBoxState) -> bool:
    """The active player still has to pass: the Start Line is not empty and no pass was made."""
    assert state.turn is not None
    return not state.has_passed and bool(state.start_lines[state.turn])


def passable_boxes(state: BoomBoxState, seat: int) -> tuple[str, ...]:
    if state.has_passed:
        return ()
    held = state.start_lines[seat] + state.fronts[seat]
    returned = returned_box(state, seat)
    return tuple(box_id for box_id in held if box_id != returned)


def openable_boxes(state: BoomBoxState, seat: int) -> tuple[str, ...]:
    if state.has_opened:
        return ()
    returned = returned_box(state, seat)
    return (returned,) if returned is not None else state.fronts[seat]


def can_end_turn(state: BoomBoxState) -> bool:
    assert state.turn is not None
    has_acted = state.has_passed or state.has_opened
    return has_acted and not must_pass(state) and returned_box(state, state.turn) is None


def losable_boxes(state: BoomBoxState) -> tuple[str, ...]:
    """The boxes the Boom's owner may take from the opener: all they hold, unopened."""
    assert state.turn is not None
    return state.start_lines[state.turn] + state.fronts[state.turn]


def scores_and_ranks(state: BoomBoxState) -> tuple[list[int], list[int]]:
    """Gems first, then boxes opened (Booms included); still tied, a shared rank."""
    scores = list(state.gems)
    keys = [(state.gems[seat], len(state.stacks[seat])) for seat in range(state.players)]
    return scores, competition_ranks(keys)


def result(state: BoomBoxState) -> dict[str, Any] | None:
    if state.phase != "over":
        return None
    scores, ranks = scores_and_ranks(state)
    return {"scores": scores, "ranks": ranks}


# -- setup -----------------------------------------------------------------------


def set_aside_box(state: BoomBoxState, seat: int, box_id: str) -> BoomBoxState:
    """Set one of your boxes aside; after the second, the other four are your Start Line."""
    own = boxes_of(state, seat)
    if box_id not in own:
        if find_box(state.boxes, box_id) is None:
            raise IllegalAction("no_such_box", f"There is no box {box_id!r}.")
        raise IllegalAction("not_your_box", "You may only set aside boxes of your own colour.")
    if box_id in state.set_aside[seat]:
        raise IllegalAction("already_set_aside", "That box is already set aside.")
    set_aside = (*state.set_aside[seat], box_id)
    state = replace(state, set_aside=replace_at(state.set_aside, seat, set_aside))
    if len(set_aside) < SET_ASIDE_COUNT:
        return state
    # In id order: box_names names a Start Line's boxes in this order.
    line = tuple(other for other in own if other not in set_aside)
    aside_boxes = tuple(box for aside_id in set_aside for box in state.boxes if box.id == aside_id)
    log = (*state.log, events.start_line_entry(seat, line, aside_boxes))
    state = replace(state, start_lines=replace_at(state.start_lines, seat, line), log=log)
    if not all(state.start_lines):
        return state
    rng = resume(state.rng)
    first = rng.below(state.players)
    return replace(
        state,
        rng=rng.state,
        phase="play",
        starting_seat=first,
        turn=first,
        log=(*log, events.first_player_entry(first)),
    )


# -- a turn ----------------------------------------------------------------------


def pass_box(state: BoomBoxState, seat: int, box_id: str, claim: str) -> BoomBoxState:
    if state.has_passed:
        raise IllegalAction("already_passed", "You have already passed a box this turn.")
    in_line = box_id in state.start_lines[seat]
    if not in_line and box_id not in state.fronts[seat]:
        raise _not_held(state, box_id)
    if box_id == returned_box(state, seat):
        raise IllegalAction(
            "must_open_own_box", "Your own box came back to you: you must open it, not pass it."
        )
    receiver = (seat + 1) % state.players
    start_lines, fronts = state.start_lines, state.fronts
    if in_line:
        start_lines = replace_at(start_lines, seat, tuple(b for b in start_lines[seat] if b != box_id))
    else:
        fronts = replace_at(fronts, seat, tuple(b for b in fronts[seat] if b != box_id))
    fronts = replace_at(fronts, receiver, (*fronts[receiver], box_id))
    state = replace(
        state,
        start_lines=start_lines,
        fronts=fronts,
        passes=(*state.passes, Pass(box_id, seat, receiver, claim)),
        has_passed=True,
        log=(*state.log, events.pass_entry(seat, receiver, box_id, box_names(state)[box_id], claim)),
    )
    return _after_action(state)


def open_box(state: BoomBoxState, seat: int, box_id: str) -> BoomBoxState:
    if state.has_opened:
        raise IllegalAction("already_opened", "You have already opened a box this turn.")
    if box_id not in state.fronts[seat]:
        if box_id in state.start_lines[seat]:
            raise IllegalAction("box_in_start_line", "You may not open a box of your own Start Line.")
        raise _not_held(state, box_id)
    returned = returned_box(state, seat)
    if returned is not None and box_id != returned:
        raise _must_open(state, returned)
    box = find_box(state.boxes, box_id)
    assert box is not None
    had_gems = state.gems[seat]
    gems_now = 0 if box.gems == BOOM else had_gems + box.gems
    state = replace(
        state,
        fronts=replace_at(state.fronts, seat, tuple(b for b in state.fronts[seat] if b != box_id)),
        stacks=replace_at(state.stacks, seat, (*state.stacks[seat], box_id)),
        gems=replace_at(state.gems, seat, gems_now),
        has_opened=True,
        log=(*state.log, events.open_entry(seat, box, box_names(state)[box_id], gems_now)),
    )
    if box.gems == BOOM and had_gems == 0:
        if holds_boxes(state, seat):
            return replace(
                state,
                loss_chooser=box.owner,
                log=(*state.log, events.loss_due_entry(seat, box.owner, box.id)),
            )
        state = replace(state, log=(*state.log, events.boom_in_face_entry(seat)))
    return _after_action(state)


def remove_box(state: BoomBoxState, chooser: int, box_id: str) -> BoomBoxState:
    holder = state.turn
    assert holder is not None
    if box_id not in losable_boxes(state):
        if find_box(state.boxes, box_id) is None:
            raise IllegalAction("no_such_box", f"There is no box {box_id!r}.")
        raise IllegalAction(
            "not_losable", "Choose one of the unopened boxes in front of the player who opened your Boom."
        )
    box = find_box(state.boxes, box_id)
    assert box is not None
    state = replace(
        state,
        start_lines=replace_at(
            state.start_lines, holder, tuple(b for b in state.start_lines[holder] if b != box_id)
        ),
        fronts=replace_at(state.fronts, holder, tuple(b for b in state.fronts[holder] if b != box_id)),
        removed=(*state.removed, Removal(box_id, holder, chooser)),
        loss_chooser=None,
        log=(*state.log, events.remove_entry(chooser, holder, box, box_names(state)[box_id])),
    )
    # The turn goes back to the opener, with what is compulsory judged on what they hold now.
    return _after_action(state)


def end_turn(state: BoomBoxState, seat: int) -> BoomBoxState:
    returned = returned_box(state, seat)
    if returned is not None:
        raise _must_open(state, returned)
    if must_pass(state):
        raise IllegalAction("must_pass", "While your Start Line has boxes, you must pass one each turn.")
    if not (state.has_passed or state.has_opened):
        raise IllegalAction("must_act", "You hold boxes: pass one or open one before ending your turn.")
    return _next_turn(state)


def _not_held(state: BoomBoxState, box_id: str) -> IllegalAction:
    if find_box(state.boxes, box_id) is None:
        return IllegalAction("no_such_box", f"There is no box {box_id!r}.")
    name = box_names(state).get(box_id)
    return IllegalAction(
        "not_in_front_of_you",
        f"Box {name} is not in front of you." if name else "That box is not in front of you.",
    )


def _must_open(state: BoomBoxState, returned: str) -> IllegalAction:
    return IllegalAction(
        "must_open_own_box", f"Your own box {box_names(state)[returned]} came back to you: open it first."
    )


def _after_action(state: BoomBoxState) -> BoomBoxState:
    """End the game, or the turn when nothing but ``done`` is left, or let the player go on."""
    if not unopened_left(state):
        return _finish(state)
    assert state.turn is not None
    if passable_boxes(state, state.turn) or openable_boxes(state, state.turn):
        return state
    return _next_turn(state)


def _next_turn(state: BoomBoxState) -> BoomBoxState:
    """The next seat to the left that holds a box; those holding none are skipped."""
    assert state.turn is not None
    seat, log = state.turn, state.log
    for _ in range(state.players):
        seat = (seat + 1) % state.players
        if holds_boxes(state, seat):
            return replace(state, turn=seat, has_passed=False, has_opened=False, log=log)
        log = (*log, events.skip_entry(seat))
    raise AssertionError("a game with unopened boxes has a seat holding one")


def _finish(state: BoomBoxState) -> BoomBoxState:
    scores, ranks = scores_and_ranks(state)
    return replace(
        state,
        phase="over",
        turn=None,
        has_passed=False,
        has_opened=False,
        loss_chooser=None,
        log=(*state.log, events.over_entry(scores, ranks)),
    )
