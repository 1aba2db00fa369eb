"""What makes a tournament's settings good or bad, in words an organiser reads in the
admin (and the services check again before they act on them).

``setup_problems`` answers for an unsaved tournament; the admin form puts each
problem on its field. The format's own limits (how many entrants a format needs, a
Swiss field too small for its rounds) come from the pure ``formats.validate``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from games import clocks
from games.bots import levels_for
from games.engine import Game, IllegalAction, get
from games.engine.options import parse_options
from games.tournaments import formats

if TYPE_CHECKING:
    from games.tournaments.models import Tournament


# The group whose staff may set tournaments up and run them (migration 0002 makes it).
ORGANISERS_GROUP = "Organisers"

# Round robin: everyone meets everyone, so the field stays small enough to finish.
ROUND_ROBIN_MAX_ENTRANTS = 32

Problems = dict[str, list[str]]


def format_settings(tournament: Tournament) -> formats.Settings:
    swiss = tournament.format == tournament.Format.SWISS
    return formats.Settings(
        format=tournament.format,
        table_size=tournament.table_size,
        advance=tournament.advance if tournament.format == tournament.Format.SINGLE_ELIMINATION else 1,
        rounds=tournament.swiss_rounds if swiss else None,
    )


def setup_problems(tournament: Tournament) -> Problems:
    """Each field's problems ("" for the whole form); empty when the settings are good.

    Every problem that can be found is reported at once: a setting that is missing (the
    form found it malformed, None here) or wrong only skips the checks that need it."""
    problems: Problems = {}

    def add(field: str, message: str) -> None:
        problems.setdefault(field, []).append(message)

    game = _game_checked(tournament, add)
    size = tournament.table_size
    size_is_good = game is not None and _table_size_checked(game, size, add)
    elimination = tournament.format == tournament.Format.SINGLE_ELIMINATION
    if game is not None and size_is_good:
        _check_options(tournament, game, max(2, game.min_players), add)
    if elimination and size_is_good and tournament.advance is not None:
        if not 1 <= tournament.advance < size:
            add("advance", f"From a table of {size}, 1 to {size - 1} can go on.")
    elif tournament.format and not elimination and tournament.advance not in (None, 1):
        add("advance", "Only single elimination sends players on from a table: leave it at 1.")
    if tournament.format == tournament.Format.SWISS and not tournament.swiss_rounds:
        add("swiss_rounds", "A Swiss tournament needs its number of rounds.")
    if tournament.format and tournament.format != tournament.Format.SWISS and tournament.swiss_rounds:
        add("swiss_rounds", "Only a Swiss tournament has a set number of rounds: leave it empty.")
    opens, closes, starts = (
        tournament.registration_opens_at,
        tournament.registration_closes_at,
        tournament.starts_at,
    )
    if opens and closes and closes <= opens:
        add("registration_closes_at", "Registration must close after it opens.")
    if closes and starts and starts < closes:
        add("starts_at", "The tournament cannot start before registration closes.")
    if tournament.turn_limit is None or not clocks.is_time_control(tournament.turn_limit):
        add(
            "turn_limit",
            "A tournament needs a time control (5 minutes, 1 hour, or whole days up to 14 per turn), "
            "so that no round waits on an absent player.",
        )
    if game is not None and tournament.bot_fill_level and tournament.bot_fill_level not in levels_for(game):
        add("bot_fill_level", f"{game.name} has bots of these levels: {', '.join(levels_for(game))}.")
    field = tournament.max_entrants
    if (
        tournament.format == tournament.Format.ROUND_ROBIN
        and field is not None
        and field > ROUND_ROBIN_MAX_ENTRANTS
    ):
        add(
            "max_entrants",
            f"A round robin has at most {ROUND_ROBIN_MAX_ENTRANTS} entrants (everyone meets everyone).",
        )
    if (
        size_is_good
        and tournament.format in formats.FORMATS
        and field is not None
        and tournament.advance is not None
        and not problems.get("swiss_rounds")
        and not problems.get("advance")
    ):
        for message in formats.validate(format_settings(tournament), field):
            add(_field_of(message), message)
    return problems


def field_warning(tournament: Tournament) -> str:
    """Words for the organiser when the field size leaves a table short or gives byes
    (``formats.field_warning``); "" when every table is full or the settings are bad."""
    if setup_problems(tournament):
        return ""
    return formats.field_warning(
        format_settings(tournament), tournament.max_entrants, limit=formats.MAX_ENTRANTS
    )


def _game_checked(tournament: Tournament, add: Callable[[str, str], None]) -> Game[Any] | None:
    """The game, or None when there is none to check against (its problem said)."""
    if not tournament.game:
        return None  # missing: the form's own error says so
    try:
        game = get(tournament.game)
    except IllegalAction:
        add("game", "There is no such game.")
        return None
    if game.is_cooperative:
        add(
            "game",
            f"{game.name} is cooperative: the players win or lose together, so there is nobody to rank.",
        )
    return game


def _table_size_checked(game: Game[Any], size: object, add: Callable[[str, str], None]) -> bool:
    smallest = max(2, game.min_players)
    if size is None:
        return False  # missing: the form's own error says so
    if type(size) is not int or not smallest <= size <= game.max_players:
        add("table_size", f"{game.name} is played at tables of {smallest} to {game.max_players}.")
        return False
    return True


def _field_of(message: str) -> str:
    """The form field a problem the format found is about."""
    if message.startswith("advance"):
        return "advance"
    if "round" in message:
        return "swiss_rounds"
    return "max_entrants"


def _check_options(
    tournament: Tournament, game: Game[Any], smallest: int, add: Callable[[str, str], None]
) -> None:
    """The options, for every table size the tournament may seat (a format may seat a
    smaller table to keep tables balanced)."""
    try:
        parsed = parse_options(game.options, tournament.options)
    except IllegalAction as error:
        add("options", str(error))
        return
    for players in range(smallest, tournament.table_size + 1):
        try:
            game.new(players, 0, parsed)
        except IllegalAction as error:
            add("options", f"At a table of {players}: {error}")
            return
