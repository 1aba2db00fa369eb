"""Whether settings make a tournament for a field of a given size."""

from __future__ import annotations

from games.tournaments.formats.model import FORMATS, SINGLE_ELIMINATION, SWISS, Settings


def validate(settings: Settings, entrants: int) -> list[str]:
    """The problems, in words for the organiser; [] when the settings work for a field
    of ``entrants``."""
    problems: list[str] = []
    if settings.format not in FORMATS:
        return [f"Unknown format {settings.format!r}: use one of {', '.join(FORMATS)}."]
    size = settings.table_size
    if size < 2:
        return ["Tables need at least 2 seats."]
    if settings.format == SINGLE_ELIMINATION:
        if not 1 <= settings.advance < size:
            problems.append(f"advance must be at least 1 and less than the table size ({size}).")
        elif size % settings.advance:
            problems.append(
                f"advance must divide the table size: from tables of {size}, "
                f"{_divisors_below(size)} can go on, so that each next table is filled by whole tables."
            )
    elif settings.advance != 1:
        problems.append("Only single elimination sends players on from a table: leave advance at 1.")
    if settings.format == SWISS:
        if settings.rounds is None:
            problems.append("A Swiss tournament needs its number of rounds.")
        elif settings.rounds < 1:
            problems.append("A Swiss tournament needs at least 1 round.")
        elif settings.rounds > entrants - 1 and entrants >= 2:
            problems.append(
                f"A Swiss tournament of {entrants} entrants can have at most {entrants - 1} rounds "
                "(by then everyone could have met everyone)."
            )
    elif settings.rounds is not None:
        problems.append("Only a Swiss tournament has a set number of rounds: leave rounds empty.")
    if entrants < size:
        problems.append(f"Tables of {size} need at least {size} entrants.")
    return problems


def _divisors_below(size: int) -> str:
    divisors = [str(number) for number in range(1, size) if size % number == 0]
    return " or ".join(divisors)


def check_settings(settings: Settings, entrants: int) -> None:
    problems = validate(settings, entrants)
    if problems:
        raise ValueError(" ".join(problems))
