"""Read and Grab bots: always grab, the biggest set, from the leader on a tie.

The only choice in Read and Grab is, after turning a card over, whether to grab
another player's incomplete set of that number and whose. Grabbing never hurts
the grabber: the cards join our set (and a set of six is complete and safe), and
whoever we took them from is that much further from completing it. Leaving the set
where it is does not protect ours either, since anyone who turns that number over
may grab it. So:

- grab whenever we can;
- take the biggest set (the one that completes ours, if any, is the biggest: there
  are only six cards of a number);
- between equal sets, take from the player doing best (most complete sets, then
  most cards), who is the one to hold back.

``basic`` reads the tables from the view (nothing is hidden but the middle pile's
order); ``rollout`` makes the same choice on a state's sets.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.base import Game
from games.engine.read_and_grab.game import ReadAndGrabState
from games.engine.word_cards import WORDS

FLIP: dict[str, Any] = {"type": "flip"}
PASS: dict[str, Any] = {"type": "pass"}


def choose_target(set_sizes: dict[int, int], standing: list[tuple[int, int]]) -> int | None:
    """Whom to grab from, or None: ``set_sizes`` per seat with a set of the number,
    ``standing`` per seat (complete sets, then cards held)."""
    if not set_sizes:
        return None
    return max(set_sizes, key=lambda owner: (set_sizes[owner], standing[owner]))


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if view["flipped"] is None:
        return FLIP
    number = view["flipped"]["number"]
    tables = view["tables"]
    sizes = {
        table["seat"]: len(shown["cards"])
        for table in tables
        if table["seat"] != seat
        for shown in table["sets"]
        if shown["number"] == number
    }
    standing = [(table["complete_count"], table["card_count"]) for table in tables]
    owner = choose_target(sizes, standing)
    return PASS if owner is None else {"type": "grab", "from": owner}


def rollout(game: Game[Any], state: ReadAndGrabState, seat: int, rng: random.Random) -> dict[str, Any]:
    if state.flipped is None:
        return FLIP
    index = WORDS.cards[state.flipped].number - 1
    sizes = {
        owner: len(sets[index]) for owner, sets in enumerate(state.open_sets) if owner != seat and sets[index]
    }
    if not sizes:
        return PASS
    # Standing is only needed to break ties; cheap enough to count here.
    standing = [
        (len(state.complete[owner]), sum(len(cards) for cards in state.open_sets[owner]))
        for owner in range(state.players)
    ]
    owner = choose_target(sizes, standing)
    return PASS if owner is None else {"type": "grab", "from": owner}
