"""Building a full state from one seat's view, for bots that search.

The Crisis Unit sees everything but the generator state, so its sample only draws a
fresh one. For an employee or a spectator, the face-down tiles and the places of
the special cards left in the Countdown are dealt again at random, such that every
public fact still holds: each Information (a multiset of tokens over the tiles that
were face down when it was given, a count when disturbed, a tile-by-tile reading
with the Analyst), each Marker and Colourist fact, and the Negotiator's Timer on top.

Here the facts are turned into constraints; ``dealing`` solves them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.its_a_bomb.board import is_timer, timer_card, token_for
from games.engine.its_a_bomb.dealing import TRIES, CountConstraint, deal
from games.engine.its_a_bomb.scenarios import (
    EXPLOSION,
    EXPLOSIVE,
    SCENARIO_BY_SLUG,
    TILE_KINDS,
    GridSpec,
    Scenario,
)
from games.engine.its_a_bomb.state import (
    BLANK,
    CRISIS_UNIT,
    NOT_EXPLOSIVE,
    REVEALED,
    Grid,
    HeldConsultant,
    Information,
    Line,
    State,
    TileFact,
    TileRef,
)
from games.engine.log import LogEntry, entry

_LOG_KEYS = ("event", "seat", "text")


def sample(view: dict[str, Any], seat: int | None, rng: random.Random) -> State:
    scenario = SCENARIO_BY_SLUG[view["scenario"]["slug"]]
    sees_all = seat == CRISIS_UNIT
    grids = []
    for index, grid_view in enumerate(view["grids"]):
        revealed = tuple(tile["revealed"] for tile in grid_view["tiles"])
        if sees_all:
            tiles = tuple(tile["kind"] for tile in grid_view["tiles"])
        else:
            tiles = deal_grid(scenario.grids[index], index, view, rng)
        grids.append(Grid(grid_view["rows"], grid_view["columns"], tiles, revealed))
    countdown_view = view["countdown"]
    if sees_all:
        countdown = tuple(card["card"] for card in countdown_view["cards"])
    else:
        countdown = _deal_countdown(scenario, countdown_view, rng)
    pending = view["pending"]
    outcome = view["outcome"]
    return State(
        scenario=scenario.slug,
        players=view["players"],
        rng=rng.getrandbits(64),
        grids=tuple(grids),
        countdown=countdown,
        discard=tuple(card["card"] for card in countdown_view["discard"]),
        top_known=countdown_view["top"] is not None,
        consultants=tuple(HeldConsultant(held["name"], held["status"]) for held in view["consultants"]),
        round=view["round"],
        active_seat=view["active_seat"],
        phase=view["phase"],
        asked=_line(pending["asked_line"]),
        extra=_line(pending["extra_line"]),
        analyst=pending["analyst"],
        informant=pending["informant"],
        tile=_tile(view, pending["tile"]),
        stopped=_tile(view, pending["stopped_tile"]),
        cards_due=pending["cards_due"],
        then=pending["then"] or "",
        disturbances=view["disturbances_armed"],
        information=tuple(_record(view, record) for record in view["information"]),
        facts=tuple(
            TileFact(
                fact["consultant"],
                fact["round"],
                fact["grid"],
                _position(view, fact["grid"], fact["row"], fact["column"]),
                fact["fact"],
            )
            for fact in view["tile_facts"]
        ),
        outcome="" if outcome is None else "won" if outcome["won"] else "lost",
        cause="" if outcome is None else outcome["cause"],
        log=tuple(_log_entry(shown) for shown in view["log"]),
    )


def _position(view: dict[str, Any], grid: int, row: int, column: int) -> int:
    return row * view["grids"][grid]["columns"] + column


def _line(shown: dict[str, Any] | None) -> Line | None:
    return None if shown is None else Line(shown["grid"], shown["line"], shown["index"])


def _tile(view: dict[str, Any], shown: dict[str, Any] | None) -> TileRef | None:
    if shown is None:
        return None
    return TileRef(shown["grid"], _position(view, shown["grid"], shown["row"], shown["column"]))


def _record(view: dict[str, Any], shown: dict[str, Any]) -> Information:
    grid = shown["grid"]
    return Information(
        round=shown["round"],
        grid=grid,
        line=shown["line"],
        index=shown["index"],
        face_down=tuple(_position(view, grid, tile["row"], tile["column"]) for tile in shown["face_down"]),
        tokens=tuple(shown["tokens"]),
        count=shown["count"],
        analyst=shown["analyst"],
        informant=shown["informant"],
        surveyor=shown["surveyor"],
        disturbed=shown["disturbed"],
    )


def _log_entry(shown: dict[str, Any]) -> LogEntry:
    # The log holds public facts only, so the view gives back the entry whole.
    facts = {key: value for key, value in shown.items() if key not in _LOG_KEYS}
    return entry(shown["event"], shown["seat"], shown["text"], facts)


# -- the Countdown -------------------------------------------------------------


def _deal_countdown(scenario: Scenario, shown: dict[str, Any], rng: random.Random) -> tuple[str, ...]:
    """The Timers left, highest on top, with the special cards left at random gaps.

    Timers leave from the top in decreasing order and the Negotiator only puts back
    the last one discarded, so the Timers in the deck are always the lowest ones,
    in order. Only the special cards' places are unknown.
    """
    discarded = {card["card"] for card in shown["discard"] if is_timer(card["card"])}
    deck = [
        timer_card(10 * count)
        for count in range(scenario.time, 0, -1)
        if timer_card(10 * count) not in discarded
    ]
    first_gap = 1 if shown["top"] is not None else 0  # the Negotiator's Timer stays on top
    for card in shown["special_cards"]:
        gap = rng.randint(first_gap, len(deck))
        deck.insert(gap, card)
    # The Explosion stays at the bottom until it goes off.
    return (*deck, EXPLOSION) if shown["has_explosion"] else tuple(deck)


# -- the tiles -----------------------------------------------------------------


def deal_grid(
    spec: GridSpec, grid_index: int, view: dict[str, Any], rng: random.Random, tries: int = TRIES
) -> tuple[str, ...]:
    """The tiles of one grid: the revealed ones as seen, the others dealt under every public fact."""
    grid_view = view["grids"][grid_index]
    known: list[str | None] = [tile["kind"] if tile["revealed"] else None for tile in grid_view["tiles"]]
    allowed: dict[int, set[str]] = {}

    def restrict(position: int, kinds: set[str]) -> None:
        allowed[position] = allowed.get(position, set(TILE_KINDS)) & kinds

    for fact in view["tile_facts"]:
        if fact["grid"] != grid_index:
            continue
        position = _position(view, grid_index, fact["row"], fact["column"])
        if known[position] is not None:
            continue
        if fact["fact"] == NOT_EXPLOSIVE:
            restrict(position, set(TILE_KINDS) - {EXPLOSIVE})
        else:
            restrict(position, {fact["fact"]})
    counts: list[CountConstraint] = []
    for shown in view["information"]:
        if shown["grid"] != grid_index:
            continue
        record = _record(view, shown)
        if record.analyst:
            for slot in shown["slots"]:
                position = _position(view, grid_index, slot["row"], slot["column"])
                if slot["shows"] != REVEALED and known[position] is None:
                    restrict(position, _kinds_showing(slot["shows"], record.informant))
            continue
        counts.append(_count_constraint(record, known))
    return deal(spec.tiles, known, allowed, counts, rng, tries)


def _kinds_showing(token: str, informant: bool) -> set[str]:
    return {kind for kind in TILE_KINDS if (token_for(kind, informant) or BLANK) == token}


def _class_of(kind: str, record: Information) -> str:
    token = token_for(kind, record.informant)
    if record.disturbed:
        return "none" if token is None else "token"
    return token or "none"


def _count_constraint(record: Information, known: Sequence[str | None]) -> CountConstraint:
    """What an Information says about the tiles of its line that are still face down."""
    classes = {kind: _class_of(kind, record) for kind in TILE_KINDS}
    if record.disturbed:
        need = {"token": record.count, "none": len(record.face_down) - record.count}
    else:
        need = {"none": len(record.face_down) - len(record.tokens)}
        for token in record.tokens:
            need[token] = need.get(token, 0) + 1
    hidden = []
    for position in record.face_down:
        kind = known[position]
        if kind is None:
            hidden.append(position)
        else:
            need[classes[kind]] -= 1
    return CountConstraint(tuple(hidden), classes, need)
