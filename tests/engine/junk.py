"""Hypothesis strategies for junk: what a fuzzer, a stale client or a bad bot might send."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from hypothesis import strategies as st

from games.engine.options import Option

HUGE_INTS = [2**31, 2**63 - 1, 2**63, 2**64, 10**30, -(2**63), -(10**30)]
ODD_STRINGS = ["", " ", "0", "1", "-1", "null", "true", "None", "\x00", "ünïcødé ☃", "{s0}", "x" * 10_000]


@cache
def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 60),
        st.integers(),
        st.sampled_from(HUGE_INTS),
        st.floats(),
        st.text(max_size=12),
        st.sampled_from(ODD_STRINGS),
        # Not JSON, but a Python caller (a bot, a test) can pass anything.
        st.binary(max_size=4),
        st.frozensets(st.integers(0, 5), max_size=3),
    )


@cache  # built once: Hypothesis caches work per strategy object
def values() -> st.SearchStrategy[Any]:
    """Any junk value, nested a little."""
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.text(max_size=6), inner, max_size=3),
            st.tuples(inner),
        ),
        max_leaves=6,
    )


def bad_seats(players: int) -> list[Any]:
    """Things that are no seat of a game of ``players``."""
    return [
        -1,
        players,
        players + 1,
        2**64,
        -(2**64),
        True,
        False,
        0.0,
        1.0,
        "0",
        "1",
        None,
        [0],
        {"seat": 0},
    ]


@st.composite
def seats(draw: st.DrawFn, players: int, waiting: Sequence[int]) -> Any:
    """Mostly a seat that owes a decision; also any seat, and things that are no seat."""
    kind = draw(st.sampled_from(["waiting"] * 6 + ["any", "bad", "bad"]))
    if kind == "waiting" and waiting:
        return draw(st.sampled_from(list(waiting)))
    if kind == "any":
        return draw(st.integers(0, players - 1))
    return draw(
        st.one_of(
            st.sampled_from(bad_seats(players)),
            st.integers(max_value=-1),
            st.integers(min_value=players),
        )
    )


@st.composite
def actions(
    draw: st.DrawFn,
    kinds: Sequence[str],
    field_names: Sequence[str],
    tokens: Sequence[str],
    legal: Sequence[dict[str, Any]],
) -> Any:
    """Mutated legal actions most of the time (the junk closest to what the game
    accepts), legal actions themselves (so that acceptance is exercised too), actions
    of known types with junk fields, and junk of every shape."""
    plausible = st.one_of(values(), st.integers(-3, 60), *([st.sampled_from(list(tokens))] if tokens else []))
    names = st.one_of(st.text(max_size=8), *([st.sampled_from(list(field_names))] if field_names else []))
    kind = draw(st.sampled_from(["mutated"] * 4 + ["legal", "shaped", "shaped", "junk", "fields"]))
    if kind in ("mutated", "legal") and not legal:
        kind = "shaped"
    if kind == "mutated":
        return draw(mutated(list(legal), list(kinds), list(field_names), list(tokens)))
    if kind == "legal":
        return dict(draw(st.sampled_from(list(legal))))
    if kind == "shaped":
        action_type = draw(st.one_of(st.sampled_from(list(kinds)), st.text(max_size=12), values()))
        return {"type": action_type, **draw(st.dictionaries(names, plausible, max_size=4))}
    if kind == "fields":
        return draw(st.dictionaries(names, plausible, max_size=3))
    return draw(values())


@st.composite
def mutated(
    draw: st.DrawFn, legal: list[dict[str, Any]], kinds: list[str], field_names: list[str], tokens: list[str]
) -> dict[Any, Any]:
    action = dict(draw(st.sampled_from(legal)))
    for _ in range(draw(st.integers(1, 3))):
        keys = sorted(action, key=str)
        operation = draw(st.sampled_from(["drop", "add", "junk", "nudge", "token", "retype", "swap"]))
        if operation == "drop" and keys:
            del action[draw(st.sampled_from(keys))]
        elif operation == "add":
            name = draw(st.one_of(st.text(max_size=8), st.sampled_from(field_names or ["extra"])))
            action[name] = draw(values())
        elif operation == "junk" and keys:
            action[draw(st.sampled_from(keys))] = draw(values())
        elif operation == "nudge":
            numbers = [key for key in keys if type(action[key]) is int]
            if numbers:
                key = draw(st.sampled_from(numbers))
                action[key] += draw(st.sampled_from([-1, 1, -2, 2, 10, -100, 2**64, -(2**64)]))
        elif operation == "token":
            texts = [key for key in keys if key != "type" and isinstance(action[key], str)]
            if texts:
                key = draw(st.sampled_from(texts))
                value = action[key]
                variants = [value[:-1], value + "0", value.upper(), value[::-1], "x" * 33, " " + value, ""]
                # Half the time another id the game uses (another seat's card), else one it never issued.
                pick_known = bool(tokens) and draw(st.booleans())
                action[key] = draw(st.sampled_from(tokens if pick_known else variants))
        elif operation == "retype":
            action["type"] = draw(st.sampled_from(kinds))
        elif operation == "swap" and len(keys) >= 2:
            first, second = draw(st.permutations(keys))[:2]
            action[first], action[second] = action[second], action[first]
    return action


@st.composite
def broken(draw: st.DrawFn, encoded: Any) -> Any:
    """A real encoding with one part broken: replaced, removed, added, wrapped or cut short."""
    root = {"root": encoded}
    parent: Any = root
    key: Any = "root"
    # Walk down a random path, then break what is there.
    while draw(st.integers(0, 3)) > 0:
        here = parent[key]
        if isinstance(here, dict) and here:
            parent, key = here, draw(st.sampled_from(sorted(here)))
        elif isinstance(here, list) and here:
            parent, key = here, draw(st.integers(0, len(here) - 1))
        else:
            break
    here = parent[key]
    operation = draw(st.sampled_from(["replace", "remove", "add", "wrap", "truncate"]))
    if operation == "replace":
        parent[key] = draw(values())
    elif (operation == "remove" and isinstance(parent, dict) and parent is not root) or (
        operation == "remove" and isinstance(parent, list)
    ):
        del parent[key]
    elif operation == "add" and isinstance(here, dict):
        here[draw(st.text(max_size=6))] = draw(values())
    elif operation == "add" and isinstance(here, list):
        here.append(draw(values()))
    elif operation == "wrap":
        parent[key] = [here]
    elif operation == "truncate" and isinstance(here, list | str):
        parent[key] = here[: len(here) // 2]
    else:
        parent[key] = None
    return root.get("root")


def good_seeds() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(), st.sampled_from([0, -1, 2**64, -(2**64), 10**40]))


def bad_seeds() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from([None, True, False, 1.0, "1", "", b"1", [1], {"seed": 1}]),
        st.floats(),
        st.text(max_size=5),
    )


def bad_player_counts(low: int, high: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from([None, True, False, float(low), str(low), [low], -(2**64), 2**64]),
    )


def good_options(declared: Sequence[Option]) -> st.SearchStrategy[dict[str, Any]]:
    """Some declared options, each with a value its declaration allows."""
    if not declared:
        return st.just({})
    allowed = {option.name: _allowed(option) for option in declared}
    return st.fixed_dictionaries({}, optional=allowed)


def _allowed(option: Option) -> st.SearchStrategy[Any]:
    if option.kind == "bool":
        return st.booleans()
    if option.kind == "choice":
        return st.sampled_from(list(option.choices))
    return st.integers(option.minimum, option.maximum)


def bad_options(declared: Sequence[Option]) -> st.SearchStrategy[Any]:
    """Options that are not a mapping, name no such option, or give a value the
    declaration does not allow."""
    known = {option.name for option in declared}
    not_a_mapping = values().filter(lambda value: value is not None and not isinstance(value, dict))
    unknown = st.dictionaries(
        st.text(max_size=10).filter(lambda name: name not in known), values(), min_size=1, max_size=2
    )
    choices = [not_a_mapping, unknown]
    if declared:
        choices.append(
            st.sampled_from(list(declared)).flatmap(
                lambda option: st.builds(lambda value: {option.name: value}, _refused(option))
            )
        )
    return st.one_of(*choices)


def _refused(option: Option) -> st.SearchStrategy[Any]:
    if option.kind == "bool":
        return values().filter(lambda value: type(value) is not bool)
    if option.kind == "choice":
        return values().filter(lambda value: not (isinstance(value, str) and value in option.choices))
    assert option.minimum is not None
    assert option.maximum is not None
    return st.one_of(
        values().filter(lambda value: type(value) is not int),
        st.integers(max_value=option.minimum - 1),
        st.integers(min_value=option.maximum + 1),
        st.sampled_from([True, False, float(option.default), str(option.default)]),
    )


# Values that are never a field's right value: each replaces each field of a legal action.
JUNK_FIELD_VALUES: list[Any] = [
    None,
    True,
    False,
    -1,
    2**64,
    -(2**64),
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x" * 10_000,
    "\x00",
    [],
    {},
    b"id",
    frozenset({1}),
]


def mutations(action: dict[str, Any], kinds: list[str], tokens: list[str]) -> Iterator[dict[Any, Any]]:
    """A fixed catalogue of near misses of a legal action."""
    fields = [key for key in action if key != "type"]
    for key in action:
        yield {name: value for name, value in action.items() if name != key}
    yield {**action, "extra": 1}
    yield {**action, "Type": action["type"]}
    for kind in kinds:
        if kind != action["type"]:
            yield {**action, "type": kind}
    yield {**action, "type": action["type"].upper()}
    yield {**action, "type": action["type"] + " "}
    for key in fields:
        value = action[key]
        for replacement in [*JUNK_FIELD_VALUES, [value], {"value": value}]:
            yield {**action, key: replacement}
        if type(value) is int:
            for delta in (-1000, -1, 1, 1000):
                yield {**action, key: value + delta}
            yield {**action, key: str(value)}
            yield {**action, key: float(value)}
            yield {**action, key: bool(value)}
        if isinstance(value, str):
            for replacement in [
                *tokens[:12],
                value[:-1],
                value + "0",
                value.upper(),
                value[::-1],
                " " + value,
            ]:
                yield {**action, key: replacement}
