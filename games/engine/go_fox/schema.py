"""The JSON Schema of Go Fox!'s view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.go_fox.game import GoFox
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
from games.engine.word_cards.schema import card_number, legend, word_card, words

MAX_PLAYERS = GoFox.max_players  # the game's own bound, not a copy of it
NUMBER = card_number()

ACTION_NOTES: ActionNotes = {
    "ask": ("Ask the next player for a number you hold.", {"number": "The number asked for, 1 to 11."}),
    "lay": ("After a GO FOX!, lay a pair from your hand.", {"number": "The number of the pair, 1 to 11."}),
    "draw": ("After a GO FOX! (or with an empty hand), draw from the pick-up pile; this ends your turn.", {}),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the first player.")
    defs: dict[str, Schema] = {"card": word_card()}
    said = {"words": words()}
    log = log_events(
        defs,
        [
            log_event(
                "deal",
                "The cards are dealt (`seat`: the dealer).",
                {
                    "hand_size": integer("Cards dealt to each player.", 1),
                    "cards": array(ref("card"), "Your own cards: in your own view only."),
                },
                optional=("cards",),
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "ask",
                "A seat asked the next for a number.",
                {"asked": a_seat, "number": NUMBER},
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "give",
                "The asked seat gave a card of that number.",
                {"to": a_seat, "card": ref("card")},
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "pair",
                "A seat laid a pair.",
                {
                    "number": NUMBER,
                    "cards": array(ref("card"), "The two cards.", min_items=2, max_items=2),
                    "after": string("What led to it: a card given, or a GO FOX!", enum=("give", "go_fox")),
                },
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "go_fox",
                "The asked seat (`seat`) had no such card and said GO FOX!",
                {"asker": a_seat, "number": NUMBER},
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "draw",
                "A seat drew from the pick-up pile.",
                {
                    "pile_size": integer("Cards left in the pile after the draw.", 0),
                    "card": ref("card", "The card drawn: in the drawer's own view only."),
                },
                optional=("card",),
                seat_schema=a_seat,
                common=said,
            ),
            log_event("end", "The game is over.", seat_schema=no_seat(), common=said),
        ],
    )
    return view_document(
        "go-fox",
        "Go Fox!",
        "What one seat (or a spectator) knows of a game of Go Fox!: its own hand, the sizes of "
        "the others, the pairs laid, and the log.",
        {
            "game": string("The game's slug.", enum=("go-fox",)),
            "players": integer("How many seats the game has.", 2, MAX_PLAYERS),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "phase": string(
                "`ask`, `go_fox` (the player on turn heard GO FOX! and may lay a pair, then draws), or `over`.",
                enum=("ask", "go_fox", "over"),
            ),
            "turn": nullable(a_seat, "The seat to play; null at the end."),
            "asks": nullable(a_seat, "The seat the player on turn asks (the next one); null at the end."),
            "to_act": seats(
                MAX_PLAYERS, "The seats that owe a decision: the one on turn, or none at the end."
            ),
            "hand": nullable(array(ref("card"), "Your cards."), "Your cards; null for a spectator."),
            "hand_sizes": per_seat(integer("Cards held.", 0), MAX_PLAYERS, "How many cards each seat holds."),
            "pile_size": integer("Cards left in the pick-up pile.", 0),
            "pairs": per_seat(
                obj(
                    "A seat's pairs.",
                    {
                        "seat": a_seat,
                        "pairs": array(
                            obj(
                                "A pair laid.",
                                {
                                    "number": NUMBER,
                                    "cards": array(ref("card"), "Its two cards.", min_items=2, max_items=2),
                                },
                            ),
                            "The pairs, in the order laid.",
                        ),
                        "count": integer("How many pairs.", 0),
                    },
                ),
                MAX_PLAYERS,
                "Every seat's pairs, in seat order.",
            ),
            "scores": per_seat(integer("Pairs laid.", 0), MAX_PLAYERS, "Each seat's score: its pairs."),
            "colours": legend(),
            "result": result(MAX_PLAYERS, "How the game ended; null while it runs."),
            "log": log,
        },
        defs,
    )
