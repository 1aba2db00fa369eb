"""The JSON Schema of Don't Go Boom's view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.dont_go_boom.cards import ACTION_KINDS, BOMB, GRID_SIZE, LINE_NAMES, NUMBER
from games.engine.dont_go_boom.game import DontGoBoom
from games.engine.json_schema import (
    ActionNotes,
    Schema,
    an_id,
    array,
    boolean,
    integer,
    log_event,
    log_events,
    no_seat,
    nullable,
    obj,
    per_seat,
    ref,
    seat,
    seats,
    string,
    view_document,
)

MAX_PLAYERS = DontGoBoom.max_players  # the game's own bound, not a copy of it
KINDS = (NUMBER, *ACTION_KINDS, BOMB)
POSITION = integer(
    "A place in a minefield: 0 to 8, row by row (0 is row 1, column 1; 8 is row 3, column 3).", 0, 8
)

ACTION_NOTES: ActionNotes = {
    "choose": (
        "At the start of a round, choose the card of yours to turn face up (every seat at once).",
        {"position": "The card's place in your minefield, 0 to 8."},
    ),
    "draw": (
        "Start your turn by drawing a card.",
        {"from": "`deck` (a card only you see) or `discard` (the top of the discard pile)."},
    ),
    "keep": (
        "Keep the card you hold in place of one of yours, which goes to the discard pile.",
        {"position": "The place in your minefield it goes to, 0 to 8."},
    ),
    "discard": (
        "Discard the card you hold (drawn from the deck, not a bomb); then turn one of yours up.",
        {},
    ),
    "flip": (
        "After discarding, turn one of your face-down cards face up.",
        {"position": "The face-down card's place in your minefield."},
    ),
    "swap": (
        "Use a Swap you drew: exchange one of your cards with another player's, or two of your own.",
        {
            "position": "Your card's place.",
            "target_seat": "The seat whose card you take (your own seat to swap two of yours).",
            "target_position": "That card's place in their minefield.",
        },
    ),
    "peek": (
        "Use a Peek you drew: look at one of your face-down cards (only you learn it).",
        {"position": "The face-down card's place in your minefield."},
    ),
    "draw_again": ("Use a Draw Again you drew: discard it and draw another card from the deck.", {}),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the first player.")
    defs: dict[str, Schema] = {
        "card": obj(
            "A card seen face up.",
            {
                "id": an_id("The card's id for this round; it tells nothing about the card."),
                "value": integer("Its points: 1 to 13, or 15 for the Big Bad Bomb.", 1, 15),
                "kind": string(
                    "`number`; `swap` (a 10), `peek` (a 7) or `draw_again` (a 3), which may be used "
                    "when drawn from the deck; `bomb`, the Big Bad Bomb.",
                    enum=KINDS,
                ),
                "label": string('What the card says: "7", "7 Peek", "Big Bad Bomb".'),
            },
        ),
        "grid_card": obj(
            "A card in a minefield, face up or face down.",
            {
                "position": POSITION,
                "name": string("Its place as a name: r0c0 ... r2c2.", pattern="^r[0-2]c[0-2]$"),
                "id": an_id("The card's id for this round (shown even face down, so moves can be followed)."),
                "face_up": boolean("Whether it lies face up."),
                "value": nullable(integer("Its points.", 1, 15), "Its points; null while it lies face down."),
                "kind": nullable(string("Its kind.", enum=KINDS), "Its kind; null while face down."),
                "label": nullable(string("Its label."), "Its label; null while face down."),
                "peeked": nullable(
                    ref("card"), "The card as you know it from your Peek, while it lies face down; else null."
                ),
                "known_by": seats(MAX_PLAYERS, "The seats that peeked at this face-down card."),
            },
        ),
        "minefield": obj(
            "One player's nine cards.",
            {
                "seat": a_seat,
                "cards": array(
                    ref("grid_card"), "The nine cards, by place.", min_items=GRID_SIZE, max_items=GRID_SIZE
                ),
                "face_up_count": integer("How many lie face up.", 0, GRID_SIZE),
                "face_down_count": integer("How many lie face down.", 0, GRID_SIZE),
                "all_face_up": boolean("Whether all nine lie face up (which starts the final lap)."),
                "has_chosen": nullable(
                    boolean("Whether this seat has chosen its first card."),
                    "While the round's first cards are being chosen, whether this seat has chosen; else null.",
                ),
            },
        ),
    }
    log = log_events(
        defs,
        [
            log_event(
                "round_start",
                "A round starts.",
                {"round": integer("The round, from 1.", 1)},
                seat_schema=no_seat(),
            ),
            log_event("chose", "A seat chose its first card (which one stays secret).", seat_schema=a_seat),
            log_event(
                "revealed",
                "Everyone's chosen cards turn face up.",
                {
                    "revealed": array(
                        obj(
                            "A card turned up.",
                            {"seat": a_seat, "position": POSITION, "card": ref("card")},
                        ),
                        "Per seat, the card it turned up.",
                    )
                },
                seat_schema=no_seat(),
            ),
            log_event(
                "start_card_bomb",
                "A bomb turned up to start the discard pile and went back into the deck.",
                {"card": ref("card")},
                seat_schema=no_seat(),
            ),
            log_event(
                "start_card",
                "The card that starts the discard pile.",
                {"card": ref("card")},
                seat_schema=no_seat(),
            ),
            log_event(
                "first_player",
                "Who goes first: the highest card turned up (`seat`).",
                {
                    "tied": seats(MAX_PLAYERS, "The seats that turned up that value."),
                    "value": integer("The highest value turned up.", 1, 15),
                },
                seat_schema=a_seat,
            ),
            log_event("drew", "A seat drew from the deck (the card is not told).", seat_schema=a_seat),
            log_event(
                "took_discard",
                "A seat took the top of the discard pile.",
                {"card": ref("card")},
                seat_schema=a_seat,
            ),
            log_event(
                "reshuffled",
                "The deck ran out: the discard pile but its top card became the new deck.",
                {"cards": integer("How many cards the new deck holds.", 0)},
                seat_schema=no_seat(),
            ),
            log_event(
                "kept",
                "A seat kept the card it held in place of one of its cards.",
                {
                    "position": POSITION,
                    "card": ref("card", "The card kept."),
                    "from": string("Where it was drawn from.", enum=("deck", "discard")),
                    "replaced": ref(
                        "card", "The card it replaced, now on the discard pile (or out, a bomb)."
                    ),
                    "replaced_was_face_up": boolean("Whether the replaced card lay face up."),
                },
                seat_schema=a_seat,
            ),
            log_event(
                "discarded", "A seat discarded the card it drew.", {"card": ref("card")}, seat_schema=a_seat
            ),
            log_event(
                "flipped",
                "A seat turned one of its cards face up.",
                {"position": POSITION, "card": ref("card")},
                seat_schema=a_seat,
            ),
            log_event(
                "swapped",
                "A seat used a Swap.",
                {
                    "card": ref("card", "The Swap card used."),
                    "position": POSITION,
                    "target_seat": a_seat,
                    "target_position": POSITION,
                    "given": ref(
                        "card", "The card given away, which turns face up (a swap with another seat)."
                    ),
                    "received": {
                        "description": "The card taken: all of it if it lay face up, else only its id.",
                        "anyOf": [
                            ref("card"),
                            obj("A face-down card taken.", {"id": an_id("Its id.")}),
                        ],
                    },
                },
                optional=("given", "received"),
                seat_schema=a_seat,
            ),
            log_event(
                "peeked",
                "A seat used a Peek on one of its face-down cards.",
                {
                    "position": POSITION,
                    "peeked_id": an_id("The id of the card looked at."),
                    "round": integer("The round of the Peek.", 1),
                    "peeked": ref("card", "What the card is: in the peeker's own view only."),
                },
                optional=("peeked",),
                seat_schema=a_seat,
            ),
            log_event("drew_again", "A seat used a Draw Again.", {"card": ref("card")}, seat_schema=a_seat),
            log_event(
                "final_lap",
                "A seat's nine cards are all face up: everyone else gets one last turn.",
                {"remaining": seats(MAX_PLAYERS, "The seats still owed their last turn, in turn order.")},
                seat_schema=a_seat,
            ),
            log_event("turn_cap", "The round reached its limit of turns and ends.", seat_schema=no_seat()),
            log_event(
                "round_end",
                "A round ends: every card turns face up and is scored.",
                {
                    "round": integer("The round.", 1),
                    "minefields": per_seat(
                        ref("scored_minefield"), MAX_PLAYERS, "Per seat, its scored minefield."
                    ),
                    "scores": per_seat(integer("Points."), MAX_PLAYERS, "The round's score of each seat."),
                },
                seat_schema=no_seat(),
            ),
            log_event(
                "game_over",
                "The last round ended.",
                {"totals": per_seat(integer("Points."), MAX_PLAYERS, "Each seat's total; the lowest wins.")},
                seat_schema=no_seat(),
            ),
        ],
    )
    defs["scored_minefield"] = obj(
        "A minefield at the end of a round.",
        {
            "cards": array(
                ref("card"),
                "Its nine cards, by place, all face up.",
                min_items=GRID_SIZE,
                max_items=GRID_SIZE,
            ),
            "zero_lines": array(
                string("A line's name.", enum=LINE_NAMES),
                "The lines of three equal cards, which score nothing.",
            ),
            "score": integer("The minefield's points."),
        },
    )
    return view_document(
        "dont-go-boom",
        "Don't Go Boom",
        "What one seat (or a spectator) knows of a game of Don't Go Boom: every minefield, the "
        "deck's size, the discard pile, the card being held, and the log.",
        {
            "game": string("The game's slug.", enum=("dont-go-boom",)),
            "players": integer("How many seats the game has.", 2, MAX_PLAYERS),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "round": integer("The round being played, from 1.", 1),
            "rounds": integer("How many rounds the game has.", 1, 5),
            "phase": string(
                "`choose` (everyone picks a first card to turn up), `draw`, `decide` (a card is held), "
                "`flip` (turn a card up after a discard), or `over`.",
                enum=("choose", "draw", "decide", "flip", "over"),
            ),
            "to_act": seats(MAX_PLAYERS, "The seats that owe a decision now (several while choosing)."),
            "turn": nullable(a_seat, "The seat whose turn it is; null while choosing and at the end."),
            "my_choice": nullable(POSITION, "While choosing, the place you chose once you have; else null."),
            "turns_taken": integer("Turns completed this round.", 0),
            "turn_limit": integer("The turns a round may last (30 per player) before it ends anyway.", 1),
            "final_lap": obj(
                "The last lap of a round, once someone's cards are all face up.",
                {
                    "active": boolean("Whether the final lap is on."),
                    "triggered_by": nullable(a_seat, "The seat that started it; null before."),
                    "remaining": seats(
                        MAX_PLAYERS, "The seats still owed a last turn, the active one first."
                    ),
                },
            ),
            "minefields": per_seat(
                ref("minefield"), MAX_PLAYERS, "Every seat's minefield, in seat order.", min_players=2
            ),
            "deck": obj(
                "The deck, face down.",
                {
                    "size": integer("Cards left in it.", 0),
                    "known_cards": array(
                        ref("card"),
                        "Cards everyone knows are in it (a bomb shuffled back, a reshuffled pile), by id.",
                    ),
                },
            ),
            "discard": array(ref("card"), "The discard pile, top first."),
            "removed": array(ref("card"), "Bombs replaced this round: out of the game until the next."),
            "held": nullable(
                obj(
                    "The card drawn and not yet placed.",
                    {
                        "seat": a_seat,
                        "from": string("Where it was drawn from.", enum=("deck", "discard")),
                        "card": nullable(
                            ref("card"), "The card; null for others when it was drawn from the deck."
                        ),
                        "must_keep": boolean(
                            "For its holder: it must be kept (a bomb, or a card from the discard pile)."
                        ),
                        "action": nullable(
                            string("The power it offers.", enum=ACTION_KINDS),
                            "For its holder: `swap`, `peek` or `draw_again` when it may be used now; else null.",
                        ),
                    },
                    optional=("must_keep", "action"),
                ),
                "The card being held, or null.",
            ),
            "round_scores": array(
                per_seat(integer("Points."), MAX_PLAYERS, "A round's score of each seat."),
                "Per finished round, each seat's score.",
            ),
            "totals": per_seat(
                integer("Points."), MAX_PLAYERS, "Each seat's total so far; the lowest total wins."
            ),
            "last_round": nullable(
                obj(
                    "How the last finished round ended.",
                    {
                        "round": integer("The round.", 1),
                        "minefields": per_seat(
                            ref("scored_minefield"), MAX_PLAYERS, "Per seat, its scored minefield."
                        ),
                        "scores": per_seat(
                            integer("Points."), MAX_PLAYERS, "The round's score of each seat."
                        ),
                    },
                ),
                "The previous round's end; null during the first round.",
            ),
            "log": log,
        },
        defs,
    )
