"""Round robin.

Pairs: the circle method, fixed at the start from the seeds (seed 1 stays, the others
turn one place a round): with n entrants, n-1 rounds (n rounds and one bye each when n
is odd), everyone meets everyone exactly once. An entrant who is out leaves the rest of
the schedule: whoever was to meet them has a bye that round.

Tables of 3 and more: every round seats everyone still in at tables as equal as
possible, chosen from the meetings so far: first as many pairs who have not met yet as
can be seated together, then repeats spread evenly (a pair meeting for the third time
costs more than one meeting for the second). Rounds go on until every two entrants
still in have met at least once (at most entrants - 1 rounds). Each round starts from a
greedy seating (those with the most entrants still to meet choose first, each at the
table where it costs least) and is improved by swapping two entrants between tables
while that lowers the cost. Without withdrawals the rounds depend only on the number of
entrants and the table size (``round_count``).
"""

from __future__ import annotations

from functools import lru_cache

from games.tournaments.formats.model import Round, State, Table
from games.tournaments.formats.scoring import History, seat_order, table_sizes

Schedule = tuple[tuple[tuple[int, ...], ...], ...]  # rounds of tables of seed indexes (0 = seed 1)
Meetings = list[list[int]]  # meetings[a][b]: how often entrants a and b (indexes) have shared a table

# Seating two who have not met costs nothing; a repeat costs this plus its square, so
# that one more new pair always beats any spreading of repeats.
REPEAT_COST = 1000


def round_robin_round(state: State, history: History) -> Round | None:
    active = [entrant for entrant in state.seeds if entrant not in state.out]
    if len(active) < 2:
        return None
    seed_index = {entrant: index for index, entrant in enumerate(state.seeds)}
    number = len(state.played)
    if state.settings.table_size == 2:
        schedule = circle_schedule(len(state.seeds))
        if number >= len(schedule):
            return None
        tables: list[Table] = []
        byes: list[int] = []
        for planned in schedule[number]:
            present = [state.seeds[index] for index in planned if state.seeds[index] not in state.out]
            if len(present) == 2:
                tables.append(Table(seat_order(present, history, seed_index)))
            elif present:
                byes.append(present[0])
        return Round(tables=tuple(tables), byes=tuple(byes))
    if number >= len(state.seeds) - 1:
        return None
    meetings = [[history.times_met(one, other) for other in active] for one in active]
    if all(meetings[one][other] for one in range(len(active)) for other in range(one)):
        return None
    planned_tables = plan_round(table_sizes(len(active), state.settings.table_size), meetings)
    return Round(
        tables=tuple(
            Table(seat_order([active[index] for index in planned], history, seed_index))
            for planned in planned_tables
        )
    )


def round_count(entrants: int, table_size: int) -> int:
    """The number of rounds when nobody withdraws."""
    if table_size == 2:
        return len(circle_schedule(entrants))
    return len(table_schedule(entrants, table_size))


def circle_schedule(entrants: int) -> Schedule:
    """Pairs by the circle method; with an odd count, the entrant facing the empty
    place has a bye (a table of one)."""
    places: list[int | None] = list(range(entrants))
    if entrants % 2:
        places.append(None)
    count = len(places)
    rounds: list[tuple[tuple[int, ...], ...]] = []
    for turn in range(count - 1):
        others = places[1:]
        turned = [places[0], *others[-turn:], *others[:-turn]] if turn else places
        tables = []
        for index in range(count // 2):
            pair = (turned[index], turned[count - 1 - index])
            tables.append(tuple(sorted(seat for seat in pair if seat is not None)))
        rounds.append(tuple(tables))
    return tuple(rounds)


@lru_cache(maxsize=256)
def table_schedule(entrants: int, table_size: int) -> Schedule:
    """The rounds of tables a field of ``entrants`` plays when nobody withdraws."""
    sizes = table_sizes(entrants, table_size)
    meetings = [[0] * entrants for _ in range(entrants)]
    rounds: list[tuple[tuple[int, ...], ...]] = []
    while len(rounds) < entrants - 1 and not all(
        meetings[one][other] for one in range(entrants) for other in range(one)
    ):
        tables = plan_round(sizes, meetings)
        for table in tables:
            for index, one in enumerate(table):
                for other in table[index + 1 :]:
                    meetings[one][other] += 1
                    meetings[other][one] += 1
        rounds.append(tuple(tables))
    return tuple(rounds)


def plan_round(sizes: list[int], meetings: Meetings) -> list[tuple[int, ...]]:
    """Tables of the given sizes for entrants 0..n-1, each sorted, in order of their first."""
    tables = _improved(_greedy_round(sizes, meetings), meetings)
    return sorted(tuple(sorted(table)) for table in tables)


def _greedy_round(sizes: list[int], meetings: Meetings) -> list[list[int]]:
    count = len(meetings)
    still_to_meet = [
        sum(1 for other in range(count) if other != one and not meetings[one][other]) for one in range(count)
    ]
    order = sorted(range(count), key=lambda one: (-still_to_meet[one], one))
    tables: list[list[int]] = [[] for _ in sizes]
    for one in order:
        open_tables = [index for index, table in enumerate(tables) if len(table) < sizes[index]]
        tables[min(open_tables, key=lambda index: (_join_cost(one, tables[index], meetings), index))].append(
            one
        )
    return tables


def _join_cost(one: int, table: list[int], meetings: Meetings) -> int:
    """What seating ``one`` at ``table`` costs."""
    return sum(REPEAT_COST + (meetings[one][other] + 1) ** 2 for other in table if meetings[one][other])


def _improved(tables: list[list[int]], meetings: Meetings) -> list[list[int]]:
    """Swap two entrants between tables while a swap lowers the cost (the first found)."""
    while _one_swap(tables, meetings):
        pass
    return tables


def _one_swap(tables: list[list[int]], meetings: Meetings) -> bool:
    for here in range(len(tables)):
        for there in range(here + 1, len(tables)):
            for one in tables[here]:
                for other in tables[there]:
                    rest_here = [seat for seat in tables[here] if seat != one]
                    rest_there = [seat for seat in tables[there] if seat != other]
                    change = (
                        _join_cost(other, rest_here, meetings)
                        + _join_cost(one, rest_there, meetings)
                        - _join_cost(one, rest_here, meetings)
                        - _join_cost(other, rest_there, meetings)
                    )
                    if change < 0:
                        tables[here] = [*rest_here, other]
                        tables[there] = [*rest_there, one]
                        return True
    return False
