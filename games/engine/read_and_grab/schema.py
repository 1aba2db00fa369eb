"""The JSON Schema of Read and Grab's view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.json_schema import (
    ActionNotes,
    Schema,
    array,
    integer,
    log_event,
    log_events,
    no_seat,
    nullable,
    obj,
    per_seat,
    ref,
    result,
    seat,
    seats,
    string,
    view_document,
)
from games.engine.read_and_grab.game import ReadAndGrab
from games.engine.word_cards.schema import card_number, legend, word_card, words
from games.engine.word_cards.word_list import COLOUR_COUNT

MAX_PLAYERS = ReadAndGrab.max_players  # the game's own bound, not a copy of it
NUMBER = card_number()

ACTION_NOTES: ActionNotes = {
    "flip": ("Turn over the top card of the middle.", {}),
    "grab": (
        "After your flip, grab another seat's incomplete set of the number you turned over.",
        {"from": "The seat whose set you grab."},
    ),
    "pass": ("After your flip, grab nothing.", {}),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the first player.")
    defs: dict[str, Schema] = {"card": word_card()}
    said = {"words": words()}
    a_set = obj(
        "Cards of one number in front of a seat.",
        {"number": NUMBER, "cards": array(ref("card"), "Its cards, in the order gathered.", min_items=1)},
    )
    log = log_events(
        defs,
        [
            log_event(
                "start",
                "The cards are laid out (`seat`: who laid them).",
                {"first": a_seat},
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "flip", "A seat turned over a card.", {"card": ref("card")}, seat_schema=a_seat, common=said
            ),
            log_event(
                "grab",
                "A seat grabbed another's set.",
                {
                    "from": a_seat,
                    "number": NUMBER,
                    "cards": array(ref("card"), "The cards grabbed.", min_items=1),
                },
                seat_schema=a_seat,
                common=said,
            ),
            log_event("pass", "A seat grabbed nothing.", seat_schema=a_seat, common=said),
            log_event(
                "complete",
                "A seat completed a set of six and turned it over.",
                {"number": NUMBER},
                seat_schema=a_seat,
                common=said,
            ),
            log_event("end", "The middle is empty: the game is over.", seat_schema=no_seat(), common=said),
        ],
    )
    return view_document(
        "read-and-grab",
        "Read and Grab",
        "What anyone knows of a game of Read and Grab (nothing in it is secret): the middle, "
        "the card just turned over, every table, and the log.",
        {
            "game": string("The game's slug.", enum=("read-and-grab",)),
            "players": integer("How many seats the game has.", 2, MAX_PLAYERS),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "phase": string(
                "`flip`, `grab` (the card is turned over and a grab is possible) or `over`.",
                enum=("flip", "grab", "over"),
            ),
            "turn": nullable(a_seat, "The seat to play; null at the end."),
            "to_act": seats(
                MAX_PLAYERS, "The seats that owe a decision: the one on turn, or none at the end."
            ),
            "middle_size": integer("Cards still face down in the middle.", 0),
            "flipped": nullable(
                ref("card"), "The card just turned over while its player may grab; else null."
            ),
            "can_grab_from": seats(
                MAX_PLAYERS, "The seats whose incomplete set of that number may be grabbed."
            ),
            "tables": per_seat(
                obj(
                    "The cards in front of a seat.",
                    {
                        "seat": a_seat,
                        "sets": array(a_set, "Its incomplete sets, by number."),
                        "complete": array(
                            obj(
                                "A complete set, turned over.",
                                {
                                    "number": NUMBER,
                                    "cards": array(
                                        ref("card"),
                                        "Its cards.",
                                        min_items=COLOUR_COUNT,
                                        max_items=COLOUR_COUNT,
                                    ),
                                },
                            ),
                            "Its complete sets.",
                        ),
                        "complete_count": integer("How many complete sets.", 0),
                        "card_count": integer("How many cards in all.", 0),
                    },
                ),
                MAX_PLAYERS,
                "Every seat's table, in seat order.",
            ),
            "colours": legend(),
            "result": result(
                MAX_PLAYERS,
                "How the game ended (scores: complete sets); null while it runs.",
                {
                    "cards_held": per_seat(
                        integer("Cards.", 0), MAX_PLAYERS, "The cards each seat holds, the tie-break."
                    )
                },
            ),
            "log": log,
        },
        defs,
    )
