"""What one seat may know of a Boom Box game (``view``), and states rebuilt from it (``sample``).

Public: every box's id, name (its letter, ``state.box_names``), owner and colour
once it is on the table (a Start Line, in front of someone, opened, removed), where
it lies, every pass and claim made on it, and the content of opened boxes. Private
to the owner: the content of their unopened and removed boxes, and which two boxes
they set aside. ``build_reveal`` shows everything, for finished matches only.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.boom_box import events, rules
from games.engine.boom_box.state import (
    BOX_SET,
    COLOURS,
    CONTENT_NAMES,
    BoomBoxState,
    Box,
    Pass,
    Removal,
    box_names,
)
from games.engine.log import LogEntry, entry, log_reveal, log_view

# What a view log item holds besides its facts.
_ENTRY_KEYS = ("event", "seat", "text")


def build_view(state: BoomBoxState, seat: int | None) -> dict[str, Any]:
    return {
        "game": "boom-box",
        "players": state.players,
        "seat": seat,
        "phase": state.phase,
        "to_act": rules.to_act(state),
        "starting_seat": state.starting_seat,
        "turn": _turn_view(state),
        "pending_loss": _pending_loss_view(state),
        "choose_from": _choose_from(state, seat),
        "seats": [_seat_view(state, holder, seat) for holder in range(state.players)],
        "boxes": _boxes(state, seat, everything=False),
        "removed": [
            {"box": removal.box, "from": removal.holder, "chooser": removal.chooser}
            for removal in state.removed
        ],
        "unopened_left": sum(map(len, state.start_lines)) + sum(map(len, state.fronts)),
        "result": rules.result(state),
        "log": log_view(state.log, seat),
    }


def build_reveal(state: BoomBoxState) -> dict[str, Any]:
    """Everything revealed (``Game.reveal``, finished matches only): a spectator's view
    with every box of the game in ``boxes`` (set aside and never chosen included) and
    its content, every seat's ``set_aside``, and every seat's private log facts."""
    shown = build_view(state, None)
    shown["seats"] = [_seat_view(state, holder, holder) for holder in range(state.players)]
    shown["boxes"] = _boxes(state, None, everything=True)
    shown["log"] = log_reveal(state.log)
    shown["revealed"] = True
    shown["as_seen_by"] = {
        str(seat): {"seat": seat, "choose_from": _choose_from(state, seat)} for seat in range(state.players)
    }
    return shown


def _choose_from(state: BoomBoxState, seat: int | None) -> list[str] | None:
    """The viewer's boxes that may still be set aside (null once the Start Line is laid out)."""
    if seat is None or rules.has_chosen(state, seat):
        return None
    return [box_id for box_id in rules.boxes_of(state, seat) if box_id not in state.set_aside[seat]]


def _boxes(state: BoomBoxState, seat: int | None, *, everything: bool) -> dict[str, dict[str, Any]]:
    """The boxes ``seat`` may know of, by id (``everything``: every box, content shown)."""
    history: dict[str, list[dict[str, Any]]] = {}
    for made in state.passes:
        history.setdefault(made.box, []).append(
            {"from": made.giver, "to": made.receiver, "claim": made.claim}
        )

    places: dict[str, tuple[str, int]] = {}
    for holder in range(state.players):
        for place, ids in (
            ("start_line", state.start_lines[holder]),
            ("in_front", state.fronts[holder]),
            ("opened", state.stacks[holder]),
            ("set_aside", state.set_aside[holder]),
        ):
            for box_id in ids:
                places[box_id] = (place, holder)
    for removal in state.removed:
        places[removal.box] = ("removed", removal.holder)

    names = box_names(state)
    boxes: dict[str, dict[str, Any]] = {}
    for box in state.boxes:
        place, holder = places.get(box.id, ("unchosen", box.owner))
        sees_inside = everything or box.owner == seat  # an owner knows their own boxes
        if not sees_inside and place in ("set_aside", "unchosen"):
            continue  # out of the game unseen: not even its id is shown
        is_open = place == "opened"
        is_known = is_open or sees_inside
        boxes[box.id] = {
            "id": box.id,
            # What people call it: a letter, or null for the viewer's own boxes not on the table.
            "name": names.get(box.id),
            "owner": box.owner,
            "colour": COLOURS[box.owner],
            "place": place,
            "holder": holder,
            "face_up": is_open,
            "content": CONTENT_NAMES[box.gems] if is_known else None,
            "gems": box.gems if is_known else None,
            "passes": history.get(box.id, []),
        }
    return boxes


def _seat_view(state: BoomBoxState, holder: int, viewer: int | None) -> dict[str, Any]:
    return {
        "seat": holder,
        "colour": COLOURS[holder],
        "has_chosen": rules.has_chosen(state, holder),
        "start_line": list(state.start_lines[holder]),
        "in_front": list(state.fronts[holder]),
        "opened": list(state.stacks[holder]),  # bottom first: the last id is on top
        "gems": state.gems[holder],
        "boxes_opened": len(state.stacks[holder]),
        "boxes_held": len(state.start_lines[holder]) + len(state.fronts[holder]),
        "set_aside": list(state.set_aside[holder]) if holder == viewer else None,
        "set_aside_count": len(state.set_aside[holder]),
    }


def _turn_view(state: BoomBoxState) -> dict[str, Any] | None:
    if state.phase != "play":
        return None
    assert state.turn is not None
    return {
        "seat": state.turn,
        "has_passed": state.has_passed,
        "has_opened": state.has_opened,
        "must_pass": rules.must_pass(state),
        "must_open": rules.returned_box(state, state.turn),
        "must_act": not (state.has_passed or state.has_opened),
        "can_end": rules.can_end_turn(state),
    }


def _pending_loss_view(state: BoomBoxState) -> dict[str, Any] | None:
    if state.loss_chooser is None:
        return None
    assert state.turn is not None
    return {
        "chooser": state.loss_chooser,
        "opener": state.turn,
        "boom": state.stacks[state.turn][-1],
        "choices": list(rules.losable_boxes(state)),
    }


# -- sampling ----------------------------------------------------------------------


def sample_state(view: dict[str, Any], seat: int | None, rng: random.Random) -> BoomBoxState:
    """A full state the viewer cannot tell from the true one.

    Each other owner's unseen boxes get the contents of their set not yet revealed,
    shuffled at random; boxes whose ids the viewer never saw (set aside, or not yet
    chosen) get fresh ids; the generator state is new. Claims are not facts (they
    may lie), so they do not constrain the deal.
    """
    players: int = view["players"]
    seats: list[dict[str, Any]] = view["seats"]
    shown: dict[str, dict[str, Any]] = view["boxes"]
    used_ids = set(shown)

    def fresh_id() -> str:
        while True:
            box_id = f"{rng.getrandbits(32):08x}"
            if box_id not in used_ids:
                used_ids.add(box_id)
                return box_id

    boxes: list[Box] = []
    set_aside: list[tuple[str, ...]] = []
    for owner in range(players):
        own_shown = sorted(
            (item for item in shown.values() if item["owner"] == owner), key=lambda item: item["id"]
        )
        unseen = [fresh_id() for _ in range(len(BOX_SET) - len(own_shown))]
        if owner == seat:
            aside = tuple(seats[owner]["set_aside"])
        else:
            # Ids the viewer never saw: the boxes set aside, then those not chosen yet.
            aside = tuple(unseen[: seats[owner]["set_aside_count"]])
        set_aside.append(aside)
        pool = list(BOX_SET)
        hidden_ids = list(unseen)
        for item in own_shown:
            if item["gems"] is None:
                hidden_ids.append(item["id"])
            else:
                pool.remove(item["gems"])
                boxes.append(Box(item["id"], owner, item["gems"]))
        rng.shuffle(pool)
        boxes.extend(Box(box_id, owner, gems) for box_id, gems in zip(hidden_ids, pool, strict=True))
    boxes.sort(key=lambda box: box.id)
    by_id = {box.id: box for box in boxes}

    turn = view["turn"]
    pending = view["pending_loss"]
    if turn is None:  # setup, or the game is over
        turn_seat, has_passed, has_opened = None, False, False
    else:
        turn_seat, has_passed, has_opened = turn["seat"], turn["has_passed"], turn["has_opened"]

    log: list[LogEntry] = []
    passes: list[Pass] = []
    for item in view["log"]:
        event = item["event"]
        if event == "start_line":
            aside = tuple(by_id[box_id] for box_id in set_aside[item["seat"]])
            log.append(events.start_line_entry(item["seat"], tuple(item["start_line"]), aside))
        elif event == "remove":
            name = shown[item["box"]]["name"]
            log.append(events.remove_entry(item["seat"], item["from"], by_id[item["box"]], name))
        else:
            if event == "pass":
                passes.append(Pass(item["box"], item["seat"], item["to"], item["claim"]))
            facts = {key: value for key, value in item.items() if key not in _ENTRY_KEYS}
            log.append(entry(event, item["seat"], item["text"], public=facts))

    return BoomBoxState(
        players=players,
        rng=rng.getrandbits(64),
        phase=view["phase"],
        boxes=tuple(boxes),
        start_lines=tuple(tuple(item["start_line"]) for item in seats),
        set_aside=tuple(set_aside),
        fronts=tuple(tuple(item["in_front"]) for item in seats),
        stacks=tuple(tuple(item["opened"]) for item in seats),
        gems=tuple(item["gems"] for item in seats),
        passes=tuple(passes),
        removed=tuple(Removal(item["box"], item["from"], item["chooser"]) for item in view["removed"]),
        starting_seat=view["starting_seat"],
        turn=turn_seat,
        has_passed=has_passed,
        has_opened=has_opened,
        loss_chooser=pending["chooser"] if pending is not None else None,
        log=tuple(log),
    )
