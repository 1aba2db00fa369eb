"""Pure pairing and table building for tournaments (no Django): single elimination,
round robin and Swiss, with pairs or tables of N. The rules in words: ``rules_text``
and docs/tournaments.md."""

from games.tournaments.formats.api import bracket, next_round, standings
from games.tournaments.formats.field import bot_places, field_warning, full_field, is_full
from games.tournaments.formats.model import (
    FORMATS,
    MAX_ENTRANTS,
    ROUND_ROBIN,
    SINGLE_ELIMINATION,
    SWISS,
    BracketTable,
    PlayedRound,
    Round,
    Settings,
    Standing,
    State,
    Table,
)
from games.tournaments.formats.rules import rules_text
from games.tournaments.formats.validation import validate

__all__ = [
    "FORMATS",
    "MAX_ENTRANTS",
    "ROUND_ROBIN",
    "SINGLE_ELIMINATION",
    "SWISS",
    "BracketTable",
    "PlayedRound",
    "Round",
    "Settings",
    "Standing",
    "State",
    "Table",
    "bot_places",
    "bracket",
    "field_warning",
    "full_field",
    "is_full",
    "next_round",
    "rules_text",
    "standings",
    "validate",
]
