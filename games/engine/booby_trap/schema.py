"""The JSON Schema of Booby-Trap's view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.booby_trap.game import BoobyTrap
from games.engine.booby_trap.state import (
    DISCARDED,
    IN_TRAY,
    KEPT,
    SIZE_NAMES,
    SOLITAIRE_TRIPS_ALLOWED,
    VARIANTS,
)
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
    number,
    obj,
    per_seat,
    ref,
    result,
    seat,
    seats,
    string,
    view_document,
)

MAX_PLAYERS = BoobyTrap.max_players  # the game's own bound, not a copy of it
PIECES = 32
FEELS = ("loose", "snug", "tight")
SIZE = string("A piece's size.", enum=SIZE_NAMES)

ACTION_NOTES: ActionNotes = {
    "touch": (
        "Touch a piece in the tray to feel how tight it sits (in the no-pass variant: take it).",
        {"piece": "The piece's id."},
    ),
    "pass": ("After touching, leave the piece and end your turn.", {}),
    "take": ("After touching, take the piece out of the tray.", {"piece": "The touched piece's id."}),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the first player.")
    defs: dict[str, Schema] = {
        "reading": obj(
            "What a touch felt, on a scale of 0 (loose) to 10 (tight).",
            {
                "gauge": integer("The reading, 0 to 10.", 0, 10),
                "feel": string("The reading in a word.", enum=FEELS),
            },
        ),
    }
    log = log_events(
        defs,
        [
            log_event(
                "release",
                "The spring bar is released and the pieces settle.",
                {"bar_y": number("Where the bar's edge stopped, in inches from the far wall.")},
                seat_schema=no_seat(),
            ),
            log_event(
                "touch",
                "A seat touched a piece (the reading is in the toucher's own view only).",
                {
                    "piece": an_id("The piece."),
                    "size": SIZE,
                    "arrangement": integer("The tray's arrangement then (see `arrangement`).", 0),
                    "gauge": integer("The reading, 0 to 10: the toucher's own view only.", 0, 10),
                    "feel": string("The reading in a word: the toucher's own view only.", enum=FEELS),
                },
                optional=("gauge", "feel"),
                seat_schema=a_seat,
            ),
            log_event("pass", "A seat passed.", seat_schema=a_seat),
            log_event(
                "take",
                "A seat took the touched piece.",
                {
                    "piece": an_id("The piece."),
                    "size": SIZE,
                    "tripped": boolean(
                        "Whether the bar moved (the piece is lost and the seat pays the penalty)."
                    ),
                    "markings": integer("How many markings the bar moved.", 0),
                    "popped": array(
                        an_id("A piece."), "Pieces that jumped out of the tray with it (discarded)."
                    ),
                    "penalty": integer("Points the seat lost.", 0),
                    "bar_y": number("Where the bar's edge is now, in inches from the far wall."),
                },
                seat_schema=a_seat,
            ),
            log_event(
                "end",
                "The game is over.",
                {"scores": per_seat(integer("Points."), MAX_PLAYERS, "Every seat's score.")},
                seat_schema=no_seat(),
            ),
        ],
    )
    return view_document(
        "booby-trap",
        "Booby-Trap",
        "What one seat (or a spectator) knows of a game of Booby-Trap: the tray and where every "
        "piece lies, the readings of your own touches, the scores, and the log.",
        {
            "game": string("The game's slug.", enum=("booby-trap",)),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "players": integer("How many seats the game has.", 1, MAX_PLAYERS),
            "variant": string(
                "The option: `regular`, `size-order` (take small pieces first), `no-pass`, or `solitaire`.",
                enum=VARIANTS,
            ),
            "values": obj(
                "Points for a piece of each size.",
                {name: integer(f"A {name} piece's points.", 0) for name in SIZE_NAMES},
            ),
            "penalty": integer("Points a trip costs (0 in solitaire).", 0),
            "phase": string(
                "`touch` (touch a piece; in no-pass, take one), `decide` (pass or take the touched piece), or `over`.",
                enum=("touch", "decide", "over"),
            ),
            "turn": nullable(a_seat, "The seat to play; null at the end."),
            "to_act": seats(
                MAX_PLAYERS, "The seats that owe a decision: the one on turn, or none at the end."
            ),
            "can_pass": boolean("Whether the player on turn may pass now."),
            "must_take": boolean(
                "Whether the player on turn must take a piece (every other has been passed on)."
            ),
            "passes_in_a_row": integer("Passes in a row so far.", 0),
            "pass_limit": integer("Passes in a row after which a piece must be taken.", 0),
            "tray": obj(
                "The tray, in inches.",
                {
                    "width": number("Its width.", 0),
                    "loading_length": number("Its length.", 0),
                    "marking": number("The step of the side scale that measures the bar's moves.", 0),
                    "bar_y": number("The bar's edge, from the far wall (to 1/20 inch)."),
                },
            ),
            "arrangement": integer(
                "How many times the tray has settled: readings hold for one arrangement only.", 0
            ),
            "pieces": array(
                obj(
                    "A piece.",
                    {
                        "id": an_id("The piece's id."),
                        "size": SIZE,
                        "radius": number(
                            "Its nominal radius in inches (the true one differs a little, unseen).", 0
                        ),
                        "value": integer("Its points.", 0),
                        "where": string(
                            "`tray`, `kept` (by `keeper`) or `discard`.", enum=(IN_TRAY, KEPT, DISCARDED)
                        ),
                        "keeper": nullable(a_seat, "The seat that kept it; else null."),
                        "x": nullable(number("Across."), "Its centre across the tray; null once out of it."),
                        "y": nullable(number("Along."), "Its centre from the far wall; null once out of it."),
                        "touchable": boolean("Whether the player on turn may touch it now."),
                        "reading": nullable(
                            ref("reading"),
                            "Your own reading of it in this arrangement; else null (always for spectators).",
                        ),
                    },
                ),
                "Every piece, in a fixed order.",
                min_items=PIECES,
                max_items=PIECES,
            ),
            "touched": nullable(
                obj(
                    "The piece touched this turn.",
                    {
                        "piece": an_id("Its id."),
                        "seat": a_seat,
                        "reading": nullable(ref("reading"), "What it felt: for the toucher only; else null."),
                    },
                ),
                "The piece touched this turn, while its player decides; else null.",
            ),
            "in_tray": integer("Pieces still in the tray.", 0, PIECES),
            "discarded": integer("Pieces in the discard pile.", 0, PIECES),
            "ends_at": integer("The game ends when this few pieces are left in the tray.", 0, PIECES),
            "scores": per_seat(
                obj(
                    "A seat's score.",
                    {
                        "seat": a_seat,
                        "kept": array(an_id("A piece."), "The pieces it kept."),
                        "kept_value": integer("Their points.", 0),
                        "penalties": integer("Points lost to trips.", 0),
                        "trips": integer("Times it tripped the bar.", 0),
                        "score": integer("Its score."),
                    },
                ),
                MAX_PLAYERS,
                "Every seat's score, in seat order.",
            ),
            "trips_allowed": nullable(
                integer("Trips allowed.", SOLITAIRE_TRIPS_ALLOWED, SOLITAIRE_TRIPS_ALLOWED),
                f"In solitaire, the trips allowed ({SOLITAIRE_TRIPS_ALLOWED}: one more loses); else null.",
            ),
            "result": result(
                MAX_PLAYERS,
                "How the game ended; null while it runs.",
                {"won": {"type": "boolean", "description": "In solitaire: whether the game was won."}},
            ),
            "log": log,
        },
        defs,
    )
