"""Questions about a state of It's a Bomb! that change nothing: cards, tiles, lines,
what is public about a tile, which Consultants are usable now, and the team score."""

from __future__ import annotations

from games.engine.its_a_bomb.consultants import (
    CONSULTANT_BY_NAME,
)
from games.engine.its_a_bomb.scenarios import (
    ANALYST,
    AUXILIARY,
    BATTERY,
    CALL,
    COLOURIST,
    COLOURS,
    DISTURBED_SIGNAL,
    EXPLOSION,
    EXPLOSIVE,
    GREY,
    LEVEL_BONUS,
    MARKER,
    NEGOTIATOR,
    RECEIVER,
    SAPPER,
    SCENARIO_BY_SLUG,
    Scenario,
)
from games.engine.its_a_bomb.state import (
    COLUMN,
    NOT_EXPLOSIVE,
    READY,
    ROW,
    USED,
    Board,
    Grid,
    Line,
    TileRef,
)

TOKEN_KINDS = frozenset((*COLOURS, EXPLOSIVE, BATTERY, RECEIVER))
GRID_LABELS = "AB"


def timer_card(seconds: int) -> str:
    return f"timer-{seconds}"


def is_timer(card: str) -> bool:
    return card.startswith("timer-")


def timer_seconds(card: str) -> int:
    return int(card[6:])


def card_label(card: str) -> str:
    if is_timer(card):
        seconds = timer_seconds(card)
        return f"{seconds // 60:02d}:{seconds % 60:02d}"
    return {EXPLOSION: "Explosion", CALL: "Call", DISTURBED_SIGNAL: "Disturbed Signal"}[card]


def scenario_of(state: Board) -> Scenario:
    return SCENARIO_BY_SLUG[state.scenario]


def line_positions(grid: Grid, kind: str, index: int) -> range:
    if kind == ROW:
        return range(index * grid.columns, (index + 1) * grid.columns)
    return range(index, grid.rows * grid.columns, grid.columns)


def line_count(grid: Grid, kind: str) -> int:
    return grid.rows if kind == ROW else grid.columns


def has_face_down(grid: Grid, kind: str, index: int) -> bool:
    columns = grid.columns
    if kind == ROW:
        return False in grid.revealed[index * columns : (index + 1) * columns]
    return False in grid.revealed[index::columns]


def face_down_count(state: Board) -> int:
    return sum(grid.revealed.count(False) for grid in state.grids)


def is_cut(state: Board, kind: str) -> bool:
    """Whether a tile of ``kind`` (the Battery, the Receiver) has been revealed."""
    for grid in state.grids:
        for position, tile in enumerate(grid.tiles):
            if tile == kind and grid.revealed[position]:
                return True
    return False


def cables_cut(grid: Grid, colour: str) -> int:
    tiles = grid.tiles
    return sum(1 for position, revealed in enumerate(grid.revealed) if revealed and tiles[position] == colour)


def is_colour_done(state: Board, grid_index: int, colour: str) -> bool:
    return cables_cut(state.grids[grid_index], colour) >= scenario_of(state).cables_needed(colour)


def all_colours_done(state: Board) -> bool:
    scenario = scenario_of(state)
    return all(
        is_colour_done(state, index, colour)
        for index, spec in enumerate(scenario.grids)
        for colour in spec.colours
    )


def tile_text(state: Board, grid_index: int, position: int) -> str:
    columns = state.grids[grid_index].columns
    where = f"row {position // columns + 1}, column {position % columns + 1}"
    return f"grid {GRID_LABELS[grid_index]}, {where}" if len(state.grids) > 1 else where


def line_text(state: Board, line: Line) -> str:
    where = f"{line.kind} {line.index + 1}"
    return f"{where} of grid {GRID_LABELS[line.grid]}" if len(state.grids) > 1 else where


def known_safe_tiles(state: Board) -> set[tuple[int, int]]:
    """(grid, position) of the tiles publicly known not to be Explosives (Marker or Colourist)."""
    return {
        (fact.grid, fact.position)
        for fact in state.facts
        if fact.fact == NOT_EXPLOSIVE or (fact.consultant == COLOURIST and fact.fact != EXPLOSIVE)
    }


def coloured_tiles(state: Board) -> set[tuple[int, int]]:
    """(grid, position) of the tiles the Colourist showed."""
    return {(fact.grid, fact.position) for fact in state.facts if fact.consultant == COLOURIST}


def is_known_safe(state: Board, grid_index: int, position: int) -> bool:
    return (grid_index, position) in known_safe_tiles(state)


def is_coloured(state: Board, grid_index: int, position: int) -> bool:
    return (grid_index, position) in coloured_tiles(state)


def _has_face_down_outside(state: Board, tiles: set[tuple[int, int]]) -> bool:
    """Is some face-down tile not in ``tiles``?"""
    for index, grid in enumerate(state.grids):
        for position, revealed in enumerate(grid.revealed):
            if not revealed and (index, position) not in tiles:
                return True
    return False


def _face_down_tiles(state: Board) -> list[tuple[int, int]]:
    return [
        (index, position)
        for index, grid in enumerate(state.grids)
        for position, revealed in enumerate(grid.revealed)
        if not revealed
    ]


def kind_text(kind: str) -> str:
    if kind in COLOURS:
        return f"a {kind} cable"
    return {
        GREY: "a grey cable",
        AUXILIARY: "an Auxiliary Detonator",
        EXPLOSIVE: "an Explosive",
        BATTERY: "the Battery",
        RECEIVER: "the Receiver",
    }[kind]


def token_for(kind: str, informant: bool) -> str | None:
    """The token a face-down tile gives, if any."""
    if kind in TOKEN_KINDS:
        return kind
    if kind == GREY and informant:
        return GREY
    return None


def card_acts(state: Board, card: str) -> bool:
    """Whether a revealed Call or Disturbed Signal would have an effect."""
    if card == CALL:
        return not is_cut(state, RECEIVER)
    return card == DISTURBED_SIGNAL


def seconds_left(state: Board) -> int:
    # Every card above the Explosion is 10 seconds, Timers and special cards alike.
    return 10 * sum(1 for card in state.countdown if card != EXPLOSION)


def is_ready(state: Board, name: str) -> bool:
    return any(held.name == name and held.status == READY for held in state.consultants)


def is_usable(state: Board, name: str) -> bool:
    """Would using ``name`` now change anything? Public facts only, so a prompt leaks nothing."""
    if name == NEGOTIATOR:
        return any(is_timer(card) for card in state.discard)
    if name == MARKER:
        return _has_face_down_outside(state, known_safe_tiles(state))
    if name == COLOURIST:
        return _has_face_down_outside(state, coloured_tiles(state))
    if name == ANALYST:
        # A disturbed Information shows only a count: the order would be lost.
        return state.disturbances == 0
    if name == SAPPER:
        return face_down_count(state) >= 2  # the named tile and another one
    # The Surveyor always has a line: the asked line has a face-down tile, which also
    # lies on a line of the other direction. Informant, Containment, Chronometrist and
    # Radio Operator always change something at their moment (the Radio Operator's
    # moment only comes for a card that acts).
    return True


def usable_consultants(state: Board) -> list[str]:
    """The Consultants the Crisis Unit may use at the current moment."""
    return [
        held.name
        for held in state.consultants
        if held.status == READY
        and CONSULTANT_BY_NAME[held.name].moment == state.phase
        and is_usable(state, held.name)
    ]


def surveyor_lines(state: Board) -> list[Line]:
    lines = []
    for index, grid in enumerate(state.grids):
        for kind in (ROW, COLUMN):
            for number in range(line_count(grid, kind)):
                line = Line(index, kind, number)
                if line != state.asked and has_face_down(grid, kind, number):
                    lines.append(line)
    return lines


def marker_targets(state: Board) -> list[TileRef]:
    known = known_safe_tiles(state)
    return [
        TileRef(index, position)
        for index, position in _face_down_tiles(state)
        if state.grids[index].tiles[position] != EXPLOSIVE and (index, position) not in known
    ]


def colourist_targets(state: Board) -> list[TileRef]:
    coloured = coloured_tiles(state)
    return [
        TileRef(index, position)
        for index, position in _face_down_tiles(state)
        if (index, position) not in coloured
    ]


def score_parts(state: Board) -> dict[str, int]:
    """The rulebook's team score table, as it stands now (it counts only when won)."""
    timers = sum(1 for card in state.countdown if is_timer(card))
    unused = sum(1 for held in state.consultants if held.status != USED)
    bonus = LEVEL_BONUS[scenario_of(state).level]
    return {
        "timers_left": timers,
        "unused_consultants": unused,
        "scenario_bonus": bonus,
        "seats": state.players,
        "total": 3 * timers + 2 * unused + bonus - state.players,
    }


def team_score(state: Board) -> int:
    return score_parts(state)["total"]
