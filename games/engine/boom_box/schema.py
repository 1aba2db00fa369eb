"""The JSON Schema of Boom Box's view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.boom_box.game import BoomBox
from games.engine.boom_box.state import BOX_SET, CLAIMS, COLOURS, CONTENT_NAMES, LINE_LENGTH, SET_ASIDE_COUNT
from games.engine.json_schema import (
    ActionNotes,
    Schema,
    an_id,
    array,
    boolean,
    integer,
    log_event,
    log_events,
    map_of,
    no_seat,
    nullable,
    obj,
    per_seat,
    result,
    seat,
    seats,
    string,
    view_document,
)

MAX_PLAYERS = BoomBox.max_players  # the game's own bound, not a copy of it
BOXES = len(BOX_SET)
CONTENTS = tuple(CONTENT_NAMES.values())
BOX = an_id("A box's id.")
CONTENT = string("`boom`, `gem` or `two_gems`.", enum=CONTENTS)
CLAIM = string("What the passer said it holds: `gem` or `boom`.", enum=CLAIMS)
PLACES = ("start_line", "in_front", "opened", "removed", "set_aside", "unchosen")

ACTION_NOTES: ActionNotes = {
    "set_aside": (
        "At the start, set one of your boxes aside (twice): the other four make your Start Line.",
        {"box": "The id of one of your boxes."},
    ),
    "pass": (
        "Pass a box to the next player, saying what it holds (true or not).",
        {"box": "The box's id.", "claim": "What you say it holds: `gem` or `boom`."},
    ),
    "open": ("Open a box in front of you.", {"box": "The box's id."}),
    "done": ("End your turn, once what is compulsory is done.", {}),
    "remove": (
        "Your Boom was opened by a player with no gems: choose which of their boxes leaves the game.",
        {"box": "The id of one of the boxes offered (`pending_loss.choices`)."},
    ),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the first player.")
    defs: dict[str, Schema] = {
        "box": obj(
            "A box the viewer may know of.",
            {
                "id": BOX,
                "name": nullable(
                    string("A capital letter.", pattern="^[A-Z]$"),
                    "The letter people know it by; null for your own boxes not yet on the table.",
                ),
                "owner": a_seat,
                "colour": string("Its owner's colour.", enum=COLOURS),
                "place": string(
                    "Where it is: `start_line`, `in_front` (of `holder`), `opened`, `removed`, and for "
                    "your own boxes also `set_aside` and `unchosen`.",
                    enum=PLACES,
                ),
                "holder": a_seat,
                "face_up": boolean("Whether it has been opened."),
                "content": nullable(CONTENT, "What it holds; null when you cannot know."),
                "gems": nullable(
                    integer("Gems.", 0, 2), "Its gems (0 for a Boom); null when you cannot know."
                ),
                "passes": array(
                    obj("A pass.", {"from": a_seat, "to": a_seat, "claim": CLAIM}),
                    "Every time it was passed, oldest first.",
                ),
            },
        ),
    }
    log = log_events(
        defs,
        [
            log_event("deal", "Every player gets six boxes.", seat_schema=no_seat()),
            log_event(
                "start_line",
                "A seat laid out its Start Line.",
                {
                    "start_line": array(BOX, "The four boxes.", min_items=LINE_LENGTH, max_items=LINE_LENGTH),
                    "set_aside": array(
                        BOX,
                        "The two boxes set aside: in the seat's own view only.",
                        min_items=SET_ASIDE_COUNT,
                        max_items=SET_ASIDE_COUNT,
                    ),
                },
                optional=("set_aside",),
                seat_schema=a_seat,
            ),
            log_event("first_player", "Who goes first.", {"starting_seat": a_seat}, seat_schema=a_seat),
            log_event(
                "pass", "A seat passed a box.", {"box": BOX, "to": a_seat, "claim": CLAIM}, seat_schema=a_seat
            ),
            log_event(
                "open",
                "A seat opened a box.",
                {
                    "box": BOX,
                    "owner": a_seat,
                    "content": CONTENT,
                    "gems": integer("The opener's gems now.", 0),
                },
                seat_schema=a_seat,
            ),
            log_event(
                "loss_due",
                "A Boom hit a seat with no gems: its owner (`seat`) chooses a box the opener loses.",
                {"opener": a_seat, "boom": BOX},
                seat_schema=a_seat,
            ),
            log_event(
                "boom_in_face",
                "A Boom hit a seat (`seat`) with no gems and no boxes: nothing more happens.",
                seat_schema=a_seat,
            ),
            log_event(
                "remove",
                "A box leaves the game unopened (`seat`: who chose it).",
                {
                    "box": BOX,
                    "from": a_seat,
                    "content": string("What it held: in its owner's view only.", enum=CONTENTS),
                },
                optional=("content",),
                seat_schema=a_seat,
            ),
            log_event("skip", "A seat with no box is skipped.", seat_schema=a_seat),
            log_event(
                "game_over",
                "No unopened box is left.",
                {
                    "scores": per_seat(integer("Gems.", 0), MAX_PLAYERS, "Every seat's gems."),
                    "ranks": per_seat(integer("Place.", 1, MAX_PLAYERS), MAX_PLAYERS, "Every seat's place."),
                },
                seat_schema=no_seat(),
            ),
        ],
    )
    return view_document(
        "boom-box",
        "Bouldertroll Boom Box",
        "What one seat (or a spectator) knows of a game of Boom Box: every box it may know of, "
        "what is in front of each seat, the turn, and the log.",
        {
            "game": string("The game's slug.", enum=("boom-box",)),
            "players": integer("How many seats the game has.", 2, MAX_PLAYERS),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "phase": string("`setup`, `play` or `over`.", enum=("setup", "play", "over")),
            "to_act": seats(MAX_PLAYERS, "The seats that owe a decision now (several during setup)."),
            "starting_seat": nullable(a_seat, "The seat that went first; null during setup."),
            "turn": nullable(
                obj(
                    "The turn being played.",
                    {
                        "seat": a_seat,
                        "has_passed": boolean("Whether the player has passed a box this turn."),
                        "has_opened": boolean("Whether the player has opened a box this turn."),
                        "must_pass": boolean("Whether a pass is still compulsory."),
                        "must_open": nullable(
                            BOX, "The player's own box that came back and must be opened; else null."
                        ),
                        "must_act": boolean("Whether something is still compulsory."),
                        "can_end": boolean("Whether the player may end the turn now (`done`)."),
                    },
                ),
                "During play, the turn; else null.",
            ),
            "pending_loss": nullable(
                obj(
                    "A box to be chosen for removal.",
                    {
                        "chooser": a_seat,
                        "opener": a_seat,
                        "boom": BOX,
                        "choices": array(BOX, "The boxes the chooser may pick.", min_items=1),
                    },
                ),
                "While a Boom's owner must choose which box the opener loses; else null.",
            ),
            "choose_from": nullable(
                array(BOX, "Boxes.", max_items=BOXES),
                "During setup, your boxes that may still be set aside; else null.",
            ),
            "seats": per_seat(
                obj(
                    "A seat at the table.",
                    {
                        "seat": a_seat,
                        "colour": string("Its colour.", enum=COLOURS),
                        "has_chosen": boolean("Whether it has set its two boxes aside."),
                        "start_line": array(BOX, "Its Start Line, in order.", max_items=LINE_LENGTH),
                        "in_front": array(BOX, "Boxes passed to it and not opened, oldest first."),
                        "opened": array(BOX, "Boxes it opened, bottom first (the last is on top)."),
                        "gems": integer("Its gems.", 0),
                        "boxes_opened": integer("How many boxes it opened.", 0),
                        "boxes_held": integer("Unopened boxes in its Start Line and in front of it.", 0),
                        "set_aside": nullable(
                            array(BOX, "Boxes.", max_items=SET_ASIDE_COUNT),
                            "Its boxes set aside: yours only; null for others.",
                        ),
                        "set_aside_count": integer("How many it has set aside.", 0, SET_ASIDE_COUNT),
                    },
                ),
                MAX_PLAYERS,
                "Every seat, in seat order.",
                min_players=2,
            ),
            "boxes": map_of("Every box the viewer may know of, by id.", {"$ref": "#/$defs/box"}),
            "removed": array(
                obj("A box removed.", {"box": BOX, "from": a_seat, "chooser": a_seat}),
                "Boxes that left the game unopened, in order.",
            ),
            "unopened_left": integer("Boxes still in a Start Line or in front of someone.", 0),
            "result": result(MAX_PLAYERS, "How the game ended (scores: gems); null while it runs."),
            "log": log,
        },
        defs,
    )
