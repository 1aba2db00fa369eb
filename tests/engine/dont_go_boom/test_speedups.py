"""The shortcuts that make bot searches fast change nothing: cached log views, the
sample's cached log, the written-out draws of ``Rng``. Each is checked against the plain
computation it replaces."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.dont_go_boom import DontGoBoomState, sample
from games.engine.log import LogEntry, entry, entry_view, log_view
from games.engine.rng import FastRng, Rng, fast_state
from tests.engine.dont_go_boom.scenario import GAME
from tests.engine.playouts import random_game


def plain_entry_view(item: LogEntry, seat: int | None) -> dict[str, Any]:
    """``entry_view`` as it was before its cache: parsed from JSON every time."""
    shown: dict[str, Any] = {"event": item.event, "seat": item.seat, "text": item.text}
    shown.update(json.loads(item.public))
    if seat is not None:
        for owner, own_text, facts in item.private:
            if owner == seat:
                shown["text"] = own_text
                shown.update(json.loads(facts))
    return shown


def played(players: int, seed: int, rounds: int = 2) -> tuple[DontGoBoomState, ...]:
    """Every state of a random game of ``rounds`` rounds."""
    return random_game(GAME, players, seed, {"rounds": rounds}).states


@pytest.mark.parametrize("seed", range(3))
def test_log_views_equal_the_plain_parse_in_content_and_key_order(seed: int) -> None:
    states = played(3, seed)
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        for seat in (None, 0, 1, 2):
            expected = [plain_entry_view(item, seat) for item in state.log]
            views = [log_view(state.log, seat) for _ in range(3)]
            views += [[entry_view(item, seat) for item in state.log] for _ in range(3)]
            for shown in views:
                assert repr(shown) == repr(expected)
                assert json.dumps(shown) == json.dumps(expected)


def test_log_views_are_fresh_objects_the_caller_may_change() -> None:
    state = played(2, 7)[-1]
    kinds = {item.event for item in state.log}
    assert {"round_end", "kept", "peeked"} & kinds
    log_view(state.log, 0)
    log_view(state.log, 0)  # an entry is cached the second time it is shown
    first = log_view(state.log, 0)
    for shown in first:
        for key, value in list(shown.items()):
            if isinstance(value, dict):
                value["id"] = "changed"
                value.clear()
            elif isinstance(value, list):
                if value and isinstance(value[0], dict):
                    value[0].clear()
                value.append("changed")
            shown[key] = "changed"
    again = log_view(state.log, 0)
    assert again == [plain_entry_view(item, 0) for item in state.log]
    assert all(a is not b for a, b in zip(first, again, strict=True))


def test_entries_with_private_facts_are_shown_per_seat() -> None:
    note = entry(
        "peeked", 1, "{s1} peeked.", {"position": 2}, {1: ("You peeked: a 9.", {"peeked": {"value": 9}})}
    )
    assert entry_view(note, 0) == {"event": "peeked", "seat": 1, "text": "{s1} peeked.", "position": 2}
    assert entry_view(note, 1) == {
        "event": "peeked",
        "seat": 1,
        "text": "You peeked: a 9.",
        "position": 2,
        "peeked": {"value": 9},
    }
    assert entry_view(note, None) == entry_view(note, 0)
    assert log_view((note, note), 1) == [entry_view(note, 1)] * 2


def test_entry_facts_are_canonical_json() -> None:
    facts = {"b": [1, {"z": 1, "a": None}], "a": "é", "c": True}
    made = entry("x", None, "t", facts, {0: ("own", {"y": 2.5, "x": False})})
    assert made.public == json.dumps(facts, sort_keys=True, separators=(",", ":"))
    assert made.private == (
        (0, "own", json.dumps({"x": False, "y": 2.5}, sort_keys=True, separators=(",", ":"))),
    )
    assert entry("x", None, "t").public == "{}"
    assert entry("x", None, "t", {}).public == "{}"


def test_sample_log_cache_follows_the_views_content() -> None:
    states = played(2, 3, rounds=1)
    state = states[len(states) * 2 // 3]
    view = GAME.view(state, 0)
    sample._LOGS.clear()
    first = GAME.sample(view, 0, random.Random(5))
    sample._LOGS.clear()
    assert GAME.sample(view, 0, random.Random(5)) == first
    assert GAME.sample(view, 0, random.Random(5)) == first  # from the cache
    # The view changed in place (same objects): the cache must not answer.
    view["log"][-1]["text"] = "changed in place"
    changed = GAME.sample(view, 0, random.Random(5))
    assert changed.log[-1].text == "changed in place"
    assert changed.log[:-1] == first.log[:-1]
    sample._LOGS.clear()
    assert GAME.sample(view, 0, random.Random(5)) == changed


def test_sample_fills_in_the_card_of_each_of_others_peeks_anew() -> None:
    """Another seat's Peek of this round names the card sampled for it, each sample."""
    for seed in range(40):
        states = played(2, seed, rounds=1)
        for state in states:
            others = [item for item in state.log if item.event == "peeked" and item.seat == 1]
            if others and state.phase != "over":
                view = GAME.view(state, 0)
                named = set()
                for index in range(12):
                    sampled = GAME.sample(view, 0, random.Random(index))
                    own = GAME.view(sampled, 1)
                    peeks = [shown for shown in own["log"] if shown["event"] == "peeked"]
                    assert all("peeked" in shown for shown in peeks)
                    named.add(json.dumps(peeks[-1]["peeked"], sort_keys=True))
                assert len(named) > 1
                return
    pytest.fail("no position with another seat's Peek found")


def _one_draw_at_a_time_tokens(rng: Rng, count: int) -> tuple[str, ...]:
    """The plain definition ``Rng.unique_tokens`` must agree with: ``token()`` per draw."""
    seen: set[str] = set()
    tokens: list[str] = []
    while len(tokens) < count:
        token = rng.token()
        if token not in seen:
            seen.add(token)
            tokens.append(token)
    return tuple(tokens)


def _one_draw_at_a_time_shuffle(rng: Rng, items: range) -> tuple[int, ...]:
    pool = list(items)
    rng.shuffle(pool)  # Fisher-Yates with ``below`` per card
    return tuple(pool)


@pytest.mark.parametrize("seed", [0, 1, 2, 12345, -7, 2**70])
def test_the_written_out_draws_equal_one_draw_at_a_time(seed: int) -> None:
    for count in (0, 1, 9, 108):
        plain, fast = FastRng(fast_state(seed)), FastRng(fast_state(seed))
        assert fast.unique_tokens(count) == _one_draw_at_a_time_tokens(plain, count)
        assert fast.state == plain.state
        assert fast.shuffled(range(count)) == _one_draw_at_a_time_shuffle(plain, range(count))
        assert fast.state == plain.state


def test_unique_tokens_skip_a_repeated_token() -> None:
    # 8-hex-digit tokens repeat about once in 77,000 draws (birthday bound).
    count = 200_000
    plain, fast = FastRng(fast_state(99)), FastRng(fast_state(99))
    assert fast.unique_tokens(count) == _one_draw_at_a_time_tokens(plain, count)
    assert fast.state == plain.state
    golden = 0x9E3779B97F4A7C15
    draws = ((fast.state - fast_state(99)) * pow(golden, -1, 1 << 64)) % (1 << 64)
    assert draws > count  # some token was drawn twice and skipped
