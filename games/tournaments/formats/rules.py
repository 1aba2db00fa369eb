"""The written rules of a tournament, for its page: one paragraph each, for its settings.

docs/tournaments.md says the same; the tests read these paragraphs for the numbers."""

from __future__ import annotations

from fractions import Fraction

from games.tournaments.formats.elimination import bracket_rounds, first_round_layout
from games.tournaments.formats.model import ROUND_ROBIN, SINGLE_ELIMINATION, Settings
from games.tournaments.formats.round_robin import round_count
from games.tournaments.formats.scoring import table_sizes
from games.tournaments.formats.swiss import WHOLE_FIELD_SEARCH_UP_TO


def rules_text(settings: Settings, entrants: int | None = None) -> list[str]:
    """The rules for these settings; with ``entrants`` (once the field is known) the
    paragraphs also give the number of rounds, byes and table sizes it makes."""
    if settings.format == SINGLE_ELIMINATION:
        return _elimination(settings, entrants)
    if settings.format == ROUND_ROBIN:
        return _round_robin(settings, entrants)
    return _swiss(settings, entrants)


def elimination_byes(entrants: int, table_size: int, advance: int) -> list[int]:
    """The seed numbers that go on from the first round without playing."""
    if bracket_rounds(entrants, table_size, advance) == 1:
        return []
    byes: list[int] = []
    for table in first_round_layout(entrants, table_size, advance):
        seated = [seed for seed in table if seed <= entrants]
        if len(seated) <= advance:
            byes.extend(seated)
    return sorted(byes)


def _number(value: Fraction) -> str:
    return f"{float(value):g}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _points(settings: Settings) -> str:
    size = settings.table_size
    if size == 2:
        return "Points: a win scores 1, a draw ½ to each, a loss 0."
    full = ", ".join(f"{_ordinal(place)} {size - place}" for place in range(1, size + 1))
    smaller = size - 1
    example = ", ".join(
        _number(Fraction((size - 1) * (smaller - place), smaller - 1)) for place in range(1, smaller + 1)
    )
    return (
        f"Points per place at a table of {size}: {full}. A smaller table spreads the same "
        f"{size - 1} to 0 evenly (at a table of k, place p scores {size - 1} x (k - p) / (k - 1): "
        f"a table of {smaller} gives {example}). Entrants who share a place share the points of "
        "the places they cover, averaged."
    )


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _seats() -> str:
    return (
        "Seats: at each table the first seat goes to whoever has had it least often so far, "
        "the better ranked first when that is equal; the others follow in the same order."
    )


def _withdrawals(format_words: str) -> str:
    return (
        "A player who forfeits (runs out of time) or withdraws is out: their table's result "
        f"ranks them last, and {format_words} Results already played stay; out entrants "
        "are shown as out in the standings."
    )


def _elimination(settings: Settings, entrants: int | None) -> list[str]:
    size, advance = settings.table_size, settings.advance
    feeders = size // advance
    if size == 2:
        opening = (
            "Single elimination in pairs: the winner of each match goes on to the next round; "
            "the winner of the final wins the tournament."
        )
    else:
        opening = (
            f"Single elimination at tables of {size}: the top {advance} of each table go on, "
            f"so every table of a round is filled by {feeders} tables of the round before; the "
            "last round is a final table, whose first place wins the tournament."
        )
    if entrants is not None:
        rounds = bracket_rounds(entrants, size, advance)
        places = size * feeders ** (rounds - 1)
        opening += f" With {entrants} entrants: {_plural(rounds, 'round')}, a bracket of {places} places."
    seeding = (
        "Seeding: the bracket is laid out so that the best seeds meet as late as possible. "
        f"The final holds seeds 1 to {size}; each round back, a table's seeds are dealt to its "
        f"{feeders} feeding tables in snake order and the next seeds fill the remaining places, "
        "the strongest table getting the weakest newcomers."
    )
    if size == 2:
        seeding += " For pairs this is the usual bracket: in 16, 1 meets 16, 8 meets 9, 4 meets 13, …"
    byes = (
        "Byes: the bracket has the smallest number of places that holds every entrant; the places "
        "left empty are the highest seed numbers, so they fall at the top seeds' tables. A "
        f"first-round table left with no more than {advance} "
        f"{'entrant' if advance == 1 else 'entrants'} sends them on without playing (a bye)"
    )
    byes += "." if size == 2 else "; one left with more plays short-handed."
    if entrants is not None:
        seeds = elimination_byes(entrants, size, advance)
        if seeds:
            listed = ", ".join(str(seed) for seed in seeds)
            byes += f" With {entrants} entrants: {_plural(len(seeds), 'bye')}, to {'seed' if len(seeds) == 1 else 'seeds'} {listed}."
        else:
            byes += f" With {entrants} entrants nobody has a bye."
    cut = (
        "Ties: when entrants share a place at the cut, the better seed goes on; the same holds "
        "for first place at the final."
    )
    final = (
        "Standings: by the round reached (the winner first), then by the place at the last table "
        "played, then by the better seed."
    )
    return [
        opening,
        seeding,
        byes,
        cut,
        _withdrawals(
            "they do not go on (a table left with no more entrants than go on sends them on without playing)."
        ),
        _seats(),
        final,
    ]


def _round_robin(settings: Settings, entrants: int | None) -> list[str]:
    size = settings.table_size
    if size == 2:
        opening = (
            "Round robin in pairs: everyone plays everyone once, by the circle method. With an "
            "even number of entrants there are one fewer rounds than entrants; with an odd number, "
            "as many rounds as entrants and everyone sits out one round with a bye."
        )
        if entrants is not None:
            opening += f" With {entrants} entrants: {_plural(round_count(entrants, size), 'round')}."
        byes = "Byes: a bye scores as a win (1 point); it adds nothing to Sonneborn-Berger."
    else:
        opening = (
            f"Round robin at tables: every round seats everyone at tables of at most {size}, as "
            "equal in size as possible, chosen so that first as many pairs who have not met yet "
            "sit together as possible, then repeated meetings are spread evenly. Rounds go on "
            "until every two entrants still in have met at least once (at most one fewer rounds "
            "than entrants)."
        )
        if entrants is not None:
            sizes = table_sizes(entrants, size)
            opening += (
                f" With {entrants} entrants: tables of {_sizes(sizes)}, "
                f"{_plural(round_count(entrants, size), 'round')} if nobody withdraws."
            )
        byes = (
            f"Byes: none while two entrants are still in (tables are made smaller instead); a bye "
            f"would score as first place ({size - 1} points)."
        )
    return [
        opening,
        _points(settings),
        byes,
        _tiebreaks(settings),
        _withdrawals(
            "they leave the rest of the schedule: "
            + (
                "whoever was to meet them has a bye that round."
                if size == 2
                else "the next rounds are seated without them."
            )
        ),
        _seats(),
    ]


def _sizes(sizes: list[int]) -> str:
    distinct = sorted(set(sizes), reverse=True)
    return " and ".join(f"{size} ({sizes.count(size)})" for size in distinct)


def _tiebreaks(settings: Settings) -> str:
    if settings.table_size == 2:
        return (
            "Tie-breaks, in order: Sonneborn-Berger (the sum of the points of the opponents "
            "beaten, plus half the points of those drawn with), then head-to-head (the points "
            "scored in games between the entrants still level), then the better seed."
        )
    return (
        "Tie-breaks, in order: the sum of the points of everyone met at the tables played "
        "(counted once per table shared), then the better seed."
    )


def _swiss(settings: Settings, entrants: int | None) -> list[str]:
    size = settings.table_size
    rounds = settings.rounds or 0
    ranking = "Entrants are ranked for pairing by points, then by seed."
    if size == 2:
        opening = (
            f"Swiss, {_plural(rounds, 'round')}, in pairs. {ranking} Each round pairs entrants with "
            "the same points: the top half of a score group against its bottom half in order "
            "(1 against 4, 2 against 5, 3 against 6 in a group of six); the lowest of a group with "
            "an odd number moves down and meets the top of the next group."
        )
        rematches = (
            "No rematch: two entrants who have met are not paired again while any other pairing "
            "of the round exists. Such a pairing is found by a maximum-weight matching that "
            "keeps, in this order: no rematch, the bye on the lowest-ranked entrant who can have "
            "it, the smallest score differences, and the order above."
        )
        if entrants is not None and entrants > WHOLE_FIELD_SEARCH_UP_TO:
            rematches += (
                f" With more than {WHOLE_FIELD_SEARCH_UP_TO} entrants the search starts with the "
                "entrants ranked nearest the rematch and widens until it is gone."
            )
        byes = (
            "Byes: with an odd number of entrants still in, one sits out with a bye, which scores "
            "as a win (1 point) and adds nothing to Sonneborn-Berger. It goes to the lowest-ranked "
            "entrant who has not had one; nobody has a second bye unless everyone still in has "
            "had one."
        )
    else:
        opening = (
            f"Swiss, {_plural(rounds, 'round')}, at tables of at most {size}. {ranking} Tables are "
            "as equal in size as possible and filled in ranking order: the leaders at table 1, "
            "the next at table 2, and so on."
        )
        if entrants is not None:
            opening += f" With {entrants} entrants: tables of {_sizes(table_sizes(entrants, size))}."
        rematches = (
            "Repeat meetings: while a table seats two entrants who met before, one of them "
            "swaps with an entrant of the nearest table where the swap removes a repeat, the "
            "swap that keeps points closest together first."
        )
        byes = "Byes: none while two entrants are still in (tables are made smaller instead)."
    return [
        opening,
        rematches,
        byes,
        _points(settings),
        _tiebreaks(settings),
        _withdrawals("they are not paired again."),
        _seats(),
    ]
