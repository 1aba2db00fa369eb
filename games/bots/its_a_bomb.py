"""It's a Bomb! bots: a Crisis Unit that plays its Consultants when they clearly help,
and employees that read the Information through sampled states.

The team is cooperative, so "basic" is simply a sensible team:

- **Employees** see only the public board. They draw ``SAMPLES`` states consistent
  with everything they have seen (``game.sample``) and count, per face-down tile, how
  often it is progress (a colour still needed, allowed by the cutting order), fatal
  (an Explosive or a colour out of order), an Auxiliary that would fire, or merely a
  wasted cut. A cut is valued in Countdown cards: progress gains ``PROGRESS_GAIN``,
  a wasted cut costs one card, a firing Auxiliary two, a fatal cut loses the game.
  Asking costs one card and is worth what it would tell: the samples are grouped by
  the tokens the line would show, and the best cut inside each group is averaged
  (a one-step value of information). The employee asks when that gain beats the
  card it costs, and cuts the best tile otherwise.
- **The Crisis Unit** sees every tile, so it decides on the true board (its sample
  is the true state): it stops fatal cuts (Sapper), contains Explosives, cancels
  the Call, shows or marks progress tiles, surveys the line richest in progress,
  and spends time-saving Consultants only when the bomb is about to go off.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Game
from games.engine.its_a_bomb import rules
from games.engine.its_a_bomb.board import (
    cables_cut,
    card_acts,
    is_cut,
    is_ready,
    line_count,
    line_positions,
    scenario_of,
    token_for,
)
from games.engine.its_a_bomb.consultants import (
    ADVANCE,
    CARD_REVEALED,
    CUT_NAMED,
    EMPLOYEE_TURN,
    EXPLOSIVE_REVEALED,
    INFORMATION,
    OVER,
    ROUND_START,
)
from games.engine.its_a_bomb.scenarios import (
    ANALYST,
    AUXILIARY,
    BATTERY,
    CALL,
    CHRONOMETRIST,
    COLOURIST,
    CONTAINMENT,
    DISTURBED_SIGNAL,
    EXPLOSION,
    EXPLOSIVE,
    GREY,
    INFORMANT,
    MARKER,
    NEGOTIATOR,
    RADIO_OPERATOR,
    SAPPER,
    SURVEYOR,
)
from games.engine.its_a_bomb.state import (
    COLUMN,
    CRISIS_UNIT,
    NOT_EXPLOSIVE,
    ROW,
    Board,
    State,
)

Action = dict[str, Any]

# How many consistent states an employee draws per decision (about 1 ms each).
SAMPLES = 24
# Values of a cut, in Countdown cards (a wasted cut or an ask costs one card).
PROGRESS_GAIN = 2.0
FIRE_COST = 2.0
# A fatal cut loses the game: worth this many cards, more when time is plentiful.
FATAL_COST_BASE = 4.0
FATAL_COST_PER_CARD = 1.0
FATAL_COST_MAX = 14.0
ASK_COST = 1.0

# Tile categories for the cut that would reveal it.
PROGRESS, FATAL, FIRES, WASTED = 0, 1, 2, 3


# -- shared board reading ------------------------------------------------------


def cards_left(state: Board) -> int:
    """Countdown cards above the Explosion: how many more cards may leave safely."""
    return sum(1 for card in state.countdown if card != EXPLOSION)


def categories(state: Board) -> list[dict[str, int]]:
    """Per grid, what cutting a tile of each kind would do now (public facts only)."""
    scenario = scenario_of(state)
    fires = scenario.has_battery is False or not is_cut(state, BATTERY)
    result = []
    for index, spec in enumerate(scenario.grids):
        grid = state.grids[index]
        started = {colour: cables_cut(grid, colour) > 0 for colour in spec.colours}
        kinds: dict[str, int] = {}
        for order, colour in enumerate(spec.colours):
            done = cables_cut(grid, colour) >= scenario.cables_needed(colour)
            out_of_order = (
                scenario.cutting_order
                and not started[colour]
                and not all(started[earlier] for earlier in spec.colours[:order])
            )
            kinds[colour] = FATAL if out_of_order else WASTED if done else PROGRESS
        kinds[EXPLOSIVE] = FATAL
        kinds[AUXILIARY] = FIRES if fires else WASTED
        result.append(kinds)
    return result


def face_down(state: Board) -> list[tuple[int, int]]:
    return [
        (index, position)
        for index, grid in enumerate(state.grids)
        for position, revealed in enumerate(grid.revealed)
        if not revealed
    ]


def _cut(state: Board, grid: int, position: int) -> Action:
    columns = state.grids[grid].columns
    return {"type": "cut", "grid": grid, "row": position // columns, "column": position % columns}


def _ask(grid: int, kind: str, index: int) -> Action:
    return {"type": "ask", "grid": grid, "line": kind, "index": index}


# -- the employees ---------------------------------------------------------------


def _fatal_cost(cards: int) -> float:
    # Early on a blast throws away a whole game's worth of time; near the end the
    # Countdown is about to end it anyway, so a risky cut becomes acceptable.
    return min(FATAL_COST_MAX, FATAL_COST_BASE + FATAL_COST_PER_CARD * cards)


def _cut_values(
    samples: list[State],
    members: list[int],
    tiles: list[tuple[int, int]],
    kinds: list[dict[str, int]],
    fatal: float,
) -> list[float]:
    """The expected value of cutting each tile, over the samples in ``members``."""
    values = []
    share = 1.0 / len(members)
    for grid, position in tiles:
        table = kinds[grid]
        counts = [0, 0, 0, 0]
        for member in members:
            counts[table.get(samples[member].grids[grid].tiles[position], WASTED)] += 1
        values.append(
            share
            * (
                PROGRESS_GAIN * counts[PROGRESS]
                - fatal * counts[FATAL]
                - FIRE_COST * counts[FIRES]
                - counts[WASTED]
            )
        )
    return values


def employee_choice(samples: list[State], rng: random.Random) -> Action:
    """The active employee's ask or cut, from states that all agree with its view."""
    state = samples[0]  # everything public is the same in every sample
    tiles = face_down(state)
    if state.stopped is not None:
        tiles = [tile for tile in tiles if tile != (state.stopped.grid, state.stopped.position)]
    kinds = categories(state)
    cards = cards_left(state)
    fatal = _fatal_cost(cards)
    everyone = list(range(len(samples)))
    values = _cut_values(samples, everyone, tiles, kinds, fatal)
    best_now = max(values)
    # Ask only while a card can leave without setting off the Explosion, and while
    # the Sapper has not forced a cut.
    time_to_ask = cards >= 2 or (cards == 1 and is_ready(state, CHRONOMETRIST))
    if state.stopped is None and time_to_ask:
        line, gain = _best_question(samples, tiles, kinds, fatal, best_now)
        if line is not None and gain > ASK_COST:
            return _ask(*line)
    if cards == 0:
        # The next card to leave is the Explosion: only progress can save the bomb.
        values = [value if value > -fatal else -fatal for value in values]
    top = max(values)
    best = [tile for tile, value in zip(tiles, values, strict=True) if value >= top - 1e-9]
    return _cut(state, *rng.choice(best))


def _line_key(sample: State, grid: int, positions: list[int], disturbed: bool) -> tuple[str, ...] | int:
    tiles = sample.grids[grid].tiles
    tokens = [token for position in positions if (token := token_for(tiles[position], False)) is not None]
    if disturbed:
        return len(tokens)
    return tuple(sorted(tokens))


def _best_question(
    samples: list[State],
    tiles: list[tuple[int, int]],
    kinds: list[dict[str, int]],
    fatal: float,
    best_now: float,
) -> tuple[tuple[int, str, int] | None, float]:
    """The line whose Information would most improve the next cut, and by how much."""
    state = samples[0]
    disturbed = state.disturbances > 0
    best_line: tuple[int, str, int] | None = None
    best_gain = 0.0
    for grid_index, grid in enumerate(state.grids):
        for kind in (ROW, COLUMN):
            for number in range(line_count(grid, kind)):
                positions = [p for p in line_positions(grid, kind, number) if not grid.revealed[p]]
                if not positions:
                    continue
                groups: dict[tuple[str, ...] | int, list[int]] = {}
                for member, sample in enumerate(samples):
                    groups.setdefault(_line_key(sample, grid_index, positions, disturbed), []).append(member)
                if len(groups) == 1:
                    continue  # every sample agrees: nothing to learn here
                expected = sum(
                    len(members) * max(_cut_values(samples, members, tiles, kinds, fatal))
                    for members in groups.values()
                ) / len(samples)
                gain = expected - best_now
                if gain > best_gain:
                    best_line, best_gain = (grid_index, kind, number), gain
    return best_line, best_gain


# -- the Crisis Unit -----------------------------------------------------------------


def _use(name: str) -> Action:
    return {"type": "use", "consultant": name}


def _progress_tiles(state: Board) -> list[tuple[int, int]]:
    """Face-down tiles whose cut would be progress now (the CU knows every tile)."""
    kinds = categories(state)
    return [
        (grid, position)
        for grid, position in face_down(state)
        if kinds[grid].get(state.grids[grid].tiles[position]) == PROGRESS
    ]


def _publicly_shown(state: Board) -> set[tuple[int, int]]:
    return {(fact.grid, fact.position) for fact in state.facts}


def crisis_unit_choice(state: State, rng: random.Random) -> Action:
    """The Crisis Unit's decision at its moment, on the true board."""
    legal = rules.legal_actions(state, CRISIS_UNIT)
    usable = {action["consultant"] for action in legal if action["type"].startswith("use")}
    phase = state.phase
    if phase == ROUND_START:
        return _round_start(state, legal, usable, rng)
    if phase == INFORMATION:
        return _information(state, legal, usable)
    if phase == CUT_NAMED and SAPPER in usable and state.tile is not None:
        tile = state.grids[state.tile.grid].tiles[state.tile.position]
        if categories(state)[state.tile.grid].get(tile) == FATAL:
            return _use(SAPPER)
    if phase == EXPLOSIVE_REVEALED and CONTAINMENT in usable:
        return _use(CONTAINMENT)  # otherwise the bomb explodes now
    if phase == ADVANCE and CHRONOMETRIST in usable and _advance_hurts(state):
        return _use(CHRONOMETRIST)
    if phase == CARD_REVEALED and RADIO_OPERATOR in usable and _worth_cancelling(state):
        return _use(RADIO_OPERATOR)
    return {"type": "pass"}


def _advance_hurts(state: State) -> bool:
    """Keep the Chronometrist for the advance that would otherwise end the game soon."""
    top = state.countdown[0]
    if top == EXPLOSION:
        return True
    acting_call = top == CALL and card_acts(state, CALL) and not is_ready(state, RADIO_OPERATOR)
    return acting_call or cards_left(state) <= 1


def _worth_cancelling(state: State) -> bool:
    card = state.discard[0]
    if card == CALL:
        return True  # a Call throws away two more cards
    assert card == DISTURBED_SIGNAL
    # Keep the Radio Operator for a Call that is still to come and would act.
    return not (CALL in state.countdown and card_acts(state, CALL))


def _round_start(state: State, legal: list[Action], usable: set[str], rng: random.Random) -> Action:
    if NEGOTIATOR in usable and cards_left(state) <= 1:
        return _use(NEGOTIATOR)
    progress = [tile for tile in _progress_tiles(state) if tile not in _publicly_shown(state)]
    for name in (COLOURIST, MARKER):
        # Show (or vouch for) a tile that is progress: the employees' samples then
        # find it at once. The Marker waits for some Information, which makes the
        # marked tile stand out among the safe ones.
        if name not in usable or not progress or (name == MARKER and not state.information):
            continue
        targets = [
            action
            for action in legal
            if action["type"] == "use_on_tile"
            and action["consultant"] == name
            and (action["grid"], action["row"] * state.grids[action["grid"]].columns + action["column"])
            in progress
        ]
        if targets:
            return rng.choice(targets)
    return {"type": "pass"}


def _line_worth(state: State, grid: int, kind: str, index: int) -> tuple[int, int]:
    """How many progress tiles a line holds, and (negated) how many face-down tiles."""
    progress = set(_progress_tiles(state))
    board = state.grids[grid]
    positions = [p for p in line_positions(board, kind, index) if not board.revealed[p]]
    return sum((grid, p) in progress for p in positions), -len(positions)


def _information(state: State, legal: list[Action], usable: set[str]) -> Action:
    if state.disturbances > 0:
        return {"type": "pass"}  # the Information shows a count only: save the cards
    asked = state.asked
    assert asked is not None
    asked_progress, _ = _line_worth(state, asked.grid, asked.kind, asked.index)
    if ANALYST in usable and asked_progress > 0:
        return _use(ANALYST)
    if SURVEYOR in usable:
        lines = [action for action in legal if action["type"] == "use_on_line"]
        best = max(
            lines, key=lambda action: _line_worth(state, action["grid"], action["line"], action["index"])
        )
        if _line_worth(state, best["grid"], best["line"], best["index"])[0] > 0:
            return best
    if INFORMANT in usable and asked_progress > 0:
        board = state.grids[asked.grid]
        if any(
            board.tiles[p] == GREY and not board.revealed[p]
            for p in line_positions(board, asked.kind, asked.index)
        ):
            return _use(INFORMANT)
    return {"type": "pass"}


# -- the entry points -----------------------------------------------------------------


def basic(game: Game[Any], view: dict[str, Any], seat: int, rng: random.Random) -> Action:
    if seat == CRISIS_UNIT:
        # The Crisis Unit's view shows every tile: its sample is the true board.
        return crisis_unit_choice(game.sample(view, seat, rng), rng)
    samples = [game.sample(view, seat, rng) for _ in range(SAMPLES)]
    if samples[0].phase != EMPLOYEE_TURN:
        raise ValueError(f"Seat {seat} has no decision to make now.")
    return employee_choice(samples, rng)


def _public_score(state: State, grid: int, position: int, kinds: list[dict[str, int]]) -> float:
    """A cheap reading of the Information and facts on one tile, for playouts."""
    score = 0.0
    for record in state.information:
        if record.grid != grid or record.disturbed or position not in record.face_down:
            continue
        good = sum(1 for token in record.tokens if kinds[grid].get(token) == PROGRESS)
        bad = sum(1 for token in record.tokens if token == EXPLOSIVE)
        score += (good - 3 * bad) / len(record.face_down)
    for fact in state.facts:
        if fact.grid == grid and fact.position == position:
            if fact.fact == NOT_EXPLOSIVE:
                score += 0.5
            else:
                category = kinds[grid].get(fact.fact, WASTED)
                score += 10.0 if category == PROGRESS else -10.0 if category == FATAL else -1.0
    return score


def rollout(game: Game[Any], state: State, seat: int, rng: random.Random) -> Action:
    """A fast playout policy: the CU as in ``basic``; employees read the records crudely
    (no sampling) and ask about a line nobody asked while time allows."""
    if seat == CRISIS_UNIT:
        return crisis_unit_choice(state, rng)
    kinds = categories(state)
    tiles = face_down(state)
    if state.stopped is not None:
        tiles = [tile for tile in tiles if tile != (state.stopped.grid, state.stopped.position)]
    scores = [_public_score(state, grid, position, kinds) for grid, position in tiles]
    top = max(scores)
    if top <= 0.3 and state.stopped is None and cards_left(state) >= 2:
        asked = {(record.grid, record.line, record.index) for record in state.information}
        fresh = [
            (grid_index, kind, number)
            for grid_index, grid in enumerate(state.grids)
            for kind in (ROW, COLUMN)
            for number in range(line_count(grid, kind))
            if (grid_index, kind, number) not in asked
            and not all(grid.revealed[p] for p in line_positions(grid, kind, number))
        ]
        if fresh:
            return _ask(*rng.choice(fresh))
    best = [tile for tile, score in zip(tiles, scores, strict=True) if score >= top - 1e-9]
    return _cut(state, *rng.choice(best))


def evaluate(game: Game[Any], state: State, seat: int) -> float:
    """The share of the needed progress already made, discounted when time is short."""
    if state.phase == OVER:
        return 1.0 if state.outcome == "won" else 0.0
    scenario = scenario_of(state)
    needed = made = 0
    for index, spec in enumerate(scenario.grids):
        for colour in spec.colours:
            need = scenario.cables_needed(colour)
            needed += need
            made += min(need, cables_cut(state.grids[index], colour))
    remaining = needed - made
    # Roughly two cards per cable still to find; less time than that is trouble.
    time_factor = min(1.0, (cards_left(state) + 1) / (2 * remaining + 1))
    return max(0.0, min(1.0, 0.2 + 0.6 * made / needed * time_factor + 0.2 * time_factor))
