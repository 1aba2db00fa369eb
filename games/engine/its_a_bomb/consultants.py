"""The ten Consultant cards as data: when each may be used and what it targets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.engine.its_a_bomb.scenarios import (
    ANALYST,
    CHRONOMETRIST,
    COLOURIST,
    CONTAINMENT,
    INFORMANT,
    MARKER,
    NEGOTIATOR,
    RADIO_OPERATOR,
    SAPPER,
    SURVEYOR,
)

# The phases of a round. Every phase but EMPLOYEE_TURN and OVER is a moment at
# which the Crisis Unit may owe a decision about a Consultant.
ROUND_START = "round_start"
EMPLOYEE_TURN = "employee_turn"
INFORMATION = "information"
CUT_NAMED = "cut_named"
EXPLOSIVE_REVEALED = "explosive_revealed"
ADVANCE = "advance"
CARD_REVEALED = "card_revealed"
OVER = "over"

Target = Literal["none", "line", "tile"]


@dataclass(frozen=True, slots=True)
class ConsultantCard:
    name: str
    label: str
    moment: str  # the phase at which it may be used
    target: Target  # what the Crisis Unit names when using it
    text: str


CONSULTANT_CARDS: tuple[ConsultantCard, ...] = (
    ConsultantCard(
        ANALYST,
        "Analyst",
        INFORMATION,
        "none",
        "Information: the tokens are laid out in tile order; a grey cable or an Auxiliary shows as "
        "a blank, a revealed tile as itself.",
    ),
    ConsultantCard(
        SURVEYOR,
        "Surveyor",
        INFORMATION,
        "line",
        "Information: also give Information on one more line of the Crisis Unit's choice.",
    ),
    ConsultantCard(
        INFORMANT,
        "Informant",
        INFORMATION,
        "none",
        "Information: grey cables get grey tokens too (Auxiliaries stay blank).",
    ),
    ConsultantCard(
        SAPPER,
        "Sapper",
        CUT_NAMED,
        "none",
        'Cut, before the tile is revealed: "Stop!" The tile stays face down and the active '
        "employee must name another tile to cut.",
    ),
    ConsultantCard(
        CONTAINMENT,
        "Containment",
        EXPLOSIVE_REVEALED,
        "none",
        "An Explosive is revealed: it does not explode; two Countdown cards leave the deck instead.",
    ),
    ConsultantCard(
        CHRONOMETRIST,
        "Chronometrist",
        ADVANCE,
        "none",
        "Advance the Countdown: skip this round's advance.",
    ),
    ConsultantCard(
        NEGOTIATOR,
        "Negotiator",
        ROUND_START,
        "none",
        "Start of a round: put the most recently discarded Timer back on top of the Countdown.",
    ),
    ConsultantCard(
        RADIO_OPERATOR,
        "Radio Operator",
        CARD_REVEALED,
        "none",
        "A Call or a Disturbed Signal is revealed: cancel its effect.",
    ),
    ConsultantCard(
        MARKER,
        "Marker",
        ROUND_START,
        "tile",
        'Start of a round: mark one face-down tile that is not an Explosive as "not an Explosive".',
    ),
    ConsultantCard(
        COLOURIST,
        "Colourist",
        ROUND_START,
        "tile",
        "Start of a round: point at one face-down tile; the board shows what it is.",
    ),
)

CONSULTANT_BY_NAME: dict[str, ConsultantCard] = {card.name: card for card in CONSULTANT_CARDS}
