"""Read and Grab: turn a card, read it, grow your set of that number, grab another's.

Rules: ../shared/rules/ka-blam.md. All 66 word cards lie face down in the middle;
on a turn the player turns the top one over (``flip``), it joins their own
incomplete set of that number, then they may take (``grab``) one other player's
incomplete set of the same number or not (``pass``). A set of all six cards is
complete and locked. The only hidden thing is the order of the middle pile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.engine.actions import IntField
from games.engine.errors import IllegalAction
from games.engine.log import LogEntry, entry, log_reveal, log_view
from games.engine.options import OptionValue
from games.engine.ranking import competition_ranks
from games.engine.rng import RngState, resume
from games.engine.seats import next_seat
from games.engine.word_cards import (
    CARD_COUNT,
    COLOUR_COUNT,
    NUMBERS,
    WORDS,
    cards_in,
    public_entry,
    rebuild_ids,
    word_card_of_view,
    word_card_view,
)
from games.engine.word_cards.game import TurnByTurnGame

SET_SIZE = COLOUR_COUNT
_NO_CARDS: tuple[int, ...] = ()
_EMPTY_SETS: tuple[tuple[int, ...], ...] = tuple(_NO_CARDS for _ in NUMBERS)


@dataclass(frozen=True, slots=True)
class ReadAndGrabState:
    players: int
    rng: RngState
    ids: tuple[str, ...]  # opaque id per card index
    middle: tuple[int, ...]  # face down, top first
    # Per seat, per number (index number - 1): the cards of that seat's incomplete set.
    open_sets: tuple[tuple[tuple[int, ...], ...], ...]
    # Per seat, the numbers of its complete sets, in the order they were completed.
    complete: tuple[tuple[int, ...], ...]
    turn: int  # the seat whose turn it is; -1 once the game is over
    flipped: int | None  # the card just turned over while its player may grab
    log: tuple[LogEntry, ...]


def _number(card: int) -> int:
    return WORDS.cards[card].number


class ReadAndGrab(TurnByTurnGame[ReadAndGrabState]):
    slug = "read-and-grab"
    name = "Read and Grab"
    min_players = 2
    max_players = 6
    action_schemas: ClassVar = {
        "flip": {},
        "grab": {"from": IntField(0, max_players - 1)},
        "pass": {},
    }
    state_type = ReadAndGrabState

    # -- setup and turns -----------------------------------------------------

    def setup(self, players: int, rng_state: RngState, options: dict[str, OptionValue]) -> ReadAndGrabState:
        rng = resume(rng_state)
        ids = rng.unique_tokens(CARD_COUNT)
        middle = rng.shuffled(range(CARD_COUNT))
        first = next_seat(0, players)
        return ReadAndGrabState(
            players=players,
            rng=rng.state,
            ids=ids,
            middle=middle,
            open_sets=tuple(_EMPTY_SETS for _ in range(players)),
            complete=tuple(() for _ in range(players)),
            turn=first,
            flipped=None,
            log=(
                entry(
                    "start",
                    0,
                    "{s0} laid the 66 word cards face down in the middle. "
                    f"{{s{first}}} turns over the first card.",
                    {"first": first, "words": []},
                ),
            ),
        )

    def turn_actions(self, state: ReadAndGrabState, seat: int) -> list[dict[str, Any]]:
        if state.flipped is None:
            return [{"type": "flip"}]
        return [{"type": "pass"}] + [
            {"type": "grab", "from": owner} for owner in _grab_targets(state, seat, _number(state.flipped))
        ]

    def play(self, state: ReadAndGrabState, seat: int, kind: str, fields: dict[str, Any]) -> ReadAndGrabState:
        if kind == "flip":
            if state.flipped is not None:
                raise IllegalAction("grab_or_pass", "You have turned your card over: grab a set or pass.")
            return _flip(state, seat)
        if state.flipped is None:
            raise IllegalAction("flip_first", "Turn over the top card first.")
        if kind == "pass":
            passed = entry("pass", seat, f"{{s{seat}}} did not grab.", {"words": []})
            return _end_turn(replace(state, log=(*state.log, passed)), seat)
        return _end_turn(_grab(state, seat, fields["from"]), seat)

    # -- results -------------------------------------------------------------

    def result(self, state: ReadAndGrabState) -> dict[str, Any] | None:
        if state.turn >= 0:
            return None
        complete = [len(numbers) for numbers in state.complete]
        held = [_cards_held(state, seat) for seat in range(state.players)]
        return {
            "scores": complete,
            "ranks": competition_ranks(list(zip(complete, held, strict=True))),
            "cards_held": held,
        }

    # -- views and sampling --------------------------------------------------

    def view(self, state: ReadAndGrabState, seat: int | None) -> dict[str, Any]:
        ids = state.ids
        over = state.turn < 0
        number = None if state.flipped is None else _number(state.flipped)
        grabbable = [] if over or number is None else _grab_targets(state, state.turn, number)
        tables = []
        for owner in range(state.players):
            tables.append(
                {
                    "seat": owner,
                    "sets": [
                        {
                            "number": index + 1,
                            "cards": [word_card_view(WORDS.cards[c], ids[c]) for c in cards],
                        }
                        for index, cards in enumerate(state.open_sets[owner])
                        if cards
                    ],
                    "complete": [
                        {
                            "number": done,
                            "cards": [
                                word_card_view(card, ids[card.index])
                                for card in WORDS.cards
                                if card.number == done
                            ],
                        }
                        for done in state.complete[owner]
                    ],
                    "complete_count": len(state.complete[owner]),
                    "card_count": _cards_held(state, owner),
                }
            )
        return {
            "game": self.slug,
            "players": state.players,
            "seat": seat,
            "phase": "over" if over else ("flip" if state.flipped is None else "grab"),
            "turn": None if over else state.turn,
            "to_act": self.to_act(state),
            "middle_size": len(state.middle),
            "flipped": None
            if state.flipped is None
            else word_card_view(WORDS.cards[state.flipped], ids[state.flipped]),
            "can_grab_from": grabbable,
            "tables": tables,
            "colours": WORDS.legend(),
            "result": self.result(state),
            "log": log_view(state.log, seat),
        }

    def reveal(self, state: ReadAndGrabState) -> dict[str, Any]:
        """Everything revealed (finished matches only): a spectator's view plus the
        ``middle`` pile in order (top first), the one hidden thing of the game."""
        shown = self.view(state, None)
        shown["middle"] = [word_card_view(WORDS.cards[card], state.ids[card]) for card in state.middle]
        shown["log"] = log_reveal(state.log)
        shown["revealed"] = True
        shown["as_seen_by"] = {str(seat): {"seat": seat} for seat in range(state.players)}
        return shown

    def sample(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> ReadAndGrabState:
        known = {card["id"]: word_card_of_view(card) for card in cards_in(view)}
        unseen = [index for index in range(CARD_COUNT) if index not in known.values()]
        rng.shuffle(unseen)
        open_sets = []
        complete = []
        for table in view["tables"]:
            sets = [_NO_CARDS] * len(NUMBERS)
            for shown in table["sets"]:
                sets[shown["number"] - 1] = tuple(known[card["id"]] for card in shown["cards"])
            open_sets.append(tuple(sets))
            complete.append(tuple(done["number"] for done in table["complete"]))
        flipped = view["flipped"]
        return ReadAndGrabState(
            players=view["players"],
            rng=rng.getrandbits(64),
            ids=rebuild_ids(known, CARD_COUNT, rng),
            middle=tuple(unseen),
            open_sets=tuple(open_sets),
            complete=tuple(complete),
            turn=-1 if view["turn"] is None else view["turn"],
            flipped=None if flipped is None else known[flipped["id"]],
            log=tuple(public_entry(item) for item in view["log"]),
        )


# -- the rules, as functions of the state ---------------------------------------


def _grab_targets(state: ReadAndGrabState, seat: int, number: int) -> list[int]:
    return [owner for owner in range(state.players) if owner != seat and state.open_sets[owner][number - 1]]


def _cards_held(state: ReadAndGrabState, seat: int) -> int:
    return sum(len(cards) for cards in state.open_sets[seat]) + SET_SIZE * len(state.complete[seat])


def _with_set(
    sets: tuple[tuple[tuple[int, ...], ...], ...], seat: int, number: int, cards: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    mine = sets[seat]
    changed = (*mine[: number - 1], cards, *mine[number:])
    return (*sets[:seat], changed, *sets[seat + 1 :])


def _flip(state: ReadAndGrabState, seat: int) -> ReadAndGrabState:
    card = state.middle[0]
    face = WORDS.cards[card]
    grown = (*state.open_sets[seat][face.number - 1], card)
    flipped = entry(
        "flip",
        seat,
        f"{{s{seat}}} turned over {face.label}.",
        {"card": word_card_view(face, state.ids[card]), "words": [face.word]},
    )
    state = replace(
        state,
        middle=state.middle[1:],
        open_sets=_with_set(state.open_sets, seat, face.number, grown),
        flipped=card,
        log=(*state.log, flipped),
    )
    if _grab_targets(state, seat, face.number):
        return state
    return _end_turn(state, seat)


def _grab(state: ReadAndGrabState, seat: int, owner: int) -> ReadAndGrabState:
    assert state.flipped is not None
    number = _number(state.flipped)
    if owner == seat or owner >= state.players:
        raise IllegalAction("no_such_set", "Grab a set from another player at the table.")
    taken = state.open_sets[owner][number - 1]
    if not taken:
        raise IllegalAction("no_such_set", f"That player has no incomplete set of {number}s to grab.")
    faces = [WORDS.cards[card] for card in taken]
    sets = _with_set(state.open_sets, owner, number, _NO_CARDS)
    sets = _with_set(sets, seat, number, state.open_sets[seat][number - 1] + taken)
    grabbed = entry(
        "grab",
        seat,
        f"{{s{seat}}} grabbed {{s{owner}}}'s {number}s: {', '.join(face.word for face in faces)}.",
        {
            "from": owner,
            "number": number,
            "cards": [word_card_view(face, state.ids[face.index]) for face in faces],
            "words": [face.word for face in faces],
        },
    )
    return replace(state, open_sets=sets, log=(*state.log, grabbed))


def _end_turn(state: ReadAndGrabState, seat: int) -> ReadAndGrabState:
    """Lock a completed set, then pass the turn on (or end the game when the middle is empty)."""
    assert state.flipped is not None
    number = _number(state.flipped)
    log = state.log
    sets = state.open_sets
    complete = state.complete
    if len(sets[seat][number - 1]) == SET_SIZE:
        sets = _with_set(sets, seat, number, _NO_CARDS)
        complete = (*complete[:seat], (*complete[seat], number), *complete[seat + 1 :])
        log = (
            *log,
            entry(
                "complete",
                seat,
                f"{{s{seat}}} completed the set of {number}s and turned it over.",
                {"number": number, "words": []},
            ),
        )
    if state.middle:
        turn = next_seat(seat, state.players)
    else:
        turn = -1
        log = (*log, entry("end", None, "The middle is empty: the game is over.", {"words": []}))
    return replace(state, open_sets=sets, complete=complete, turn=turn, flipped=None, log=log)
