"""The JSON Schema of It's a Bomb!'s view and the meaning of its actions (see ../json_schema.py)."""

from __future__ import annotations

from games.engine.its_a_bomb.consultants import (
    ADVANCE,
    CARD_REVEALED,
    CONSULTANT_CARDS,
    CUT_NAMED,
    EMPLOYEE_TURN,
    EXPLOSIVE_REVEALED,
    INFORMATION,
    OVER,
    ROUND_START,
)
from games.engine.its_a_bomb.game import ItsABomb
from games.engine.its_a_bomb.scenarios import (
    ALL_CONSULTANTS,
    COLOURS,
    MAX_COLUMNS,
    MAX_GRIDS,
    MAX_ROWS,
    SCENARIOS,
    SPECIAL_CARDS,
    TILE_KINDS,
)
from games.engine.its_a_bomb.state import (
    BLANK,
    CRISIS_UNIT,
    LINE_KINDS,
    NOT_EXPLOSIVE,
    READY,
    REVEALED,
    STANDING_PASS,
    THEN_ADVANCE,
    THEN_END_ROUND,
    USED,
)
from games.engine.json_schema import (
    ActionNotes,
    Schema,
    array,
    boolean,
    const,
    integer,
    log_event,
    log_events,
    map_of,
    no_seat,
    nullable,
    obj,
    ref,
    seat,
    seats,
    string,
    view_document,
)

MAX_PLAYERS = ItsABomb.max_players  # the game's own bound, not a copy of it
MOMENTS = (ROUND_START, INFORMATION, CUT_NAMED, EXPLOSIVE_REVEALED, ADVANCE, CARD_REVEALED)
PHASES = (ROUND_START, EMPLOYEE_TURN, *MOMENTS[1:], OVER)
CAUSES = ("defused", "explosive", "explosion", "cutting_order")
TOKENS = (*TILE_KINDS, BLANK, REVEALED)
GRID = integer("A grid: 0 (A) or 1 (B).", 0, MAX_GRIDS - 1)
ROW = integer("A row, from 0.", 0, MAX_ROWS - 1)
COLUMN = integer("A column, from 0.", 0, MAX_COLUMNS - 1)
LINE = string("`row` or `column`.", enum=LINE_KINDS)
INDEX = integer("Which row or column, from 0.", 0, max(MAX_ROWS, MAX_COLUMNS) - 1)
LABEL = string('How people name it: "row 3", "row 2, column 5 of grid B".')
CONSULTANT = string("A Consultant's name.", enum=ALL_CONSULTANTS)
TILE_KIND = string(
    "What a tile is: a cable colour, `grey` (a harmless cable), `auxiliary` (an Auxiliary "
    "Detonator), `explosive`, `battery` or `receiver`.",
    enum=TILE_KINDS,
)

ACTION_NOTES: ActionNotes = {
    "ask": (
        "Employee on turn: ask for Information on a row or column.",
        {"grid": "The grid.", "line": "`row` or `column`.", "index": "Which one, from 0."},
    ),
    "cut": (
        "Employee on turn: cut a face-down tile.",
        {"grid": "The grid.", "row": "Its row, from 0.", "column": "Its column, from 0."},
    ),
    "use": (
        "Crisis Unit: use a Consultant that names nothing.",
        {"consultant": "The Consultant (one of `prompt.usable_consultants`)."},
    ),
    "use_on_line": (
        "Crisis Unit: use the Surveyor on a line.",
        {
            "consultant": "`surveyor`.",
            "grid": "The grid.",
            "line": "`row` or `column`.",
            "index": "Which one.",
        },
    ),
    "use_on_tile": (
        "Crisis Unit: use the Marker or the Colourist on a tile.",
        {
            "consultant": "`marker` or `colourist`.",
            "grid": "The grid.",
            "row": "The tile's row.",
            "column": "The tile's column.",
        },
    ),
    "pass": ("Crisis Unit: use no Consultant and let the moment pass.", {}),
    "standing_pass": (
        "Crisis Unit: never be asked about this Consultant again (it still counts as unused).",
        {"consultant": "The Consultant."},
    ),
}


def view_schema() -> Schema:
    a_seat = seat(MAX_PLAYERS, "A seat: 0 is the Crisis Unit, the others employees.")
    crisis_unit = const(CRISIS_UNIT, "The Crisis Unit's seat.")
    defs: dict[str, Schema] = {
        "line": obj("A row or column.", {"grid": GRID, "line": LINE, "index": INDEX, "label": LABEL}),
        "tile": obj("A tile.", {"grid": GRID, "row": ROW, "column": COLUMN, "label": LABEL}),
        "card": obj(
            "A Countdown card.",
            {
                "card": string("The card: `timer-<seconds>`, `explosion`, `call`, `disturbed_signal`."),
                "kind": string(
                    "`timer`, `explosion`, `call` or `disturbed_signal`.",
                    enum=("timer", "explosion", *SPECIAL_CARDS),
                ),
                "label": string('How it reads: "01:30", "Explosion".'),
                "seconds": nullable(integer("Seconds.", 0), "A Timer's seconds; null for the others."),
            },
        ),
        "place": obj("A tile's place.", {"row": ROW, "column": COLUMN}),
    }
    log = log_events(
        defs,
        [
            log_event(
                "setup",
                "The scenario and the Crisis Unit's Consultants.",
                {
                    "scenario": string(
                        "The scenario's slug.", enum=[scenario.slug for scenario in SCENARIOS]
                    ),
                    "consultants": array(CONSULTANT, "The Consultants the Crisis Unit holds."),
                },
                seat_schema=no_seat(),
            ),
            log_event(
                "information",
                "Information given on a line (`seat`: the employee who asked).",
                {
                    "grid": GRID,
                    "line": LINE,
                    "index": INDEX,
                    "tokens": array(string("A token.", enum=TOKENS), "The tokens laid out."),
                    "count": integer("How many tiles of the line were face down.", 0),
                    "disturbed": boolean("Whether a Disturbed Signal made it unreliable."),
                    "surveyor": boolean("Whether it is the Surveyor's extra line."),
                },
                seat_schema=a_seat,
            ),
            log_event(
                "cut",
                "An employee cut a tile, and what it was.",
                {
                    "grid": GRID,
                    "row": ROW,
                    "column": COLUMN,
                    "kind": TILE_KIND,
                    "progress": boolean("For a cable: whether it counted toward its colour."),
                    "fires": const(True, "An Auxiliary Detonator that fired."),
                },
                optional=("progress", "fires"),
                seat_schema=a_seat,
            ),
            log_event(
                "countdown",
                "The Countdown revealed a card.",
                {"card": string("The card: `timer-<seconds>`, `explosion`, `call`, `disturbed_signal`.")},
                seat_schema=no_seat(),
            ),
            log_event("call", "The Call: two more Countdown cards leave the deck.", seat_schema=no_seat()),
            log_event("disturbance", "A Disturbed Signal is armed.", seat_schema=no_seat()),
            log_event(
                "consultant",
                "The Crisis Unit used a Consultant; the facts depend on which.",
                {
                    "consultant": CONSULTANT,
                    "grid": GRID,
                    "row": ROW,
                    "column": COLUMN,
                    "line": LINE,
                    "index": INDEX,
                    "fact": string(
                        "Marker: `not_explosive`; Colourist: the tile's kind.",
                        enum=(NOT_EXPLOSIVE, *TILE_KINDS),
                    ),
                    "card": string("Negotiator: the Timer put back on top."),
                },
                optional=("grid", "row", "column", "line", "index", "fact", "card"),
                seat_schema=crisis_unit,
            ),
            log_event(
                "pass",
                "The Crisis Unit let a moment pass.",
                {"moment": string("The moment.", enum=MOMENTS)},
                seat_schema=crisis_unit,
            ),
            log_event(
                "standing_pass",
                "The Crisis Unit will never use a Consultant.",
                {"consultant": CONSULTANT},
                seat_schema=crisis_unit,
            ),
            log_event(
                "end",
                "The game is over.",
                {"won": boolean("Whether the team won."), "cause": string("Why it ended.", enum=CAUSES)},
                seat_schema=no_seat(),
            ),
        ],
    )
    line_or_null = nullable(ref("line"), "A line, or null.")
    tile_or_null = nullable(ref("tile"), "A tile, or null.")
    return view_document(
        "its-a-bomb",
        "It's a Bomb!",
        "What one seat (or a spectator) knows of a game of It's a Bomb!: the scenario, the grids "
        "(every tile for the Crisis Unit, the revealed ones for the others), the Information given, "
        "the Countdown, the Consultants, and the log.",
        {
            "game": string("The game's slug.", enum=("its-a-bomb",)),
            "seat": nullable(a_seat, "Your seat; null for a spectator."),
            "role": string("Your role.", enum=("crisis_unit", "employee", "spectator")),
            "players": integer("How many seats the game has.", 2, MAX_PLAYERS),
            "crisis_unit_seat": crisis_unit,
            "employees": seats(MAX_PLAYERS, "The employees' seats, in the order they take rounds."),
            "chat_closed_seats": seats(
                MAX_PLAYERS, "Seats the match chat is closed to: the Crisis Unit's while the game runs."
            ),
            "scenario": obj(
                "The scenario played.",
                {
                    "slug": string("Its slug.", enum=[scenario.slug for scenario in SCENARIOS]),
                    "number": integer("Its number in the rules.", 1, len(SCENARIOS)),
                    "name": string("Its name."),
                    "level": string("Its level.", enum=("training", "standard", "advanced", "special")),
                    "grids": array(
                        obj(
                            "A grid as the scenario sets it up.",
                            {
                                "label": string("A or B.", enum=("A", "B")),
                                "rows": integer("Rows.", 1, MAX_ROWS),
                                "columns": integer("Columns.", 1, MAX_COLUMNS),
                                "colours": array(
                                    string("A colour.", enum=COLOURS), "Its cable colours, in cutting order."
                                ),
                                "tiles": map_of(
                                    "How many tiles of each kind it holds.",
                                    integer("A count.", 1),
                                    keys="^(" + "|".join(TILE_KINDS) + ")$",
                                ),
                            },
                        ),
                        "Its grids.",
                        min_items=1,
                        max_items=MAX_GRIDS,
                    ),
                    "colours": array(string("A colour.", enum=COLOURS), "Its cable colours."),
                    "available_time": integer("The seconds available.", 0),
                    "special_cards": array(
                        string("A card.", enum=SPECIAL_CARDS), "Its special Countdown cards."
                    ),
                    "consultants": array(CONSULTANT, "The Consultants it offers."),
                    "consultants_drawn": nullable(
                        integer("How many.", 1),
                        "How many Consultants are drawn at random from them; null: all.",
                    ),
                    "purple_rule": boolean("Whether purple cables follow the scenario's purple rule."),
                    "cutting_order": nullable(
                        array(string("A colour.", enum=COLOURS), "The order."),
                        "The order colours must be started in; null when any order goes.",
                    ),
                    "additional_bomb": boolean("Whether the scenario has an additional bomb."),
                },
            ),
            "round": integer("The round, from 1.", 1),
            "active_seat": integer("The employee whose round it is.", 1, MAX_PLAYERS - 1),
            "phase": string(
                "`round_start`, `employee_turn`, a Crisis Unit moment (`information`, `cut_named`, "
                "`explosive_revealed`, `advance`, `card_revealed`), or `over`.",
                enum=PHASES,
            ),
            "to_act": seats(MAX_PLAYERS, "The seat that owes a decision now (one at most)."),
            "prompt": nullable(
                obj(
                    "Who decides what.",
                    {
                        "seat": a_seat,
                        "decision": string(
                            "`ask_or_cut` or `cut_again` (an employee), `consultant` (the Crisis Unit).",
                            enum=("ask_or_cut", "cut_again", "consultant"),
                        ),
                        "moment": string("For the Crisis Unit: the moment.", enum=MOMENTS),
                        "usable_consultants": array(
                            CONSULTANT, "For the Crisis Unit: the Consultants usable now."
                        ),
                        "text": string("The decision in words, with {sN} seat marks."),
                    },
                    optional=("moment", "usable_consultants"),
                ),
                "The decision owed now; null when the game is over.",
            ),
            "pending": obj(
                "The round's unfinished business.",
                {
                    "asked_line": line_or_null,
                    "extra_line": line_or_null,
                    "analyst": boolean("Whether the Analyst applies to the Information being given."),
                    "informant": boolean("Whether the Informant applies to the Information being given."),
                    "tile": tile_or_null,
                    "stopped_tile": tile_or_null,
                    "cards_due": integer("Countdown cards still to leave now.", 0),
                    "then": nullable(
                        string("Next.", enum=(THEN_ADVANCE, THEN_END_ROUND)),
                        "What comes next: `advance`, `end_round` or null.",
                    ),
                },
            ),
            "colours": array(
                obj(
                    "A cable colour of a grid.",
                    {
                        "grid": GRID,
                        "colour": string("The colour.", enum=COLOURS),
                        "cut": integer("Its cables cut.", 0),
                        "needed": integer("Its cables needed.", 0),
                        "started": boolean("Whether one is cut."),
                        "done": boolean("Whether enough are cut."),
                    },
                ),
                "Per grid and colour, how far the cutting is.",
            ),
            "grids": array(
                obj(
                    "A grid.",
                    {
                        "grid": GRID,
                        "label": string("A or B.", enum=("A", "B")),
                        "rows": integer("Rows.", 1, MAX_ROWS),
                        "columns": integer("Columns.", 1, MAX_COLUMNS),
                        "face_down": integer("Tiles still face down.", 0),
                        "tiles": array(
                            obj(
                                "A tile.",
                                {
                                    "row": ROW,
                                    "column": COLUMN,
                                    "revealed": boolean("Whether it is face up."),
                                    "kind": nullable(TILE_KIND, "What it is; null when hidden from you."),
                                    "marked_not_explosive": boolean(
                                        "Whether the Marker showed it is not an Explosive."
                                    ),
                                    "colourist_kind": nullable(
                                        TILE_KIND, "What the Colourist showed it is; else null."
                                    ),
                                },
                            ),
                            "Its tiles, row by row.",
                        ),
                    },
                ),
                "The grids.",
                min_items=1,
                max_items=MAX_GRIDS,
            ),
            "information": array(
                obj(
                    "Information given on a line.",
                    {
                        "round": integer("The round.", 1),
                        "grid": GRID,
                        "line": LINE,
                        "index": INDEX,
                        "label": LABEL,
                        "face_down": array(ref("place"), "The tiles face down when it was given."),
                        "tokens": array(string("A token.", enum=TOKENS), "The tokens laid out."),
                        "count": integer("How many tiles were face down.", 0),
                        "analyst": boolean("Whether the Analyst laid it out in tile order."),
                        "informant": boolean("Whether the Informant applied."),
                        "surveyor": boolean("Whether it is the Surveyor's extra line."),
                        "disturbed": boolean("Whether a Disturbed Signal made it unreliable."),
                        "slots": nullable(
                            array(
                                obj(
                                    "A tile of the line.",
                                    {
                                        "row": ROW,
                                        "column": COLUMN,
                                        "shows": string("The token on it.", enum=TOKENS),
                                        "tile": nullable(
                                            TILE_KIND, "What it is, when it was revealed; else null."
                                        ),
                                    },
                                ),
                                "Per tile.",
                            ),
                            "With the Analyst: per tile of the line, its token; else null.",
                        ),
                    },
                ),
                "Every Information given, in order.",
            ),
            "tile_facts": array(
                obj(
                    "What a Consultant showed about a tile.",
                    {
                        "consultant": string("Who showed it.", enum=("marker", "colourist")),
                        "round": integer("The round.", 1),
                        "grid": GRID,
                        "row": ROW,
                        "column": COLUMN,
                        "label": LABEL,
                        "fact": string(
                            "`not_explosive` or the tile's kind.", enum=(NOT_EXPLOSIVE, *TILE_KINDS)
                        ),
                    },
                ),
                "The Marker's and Colourist's facts.",
            ),
            "countdown": obj(
                "The Countdown.",
                {
                    "size": integer("Cards left in it.", 0),
                    "seconds_left": integer("The seconds its Timers add up to.", 0),
                    "timers_left": integer("Timers left in it.", 0),
                    "special_cards": array(
                        string("A card.", enum=SPECIAL_CARDS), "Special cards still in it (not where)."
                    ),
                    "has_explosion": boolean("Whether the Explosion is still in it."),
                    "top": nullable(
                        ref("card"),
                        "The top card when everyone knows it (the Negotiator's Timer); else null.",
                    ),
                    "cards": nullable(
                        array(ref("card"), "Cards."),
                        "The cards in order, top first: the Crisis Unit only; else null.",
                    ),
                    "discard": array(ref("card"), "The cards revealed, top first."),
                },
            ),
            "disturbances_armed": integer("Disturbed Signals armed.", 0),
            "battery": obj(
                "The Battery.",
                {"in_play": boolean("Whether the scenario has it."), "cut": boolean("Whether it is cut.")},
            ),
            "receiver": obj(
                "The Receiver.",
                {"in_play": boolean("Whether the scenario has it."), "cut": boolean("Whether it is cut.")},
            ),
            "consultants": array(
                obj(
                    "A Consultant the Crisis Unit holds.",
                    {
                        "name": CONSULTANT,
                        "label": string(
                            "Its name for people.", enum=[card.label for card in CONSULTANT_CARDS]
                        ),
                        "moment": string("The moment it may be used at.", enum=MOMENTS),
                        "target": string(
                            "What it names: `none`, `line` or `tile`.", enum=("none", "line", "tile")
                        ),
                        "text": string("What it does."),
                        "status": string(
                            "`ready`, `used`, or `standing_pass` (never to be used).",
                            enum=(READY, USED, STANDING_PASS),
                        ),
                        "usable_now": boolean("Whether it may be used now."),
                    },
                ),
                "The Crisis Unit's Consultants.",
            ),
            "score": obj(
                "The team's score as it stands (it counts only if the team wins).",
                {
                    "timers_left": integer("Timers left.", 0),
                    "unused_consultants": integer("Consultants not used.", 0),
                    "scenario_bonus": integer("The scenario's bonus.", 0),
                    "seats": integer("Seats (each costs a point).", 0),
                    "total": integer("3 per Timer + 2 per unused Consultant + bonus - seats."),
                },
            ),
            "outcome": nullable(
                obj(
                    "How the game ended.",
                    {
                        "won": boolean("Whether the team won."),
                        "cause": string(
                            "`defused`, `explosive`, `explosion` or `cutting_order`.", enum=CAUSES
                        ),
                        "score": integer("The team's score (0 when lost)."),
                    },
                ),
                "How the game ended; null while it runs.",
            ),
            "log": log,
        },
        defs,
    )
