"""The JSON Schema of Ka-Blam!'s view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.json_schema import (
    ActionNotes,
    Schema,
    an_id,
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
from games.engine.ka_blam.cards import EXPLODING, MISS_A_TURN, PICK_UP_2, REVERSE, WILD, WORD
from games.engine.ka_blam.game import KaBlam
from games.engine.ka_blam.state import ALL_PASSED, EMPTY_HAND, EXPLOSION, NO_PLAY, PICK_UP
from games.engine.word_cards.schema import colour, legend, words
from games.engine.word_cards.word_list import NUMBERS

MAX_PLAYERS = KaBlam.max_players  # the game's own bound, not a copy of it
KINDS = (WORD, MISS_A_TURN, PICK_UP_2, REVERSE, WILD, EXPLODING)
ROUND_ENDS = (EMPTY_HAND, EXPLOSION, ALL_PASSED)

ACTION_NOTES: ActionNotes = {
    "play": (
        "Play a card from your hand that matches the colour to follow or the top card (not a Wild).",
        {"card": "The card's id."},
    ),
    "play_wild": (
        "Play a Wild (any time it is your turn) and name the colour to follow.",
        {"card": "The Wild's id.", "colour": "The colour named."},
    ),
    "draw": ("Nothing to play: draw a card from the pick-up pile.", {}),
    "pass": ("Nothing to play and nothing to draw: pass.", {}),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the first player.")
    defs: dict[str, Schema] = {
        "card": obj(
            "A card.",
            {
                "id": an_id("The card's id; it tells nothing about the card."),
                "kind": string(
                    "`word`, an action (`miss_a_turn`, `pick_up_2`, `reverse`), `wild`, or `exploding` "
                    "(the KA-BLAM! card).",
                    enum=KINDS,
                ),
                "colour": nullable(
                    colour("Its colour."), "Its colour; null for a Wild and the Exploding card."
                ),
                "number": nullable(
                    integer("Its number.", NUMBERS[0], NUMBERS[-1]),
                    "A word card's number; null for the others.",
                ),
                "word": nullable(string("The word."), "A word card's word; null for the others."),
                "label": string(
                    'What to show and read: the word, or the card\'s name ("Pick Up 2", "KA-BLAM!").'
                ),
                "points": integer("What it counts in a hand at the end of a round.", 0),
            },
        ),
    }
    said = {"words": words()}
    hands = per_seat(
        array(ref("card"), "A hand."), MAX_PLAYERS, "Every seat's hand at the end, in seat order."
    )
    values = per_seat(integer("Points.", 0), MAX_PLAYERS, "What each hand counted.")
    round_end_facts = {
        "round": integer("The round.", 1),
        "winner": a_seat,
        "reason": string(
            "`empty_hand` (the winner played its last card), `explosion` (the last seat left when "
            "another exploded) or `all_passed` (lowest hand when nobody could play).",
            enum=ROUND_ENDS,
        ),
        "points": integer("What the winner scored.", 0),
        "hands": hands,
        "values": values,
    }
    draw_reason = string("`no_play` (nothing to play) or `pick_up_2`.", enum=(NO_PLAY, PICK_UP))
    log = log_events(
        defs,
        [
            log_event(
                "deal",
                "A round's cards are dealt (`seat`: the dealer).",
                {
                    "round": integer("The round.", 1),
                    "hand_size": integer("Cards dealt to each player.", 1),
                    "cards": array(ref("card"), "Your own cards: in your own view only."),
                },
                optional=("cards",),
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "start",
                "The dealer turned over the first card of the discard pile.",
                {
                    "turned": array(
                        ref("card"), "Cards turned over before it and sent back (actions, Wilds)."
                    ),
                    "card": ref("card", "The card that starts the pile."),
                    "first": a_seat,
                },
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "play",
                "A seat played a card.",
                {"card": ref("card"), "colour": colour("The colour to follow now.")},
                seat_schema=a_seat,
                common=said,
            ),
            log_event("miss", "A seat misses its turn.", seat_schema=a_seat, common=said),
            log_event("reverse", "Play changes direction.", seat_schema=a_seat, common=said),
            log_event("pick_up_2", "A seat must pick up two cards.", seat_schema=a_seat, common=said),
            log_event(
                "draw",
                "A seat drew a card.",
                {
                    "reason": draw_reason,
                    "pile_size": integer("Cards left in the pick-up pile.", 0),
                    "card": ref("card", "The card drawn: in the drawer's own view only."),
                },
                optional=("card",),
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "explode",
                "A seat drew the Exploding card and is out of the round.",
                {"card": ref("card"), "reason": draw_reason},
                seat_schema=a_seat,
                common=said,
            ),
            log_event(
                "reshuffle",
                "The pick-up pile ran out and the discard pile became the new one.",
                {"pile_size": integer("Cards in the new pile.", 0)},
                seat_schema=no_seat(),
                common=said,
            ),
            log_event(
                "pass", "A seat could neither play nor draw, and passed.", seat_schema=a_seat, common=said
            ),
            log_event(
                "round_end",
                "A round ended (`seat`: its winner).",
                {
                    **round_end_facts,
                    "scores": per_seat(integer("Points."), MAX_PLAYERS, "Every seat's points now."),
                },
                seat_schema=a_seat,
                common=said,
            ),
        ],
    )
    return view_document(
        "ka-blam",
        "Ka-Blam!",
        "What one seat (or a spectator) knows of a game of Ka-Blam!: its own hand, the sizes of "
        "the others, the discard pile, the scores, and this round's log.",
        {
            "game": string("The game's slug.", enum=("ka-blam",)),
            "players": integer("How many seats the game has.", 2, MAX_PLAYERS),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "phase": string("`play` or `over`.", enum=("play", "over")),
            "length": string(
                "The option: `long` (rounds up to the target) or `short` (one round).", enum=("long", "short")
            ),
            "target": integer("The option: points that end a long game.", 10, 300),
            "round": integer("The round being played, from 1.", 1),
            "dealer": a_seat,
            "turn": nullable(a_seat, "The seat to play; null at the end."),
            "to_act": seats(
                MAX_PLAYERS, "The seats that owe a decision: the one on turn, or none at the end."
            ),
            "direction": integer("1: play goes to the next seat up; -1: the other way.", -1, 1),
            "hand": nullable(array(ref("card"), "Your cards."), "Your cards; null for a spectator."),
            "hand_sizes": per_seat(integer("Cards held.", 0), MAX_PLAYERS, "How many cards each seat holds."),
            "exploded": nullable(a_seat, "The seat out of this round (it drew the Exploding card), or null."),
            "pile_size": integer("Cards left in the pick-up pile.", 0),
            "discard": array(ref("card"), "The discard pile, top first.", min_items=1),
            "top": ref("card", "The top card of the discard pile."),
            "colour": colour("The colour to follow (the one named after a Wild)."),
            "passes": integer("Passes in a row so far.", 0),
            "scores": per_seat(integer("Points."), MAX_PLAYERS, "Each seat's points."),
            "rounds": array(
                obj(
                    "A finished round.",
                    {
                        "dealer": a_seat,
                        **round_end_facts,
                        "exploded": nullable(a_seat, "The seat that exploded, or null."),
                    },
                ),
                "The finished rounds, in order.",
            ),
            "colours": legend(),
            "result": result(MAX_PLAYERS, "How the game ended; null while it runs."),
            "log": log,
        },
        defs,
    )
