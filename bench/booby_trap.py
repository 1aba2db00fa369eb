"""Booby-Trap: is the simulated tray a game worth playing, and how fast is it?

Measured over many seeded trays, printed as a Markdown table (the figures in
docs/games/booby-trap.md come from here):

- on a fresh tray, the share of pieces that carry almost no load;
- the trip rate of a random take, and of taking the piece with the lowest true load;
- whether listening to readings pays: a "listener" (touches untried pieces, takes
  only what feels loose, when forced takes the lowest reading it has) against a
  "deaf" player (takes whatever it touches), in solitaire and head to head;
- speed: ms per take (remove + settle), ms for a new tray, random-playout actions/s.

Run: ``nice -n 10 .venv/bin/python -m bench.booby_trap [--trays N] [--games N]``.
Times are CPU time of this process (``time.process_time``), i.e. one core, so that a
busy machine does not inflate them. Physics results are memoized inside the
engine, so each figure uses fresh seeds (and the caches are cleared before timing).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from games.engine.booby_trap import BoobyTrap, physics
from games.engine.booby_trap.state import BoobyTrapState

GAME = BoobyTrap()
# A policy sees the state only to build its seat's view, except the oracle, which
# cheats on purpose to show what perfect touch would give.
Policy = Callable[[BoobyTrapState, int, random.Random], dict[str, Any]]


# -- Fresh trays ----------------------------------------------------------------


def fresh_tray_figures(seeds: range) -> dict[str, float]:
    loose_shares = []
    takes = trips = 0
    lowest_trips = 0
    loose_takes = loose_trips = loaded_takes = loaded_trips = 0
    loaded_loads: list[float] = []
    for seed in seeds:
        state: BoobyTrapState = GAME.new(2, seed)
        discs = tuple(piece.disc() for piece in state.pieces)
        present = tuple(piece.in_tray for piece in state.pieces)
        loads = [piece.load for piece in state.pieces]
        is_loose = [load < physics.PHYSICS.almost_no_load for load in loads]
        loose_shares.append(sum(is_loose) / len(loads))
        loaded_loads.extend(load for load, loose in zip(loads, is_loose, strict=True) if not loose)
        tripped = []
        for index in range(len(discs)):
            outcome = physics.take(discs, present, state.bar_y, index)
            trip = outcome.travel >= physics.MARKING
            tripped.append(trip)
            takes += 1
            trips += trip
            if is_loose[index]:
                loose_takes += 1
                loose_trips += trip
            else:
                loaded_takes += 1
                loaded_trips += trip
        lowest = min(range(len(loads)), key=lambda index: loads[index])
        lowest_trips += tripped[lowest]
    return {
        "loose_share": statistics.fmean(loose_shares),
        "loose_share_min": min(loose_shares),
        "loose_share_max": max(loose_shares),
        "random_take_trips": trips / takes,
        "lowest_load_take_trips": lowest_trips / len(seeds),
        "loose_take_trips": loose_trips / max(1, loose_takes),
        "loaded_take_trips": loaded_trips / max(1, loaded_takes),
        "loaded_load_median": statistics.median(loaded_loads),
        "loaded_load_p90": statistics.quantiles(loaded_loads, n=10)[-1],
    }


# -- Policies (they read views only, like bots) ------------------------------------


def deaf(state: BoobyTrapState, seat: int, rng: random.Random) -> dict[str, Any]:
    view = GAME.view(state, seat)
    if view["phase"] == "decide":
        return {"type": "take", "piece": view["touched"]["piece"]}
    kind = "take" if view["variant"] == "no-pass" else "touch"
    return {"type": kind, "piece": rng.choice([p["id"] for p in view["pieces"] if p["touchable"]])}


def listener(state: BoobyTrapState, seat: int, rng: random.Random) -> dict[str, Any]:
    view = GAME.view(state, seat)
    if view["phase"] == "decide":
        feel = view["touched"]["reading"]["feel"]
        if feel == "loose" or not view["can_pass"]:
            return {"type": "take", "piece": view["touched"]["piece"]}
        return {"type": "pass"}
    touchable = [piece for piece in view["pieces"] if piece["touchable"]]
    read = [piece for piece in touchable if piece["reading"] is not None]
    loose = [piece for piece in read if piece["reading"]["feel"] == "loose"]
    untried = [piece for piece in touchable if piece["reading"] is None]
    if loose:
        choice = min(loose, key=lambda piece: piece["reading"]["gauge"])
    elif view["must_take"] and read:
        choice = min(read, key=lambda piece: piece["reading"]["gauge"])
    elif untried:
        choice = rng.choice(untried)
    else:
        choice = min(read, key=lambda piece: piece["reading"]["gauge"])
    return {"type": "touch", "piece": choice["id"]}


def oracle(state: BoobyTrapState, seat: int, rng: random.Random) -> dict[str, Any]:
    """Knows the true loads: touches and takes the least loaded piece it may touch."""
    if state.touched is not None:
        return {"type": "take", "piece": state.pieces[state.touched].id}
    lightest = min(
        (piece for piece in GAME.view(state, seat)["pieces"] if piece["touchable"]),
        key=lambda shown: next(piece.load for piece in state.pieces if piece.id == shown["id"]),
    )
    return {"type": "take" if state.variant == "no-pass" else "touch", "piece": lightest["id"]}


def play(state: BoobyTrapState, policies: list[Policy], rng: random.Random) -> tuple[BoobyTrapState, dict]:
    stats = {"takes": [0] * state.players, "trips": [0] * state.players}
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        action = policies[seat](state, seat, rng)
        before = state.trips[seat]
        state = GAME.apply(state, seat, action)
        if action["type"] == "take":
            stats["takes"][seat] += 1
            stats["trips"][seat] += state.trips[seat] - before
    return state, stats


def policy_figures(seeds: range) -> dict[str, float]:
    figures: dict[str, float] = {}
    for name, policy in (("deaf", deaf), ("listener", listener), ("oracle", oracle)):
        wins = takes = trips = kept = 0
        for seed in seeds:
            final, stats = play(GAME.new(1, seed), [policy], random.Random(seed))
            result = GAME.result(final)
            assert result is not None
            wins += result["won"]
            kept += result["scores"][0]
            takes += stats["takes"][0]
            trips += stats["trips"][0]
        figures[f"solitaire_{name}_wins"] = wins / len(seeds)
        figures[f"solitaire_{name}_kept"] = kept / len(seeds)
        figures[f"solitaire_{name}_trips_per_take"] = trips / takes
    listener_points = 0.0
    listener_trips = listener_takes = deaf_trips = deaf_takes = 0
    for seed in seeds:
        listener_seat = seed % 2
        policies: list[Policy] = [deaf, deaf]
        policies[listener_seat] = listener
        final, stats = play(GAME.new(2, 10_000 + seed), policies, random.Random(seed))
        result = GAME.result(final)
        assert result is not None
        ranks = result["ranks"]
        listener_points += (
            1.0 if ranks[listener_seat] < ranks[1 - listener_seat] else 0.5 if ranks[0] == ranks[1] else 0.0
        )
        listener_takes += stats["takes"][listener_seat]
        listener_trips += stats["trips"][listener_seat]
        deaf_takes += stats["takes"][1 - listener_seat]
        deaf_trips += stats["trips"][1 - listener_seat]
    figures["duel_listener_score"] = listener_points / len(seeds)
    figures["duel_listener_trips_per_take"] = listener_trips / max(1, listener_takes)
    figures["duel_deaf_trips_per_take"] = deaf_trips / max(1, deaf_takes)
    return figures


# -- Speed -------------------------------------------------------------------------


def speed_figures(seeds: range) -> dict[str, float]:
    physics.clear_caches()
    new_times = []
    take_times = []
    actions = trips = 0
    started = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        begin = time.process_time()
        players = 2 + seed % 4
        state = GAME.new(players, 20_000 + seed)
        new_times.append(time.process_time() - begin)
        while GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            action = rng.choice(GAME.legal_actions(state, seat))
            begin = time.process_time()
            trips_before = sum(state.trips)
            state = GAME.apply(state, seat, action)
            if action["type"] == "take":
                take_times.append(time.process_time() - begin)
                trips += sum(state.trips) - trips_before
            actions += 1
    elapsed = time.process_time() - started
    take_times.sort()
    return {
        "playout_take_trips": trips / len(take_times),
        "take_ms_mean": 1000 * statistics.fmean(take_times),
        "take_ms_median": 1000 * statistics.median(take_times),
        "take_ms_p95": 1000 * take_times[int(0.95 * len(take_times))],
        "take_ms_max": 1000 * take_times[-1],
        "new_ms_mean": 1000 * statistics.fmean(new_times),
        "actions_per_second": actions / elapsed,
        "playouts_per_second": len(seeds) / elapsed,
    }


def sampled_take_figures(seeds: range) -> dict[str, float]:
    """What an expert bot pays per decision: sample the hidden make-up from its view,
    then settle every candidate take once on the sample."""
    physics.clear_caches()
    per_candidate = []
    per_decision = []
    for seed in seeds:
        state = GAME.new(2, 30_000 + seed)
        rng = random.Random(seed)
        # A few random actions in, so that the sample has a history to respect.
        for _ in range(rng.randrange(0, 12)):
            if not GAME.to_act(state):
                break
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if not GAME.to_act(state):
            continue
        seat = GAME.to_act(state)[0]
        begin = time.process_time()
        sampled = GAME.sample(GAME.view(state, seat), seat, rng)
        discs = tuple(piece.disc() for piece in sampled.pieces)
        present = tuple(piece.in_tray for piece in sampled.pieces)
        for index, is_present in enumerate(present):
            if is_present:
                started = time.process_time()
                physics.take(discs, present, sampled.bar_y, index)
                per_candidate.append(time.process_time() - started)
        per_decision.append(time.process_time() - begin)
    return {
        "sampled_take_ms": 1000 * statistics.fmean(per_candidate),
        "sampled_decision_ms": 1000 * statistics.fmean(per_decision),
    }


# -- Report ----------------------------------------------------------------------

ROWS = (
    (
        "loose_share",
        "fresh tray: share of pieces with almost no load (< {almost} push)",
        "{:.0%}",
        "25%..67%",
    ),
    ("loose_share_min", "↳ lowest share over the trays", "{:.0%}", ""),
    ("loose_share_max", "↳ highest share over the trays", "{:.0%}", ""),
    ("random_take_trips", "fresh tray: a random take trips the bar", "{:.0%}", "20%..50%"),
    ("playout_take_trips", "whole random games: a random take trips the bar", "{:.0%}", "20%..50%"),
    ("lowest_load_take_trips", "fresh tray: taking the lowest true load trips the bar", "{:.0%}", "< 10%"),
    ("loose_take_trips", "↳ taking a piece with almost no load trips the bar", "{:.0%}", ""),
    ("loaded_take_trips", "↳ taking a loaded piece trips the bar", "{:.0%}", ""),
    ("loaded_load_median", "↳ load of a loaded piece, median (bar-pushes)", "{:.2f}", ""),
    ("loaded_load_p90", "↳ load of a loaded piece, 90th percentile", "{:.2f}", ""),
    ("solitaire_deaf_trips_per_take", "solitaire, deaf player: trips per take", "{:.0%}", ""),
    ("solitaire_listener_trips_per_take", "solitaire, listener: trips per take", "{:.0%}", "clearly lower"),
    ("solitaire_deaf_wins", "solitaire, deaf player: games won", "{:.0%}", ""),
    ("solitaire_listener_wins", "solitaire, listener: games won", "{:.0%}", "clearly higher"),
    ("solitaire_oracle_trips_per_take", "solitaire, oracle (knows true loads): trips per take", "{:.0%}", ""),
    ("solitaire_oracle_wins", "solitaire, oracle: games won", "{:.0%}", "winnable"),
    ("solitaire_deaf_kept", "solitaire, deaf player: pieces kept", "{:.1f}", ""),
    ("solitaire_listener_kept", "solitaire, listener: pieces kept", "{:.1f}", ""),
    ("duel_listener_score", "two players, listener vs deaf: listener's share of wins", "{:.0%}", "> 50%"),
    ("duel_listener_trips_per_take", "↳ listener's trips per take", "{:.0%}", ""),
    ("duel_deaf_trips_per_take", "↳ deaf player's trips per take", "{:.0%}", ""),
    ("take_ms_mean", "a take (remove + settle), mean ms on one core", "{:.1f}", "well under 50"),
    ("take_ms_median", "↳ median ms", "{:.1f}", ""),
    ("take_ms_p95", "↳ 95th percentile ms", "{:.1f}", ""),
    ("take_ms_max", "↳ slowest ms", "{:.1f}", ""),
    ("sampled_take_ms", "a take on a sampled state (an expert bot's candidate), mean ms", "{:.1f}", ""),
    ("sampled_decision_ms", "↳ sample + settle every candidate take once, mean ms", "{:.0f}", ""),
    ("new_ms_mean", "a new tray (place + release + settle), mean ms", "{:.0f}", ""),
    ("actions_per_second", "random playouts, actions/s (new trays included)", "{:.0f}", ""),
    ("playouts_per_second", "random playouts per second (2-5 players)", "{:.2f}", ""),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trays", type=int, default=60, help="fresh trays for the tray figures")
    parser.add_argument("--games", type=int, default=60, help="games per policy figure")
    parser.add_argument("--playouts", type=int, default=30, help="random playouts for the speed figures")
    parser.add_argument("--samples", type=int, default=10, help="decisions for the sampled-take figures")
    arguments = parser.parse_args()
    figures: dict[str, float] = {}
    figures.update(speed_figures(range(arguments.playouts)))
    figures.update(sampled_take_figures(range(arguments.samples)))
    figures.update(fresh_tray_figures(range(arguments.trays)))
    figures.update(policy_figures(range(arguments.games)))
    print(
        f"Booby-Trap over {arguments.trays} fresh trays, {arguments.games} games per policy, "
        f"{arguments.playouts} random playouts\n"
    )
    print("| figure | measured | target |")
    print("|---|---:|---|")
    almost = f"{physics.PHYSICS.almost_no_load:g}"
    for key, label, form, target in ROWS:
        print(f"| {label.format(almost=almost)} | {form.format(figures[key])} | {target} |")


if __name__ == "__main__":
    main()
