"""``reveal``: everything revealed, for the replays of finished matches.

The reveal is a spectator's view with every hidden value filled in, ``"revealed":
True``, and ``as_seen_by``: at any level of it (the top, a log entry), a dict may
carry ``"as_seen_by": {str(seat): fields}``, the fields whose value that seat's
view gives differently (its ``seat``, its own ``hand``, its own text of a log
entry). The reveal *read as seat s* has, at every level, ``as_seen_by[str(s)]``
over each dict's fields, and no ``as_seen_by`` (a spectator reads it as it is).

What is checked, at the checkpoints of every config's playouts (a replay shows any
step of a finished match, not only its end):

- it is JSON-ready, repeatable, carries no generator state, changes nothing, and
  the caller owns what it returns;
- **it contains every view**: for every seat ``s`` and the spectator,
  ``view(state, s)`` is contained in the reveal read as ``s``: every key of a view's
  dict is in the reveal's dict at the same place; a list has the same length and
  its items are contained one by one; a value the view shows (anything but null)
  is the same in the reveal. A null in a view is what the viewer may not know:
  the reveal may fill it;
- **no hidden value is left null**: where a value is hidden from every viewer (a
  face-down card nobody peeked at, the deck's order), containment cannot tell, so
  each game's ``HIDDEN_VALUES`` below names, by its view's shape, the values that
  a view may hide and the reveal must show.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from games.engine.boom_box.state import BOX_SET
from tests.engine.conformance.common import encoding, short, try_canonical
from tests.engine.conformance.determinism import scribble
from tests.engine.conformance.views import find_secrets, generator_secrets, not_json_ready
from tests.engine.playouts import Playout, canonical, seats_and_spectator

SEEN_BY = "as_seen_by"


def check_reveal_is_json_ready_and_pure(playout: Playout, steps: list[int]) -> None:
    """JSON-ready, the same on every call, marked ``revealed``, with ``as_seen_by`` for
    every seat and no generator state; it leaves the state unchanged, and changing
    what it returned changes nothing."""
    game = playout.game
    for step in steps:
        state = playout.states[step]
        label = playout.describe(step)
        before = encoding(playout, step)
        shown = game.reveal(state)
        assert isinstance(shown, dict), f"{label}: reveal() is a {type(shown).__name__}"
        text = try_canonical(shown)
        assert text is not None and json.loads(text) == shown, (
            f"{label}: reveal() is not JSON-ready: {not_json_ready(shown, 'reveal')}"
        )
        assert shown.get("revealed") is True, f'{label}: reveal() has no "revealed": true'
        seats = [str(seat) for seat in range(game.players(state))]
        seen_by = shown.get(SEEN_BY)
        assert isinstance(seen_by, dict) and sorted(seen_by) == sorted(seats), (
            f"{label}: reveal()[{SEEN_BY!r}] must map every seat {seats} to its own fields, "
            f"not {short(seen_by)}"
        )
        secrets = generator_secrets(state)
        if any(secret in text for secret in secrets):
            leaked = find_secrets(shown, secrets, "reveal")
            assert not leaked, f"{label}: reveal() shows the generator state at {leaked}"
        scribble(shown)
        assert canonical(game.reveal(state)) == text, (
            f"{label}: reveal() varies, or shares what it returned (changing it changed the next one)"
        )
        assert canonical(game.encode(state)) == before, f"{label}: reveal() changed the state"


def check_reveal_contains_every_view(playout: Playout, steps: list[int]) -> None:
    """For every seat and the spectator, the view is contained in the reveal read as
    that viewer (see the module's docstring for "contained")."""
    game = playout.game
    for step in steps:
        state = playout.states[step]
        shown = game.reveal(state)
        for viewer in seats_and_spectator(game.players(state)):
            difference = not_contained(game.view(state, viewer), shown, viewer)
            assert difference is None, (
                f"{playout.describe(step)}: view({viewer}) knows something the reveal does not: {difference}"
            )


def check_reveal_fills_hidden_values(playout: Playout, steps: list[int]) -> None:
    """No null (or missing part) where a value is hidden: the game's ``HIDDEN_VALUES``."""
    game = playout.game
    missing = HIDDEN_VALUES.get(game.slug)
    assert missing is not None, (
        f"{game.slug}: say which values its views hide and its reveal must show: "
        "add it to HIDDEN_VALUES in tests/engine/conformance/reveal.py"
    )
    for step in steps:
        problems = missing(game.reveal(playout.states[step]))
        assert not problems, f"{playout.describe(step)}: the reveal leaves hidden values out: {problems[:5]}"


def not_contained(shown: Any, revealed: Any, seat: int | None, path: str = "view") -> str | None:
    """Where ``shown`` (``seat``'s view) is not contained in ``revealed`` read as
    ``seat``, or None. Read as a seat: at every level, a dict's ``as_seen_by[str(seat)]``
    overrides its fields (a spectator has none); ``as_seen_by`` itself is no field."""
    if shown is None:
        return None  # hidden from this viewer, or nothing there: the reveal may say more
    if isinstance(shown, dict):
        if not isinstance(revealed, dict):
            return f"{path} is a dict in the view, {short(revealed, 120)} in the reveal"
        own = revealed.get(SEEN_BY, {}).get(str(seat), {}) if seat is not None else {}
        for key, value in shown.items():
            if key in own:
                other = own[key]
            elif key in revealed and key != SEEN_BY:
                other = revealed[key]
            else:
                return f"{path}[{key!r}] is missing from the reveal"
            found = not_contained(value, other, seat, f"{path}[{key!r}]")
            if found is not None:
                return found
        return None
    if isinstance(shown, list):
        if not isinstance(revealed, list) or len(revealed) != len(shown):
            return f"{path} is a list of {len(shown)} in the view, {short(revealed, 120)} in the reveal"
        for index, (item, other) in enumerate(zip(shown, revealed, strict=True)):
            found = not_contained(item, other, seat, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    # A JSON scalar: the same type too (True is not 1, 1 is not 1.0 in JSON).
    if type(shown) is not type(revealed) or shown != revealed:
        return f"{path} is {short(shown, 120)} in the view, {short(revealed, 120)} in the reveal"
    return None


# -- per game: the values its views may hide, which the reveal must show ----------------
#
# Each takes a reveal and lists what is missing ("where: what"), in the game's view shape.


def _nulls(where: str, item: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [f"{where}[{key!r}] is null" for key in keys if item.get(key) is None]


def _pile(where: str, pile: Any, size: int, keys: tuple[str, ...]) -> list[str]:
    """A hidden pile shown in order: a list of ``size`` cards with ``keys`` filled."""
    if not isinstance(pile, list) or len(pile) != size:
        return [f"{where} should list {size} cards, not {short(pile, 80)}"]
    return [problem for index, card in enumerate(pile) for problem in _nulls(f"{where}[{index}]", card, keys)]


def _toy_high_card(shown: dict[str, Any]) -> list[str]:
    problems = [
        problem
        for seat, hand in enumerate(shown["hands"])
        for index, card in enumerate(hand)
        for problem in _nulls(f"hands[{seat}][{index}]", card, ("value",))
    ]
    return problems + _pile("deck", shown.get("deck"), shown["deck_size"], ("id", "value"))


def _dont_go_boom(shown: dict[str, Any]) -> list[str]:
    problems = [
        problem
        for minefield in shown["minefields"]
        for card in minefield["cards"]
        for problem in _nulls(
            f"minefields[{minefield['seat']}].cards[{card['position']}]", card, ("value", "kind", "label")
        )
    ]
    held = shown["held"]
    if held is not None:
        problems += _nulls("held", held, ("card", "must_keep"))
    deck = shown["deck"]
    return problems + _pile("deck.cards", deck.get("cards"), deck["size"], ("id", "value", "kind", "label"))


def _booby_trap(shown: dict[str, Any]) -> list[str]:
    problems = []
    for index, piece in enumerate(shown["pieces"]):
        where = f"pieces[{index}]"
        if piece["where"] == "tray":
            problems += _nulls(where, piece, ("reading",))
        hidden = piece.get("hidden")
        if not isinstance(hidden, dict):
            problems.append(f"{where}['hidden'] is {short(hidden, 80)}")
            continue
        problems += _nulls(f"{where}['hidden']", hidden, ("radius", "friction", "load", "noise", "x", "y"))
    if shown["touched"] is not None:
        problems += _nulls("touched", shown["touched"], ("reading",))
    if not isinstance(shown.get("forces"), list):
        problems.append(f"forces is {short(shown.get('forces'), 80)}")
    return problems


def _boom_box(shown: dict[str, Any]) -> list[str]:
    boxes = shown["boxes"]
    every = len(BOX_SET) * shown["players"]
    problems = [] if len(boxes) == every else [f"boxes holds {len(boxes)} boxes, not all {every}"]
    problems += [
        problem
        for box_id, box in boxes.items()
        for problem in _nulls(f"boxes[{box_id}]", box, ("content", "gems"))
    ]
    return problems + [
        problem
        for seat in shown["seats"]
        for problem in _nulls(f"seats[{seat['seat']}]", seat, ("set_aside",))
    ]


def _its_a_bomb(shown: dict[str, Any]) -> list[str]:
    problems = [
        problem
        for grid in shown["grids"]
        for tile in grid["tiles"]
        for problem in _nulls(f"grids[{grid['grid']}].tiles[{tile['row']},{tile['column']}]", tile, ("kind",))
    ]
    countdown = shown["countdown"]
    return problems + _pile(
        "countdown.cards", countdown["cards"], countdown["size"], ("card", "kind", "label")
    )


def _hands_and_pile(shown: dict[str, Any]) -> list[str]:
    """Ka-Blam! and Go Fox!: every hand, and the pick-up pile in order."""
    hands = shown.get("hands")
    if not isinstance(hands, list) or len(hands) != shown["players"]:
        return [f"hands is {short(hands, 80)}"]
    problems = [
        problem
        for seat, (hand, size) in enumerate(zip(hands, shown["hand_sizes"], strict=True))
        for problem in _pile(f"hands[{seat}]", hand, size, ("id", "kind"))
    ]
    return problems + _pile("pile", shown.get("pile"), shown["pile_size"], ("id", "kind"))


def _read_and_grab(shown: dict[str, Any]) -> list[str]:
    return _pile("middle", shown.get("middle"), shown["middle_size"], ("id", "kind", "word"))


HIDDEN_VALUES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "toy-high-card": _toy_high_card,
    "dont-go-boom": _dont_go_boom,
    "booby-trap": _booby_trap,
    "boom-box": _boom_box,
    "its-a-bomb": _its_a_bomb,
    "ka-blam": _hands_and_pile,
    "go-fox": _hands_and_pile,
    "read-and-grab": _read_and_grab,
}
