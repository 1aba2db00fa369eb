"""What each game's ``reveal`` adds beyond a view, checked against what play does next.

The conformance suite checks every reveal against every view; these check the parts
no view has: a deck or pile is shown in the order it is drawn, Booby-Trap's hidden
make-up and forces are the state's, and It's a Bomb! reveals the Crisis Unit's board.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from games.engine import Game, get
from games.engine.booby_trap import BoobyTrap, force_network
from games.engine.its_a_bomb.state import CRISIS_UNIT
from games.engine.log import log_reveal
from tests.engine.playouts import RandomPlay, random_game
from tests.engine.toy_game import ToyHighCard


def moves_of(played: RandomPlay[Any], kind: str) -> list[tuple[Any, Any]]:
    """(state before, state after) of every move of type ``kind``."""
    return [
        (before, after)
        for (before, after), (_, action) in zip(itertools.pairwise(played.states), played.moves, strict=True)
        if action["type"] == kind
    ]


def first_new_entry(game: Game[Any], before: Any, after: Any, event: str) -> dict[str, Any]:
    """The first ``event`` entry ``after``'s revealed log adds to ``before``'s."""
    known = len(game.reveal(before)["log"])
    added = game.reveal(after)["log"][known:]
    return next(item for item in added if item["event"] == event)


def test_toy_deck_is_revealed_in_the_order_it_is_drawn() -> None:
    game = ToyHighCard()
    draws = moves_of(random_game(game, 3, 0), "draw")
    assert draws
    for before, after in draws:
        top = game.reveal(before)["deck"][0]
        assert first_new_entry(game, before, after, "draw")["value"] == top["value"]


def test_dont_go_boom_deck_is_revealed_in_the_order_it_is_drawn() -> None:
    game = get("dont-go-boom")
    played = random_game(game, 3, 0, {"rounds": 1})
    draws = [
        (before, after)
        for before, after in moves_of(played, "draw")
        if game.reveal(after)["held"]["from"] == "deck" and before.deck
    ]
    assert draws
    for before, after in draws:
        assert game.reveal(after)["held"]["card"] == game.reveal(before)["deck"]["cards"][0]


@pytest.mark.parametrize(("slug", "options"), [("ka-blam", {"length": "short"}), ("go-fox", {})])
def test_pick_up_pile_is_revealed_in_the_order_it_is_drawn(slug: str, options: dict[str, Any]) -> None:
    game: Game[Any] = get(slug)
    checked = 0
    for seed in range(4):
        for before, after in itertools.pairwise(random_game(game, 3, seed, options, stop_after=60).states):
            if after.log[: len(before.log)] != before.log:
                continue  # a new round: Ka-Blam!'s log starts again
            added = log_reveal(after.log[len(before.log) :])
            drawn = [item for item in added if item["event"] in ("draw", "explode")]
            if not drawn or added[0]["event"] == "reshuffle" or not before.pile:
                continue
            # Revealed, a draw entry shows the drawer's card beside the public facts.
            assert drawn[0]["card"] == game.reveal(before)["pile"][0]
            checked += 1
    assert checked > 10


def test_read_and_grab_middle_is_revealed_in_the_order_it_is_turned_over() -> None:
    game = get("read-and-grab")
    flips = moves_of(random_game(game, 4, 0), "flip")
    assert len(flips) > 10
    for before, after in flips:
        assert first_new_entry(game, before, after, "flip")["card"] == game.reveal(before)["middle"][0]


def test_booby_trap_reveals_the_make_up_the_readings_and_the_forces() -> None:
    game = BoobyTrap()
    played = random_game(game, 2, 0)
    touches = moves_of(played, "touch")
    assert touches
    for before, after in touches:
        # The reading a touch gives is the one the reveal showed on that piece before it.
        felt = first_new_entry(game, before, after, "touch")
        piece = next(piece for piece in game.reveal(before)["pieces"] if piece["id"] == felt["piece"])
        assert piece["reading"] == {"gauge": felt["gauge"], "feel": felt["feel"]}
        assert game.reveal(after)["touched"]["reading"] == piece["reading"]
    for state in (played.states[0], played.final):
        shown = game.reveal(state)
        assert shown["forces"] == force_network(state)
        for piece, place in zip(state.pieces, shown["pieces"], strict=True):
            assert place["hidden"] == {
                "radius": piece.radius,
                "friction": piece.friction,
                "load": piece.load,
                "noise": piece.noise,
                "x": piece.x,
                "y": piece.y,
            }


def test_boom_box_reveals_every_box_and_what_each_seat_set_aside() -> None:
    game = get("boom-box")
    played = random_game(game, 3, 0)
    start = game.reveal(played.states[0])
    assert Counter(box["owner"] for box in start["boxes"].values()) == {0: 6, 1: 6, 2: 6}
    assert all(box["place"] == "unchosen" for box in start["boxes"].values())
    assert [start["as_seen_by"][str(seat)]["choose_from"] for seat in range(3)] == [
        game.view(played.states[0], seat)["choose_from"] for seat in range(3)
    ]
    end = game.reveal(played.final)
    for seat in end["seats"]:
        assert len(seat["set_aside"]) == 2
        assert all(end["boxes"][box]["place"] == "set_aside" for box in seat["set_aside"])


def test_its_a_bomb_reveals_the_crisis_units_board_to_everyone() -> None:
    game = get("its-a-bomb")
    played = random_game(game, 3, 0, {"scenario": "sequence"})
    for state in played.states:
        shown = game.reveal(state)
        board = game.view(state, CRISIS_UNIT)
        assert {key: value for key, value in shown.items() if key not in ("seat", "role", "log")} == {
            **{key: value for key, value in board.items() if key not in ("seat", "role", "log")},
            "revealed": True,
            "as_seen_by": {
                "0": {"seat": 0, "role": "crisis_unit"},
                **{str(seat): {"seat": seat, "role": "employee"} for seat in (1, 2)},
            },
        }
        assert (shown["seat"], shown["role"]) == (None, "spectator")
