"""The formats' entry points: check settings, build the next round, standings, bracket."""

from __future__ import annotations

from games.tournaments.formats.elimination import (
    elimination_bracket,
    elimination_round,
    elimination_standings,
)
from games.tournaments.formats.model import (
    ROUND_ROBIN,
    SINGLE_ELIMINATION,
    BracketTable,
    Round,
    Standing,
    State,
)
from games.tournaments.formats.round_robin import round_robin_round
from games.tournaments.formats.scoring import History, build_history, check_state
from games.tournaments.formats.standings import points_standings
from games.tournaments.formats.swiss import swiss_round
from games.tournaments.formats.validation import check_settings


def next_round(state: State) -> Round | None:
    """The next round's tables and byes; None when the tournament is over. A round may
    have byes and no table (everyone left at their table goes on, after withdrawals):
    record it as played, with no places, and ask again. Bad settings or a state that
    does not fit them raise ValueError."""
    history = _history(state)
    if state.settings.format == SINGLE_ELIMINATION:
        return elimination_round(state, history)
    if state.settings.format == ROUND_ROBIN:
        return round_robin_round(state, history)
    return swiss_round(state, history)


def standings(state: State) -> list[Standing]:
    """Everyone seeded, once, best first: final once next_round returns None, current before."""
    history = _history(state)
    if state.settings.format == SINGLE_ELIMINATION:
        return elimination_standings(state, history)
    return points_standings(state, history)


def bracket(state: State) -> list[list[BracketTable]]:
    """Single elimination only: the columns (rounds) of tables, those not reached yet included."""
    if state.settings.format != SINGLE_ELIMINATION:
        raise ValueError("Only single elimination has a bracket.")
    return elimination_bracket(state, _history(state))


def _history(state: State) -> History:
    check_settings(state.settings, len(state.seeds))
    check_state(state)
    return build_history(state)
