"""Tests of the shared engine core every game builds on (games/engine/*.py)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from games.engine import IllegalAction, get
from games.engine.actions import (
    ActionSchemas,
    ChoiceField,
    IntField,
    TokenField,
    describe_schemas,
    parse_action,
)
from games.engine.cards import deal, draw, insert_at_random, replace_at, reshuffle_under_top
from games.engine.codec import DecodeError, decode, encode
from games.engine.log import LogEntry, entry, entry_reveal, entry_view, log_reveal, log_view, render_text
from games.engine.options import bool_option, choice_option, int_option, parse_options
from games.engine.ranking import competition_ranks
from games.engine.rng import FastRng, fast_state
from games.engine.seats import check_seat, next_seat, seats_from
from tests.engine.toy_game import ToyHighCard


def code_of(call: Any, *arguments: Any) -> str:
    with pytest.raises(IllegalAction) as caught:
        call(*arguments)
    assert str(caught.value).strip()
    return caught.value.code


# -- rng -------------------------------------------------------------------------------


def test_rng_is_splitmix64_so_stored_states_replay_forever() -> None:
    # The reference splitmix64 outputs for state 0; a change here breaks every stored game.
    rng = FastRng(0)
    assert rng.next64() == 0xE220A8397B1DCDAF
    assert rng.next64() == 0x6E789E6AA1B965F4
    assert rng.state == (2 * 0x9E3779B97F4A7C15) % 2**64


def test_rng_same_state_gives_the_same_draws() -> None:
    first, second = FastRng(fast_state(42)), FastRng(fast_state(42))
    assert [first.below(1000) for _ in range(50)] == [second.below(1000) for _ in range(50)]
    assert first.state == second.state


def test_seed_state_separates_negative_huge_and_nearby_seeds() -> None:
    seeds = [0, 1, -1, 2, 2**64, 2**64 + 1, -(2**64), 10**40, -(10**40)]
    states = [fast_state(seed) for seed in seeds]
    assert len(set(states)) == len(seeds)
    assert all(0 <= state < 2**64 for state in states)
    assert fast_state(2**64) == fast_state(2**64)


def test_rng_state_is_kept_to_64_bits() -> None:
    assert FastRng(2**70 + 5).state == 5
    rng = FastRng(2**64 - 1)
    rng.next64()
    assert 0 <= rng.state < 2**64


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 52, 108, 2**32 + 1, 2**63])
def test_below_stays_within_its_bound(bound: int) -> None:
    rng = FastRng(fast_state(bound))
    draws = [rng.below(bound) for _ in range(500)]
    assert all(0 <= value < bound for value in draws)
    if bound == 1:
        assert set(draws) == {0}


@pytest.mark.parametrize("bound", [0, -1])
def test_below_refuses_an_empty_range(bound: int) -> None:
    with pytest.raises(ValueError):
        FastRng(1).below(bound)


def test_below_is_roughly_uniform() -> None:
    rng = FastRng(fast_state(2024))
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    # 10,000 expected per face; the standard deviation is about 91, so 500 is over 5 sigma.
    assert all(abs(count - 10_000) < 500 for count in counts.values()), counts


def test_between_includes_both_ends() -> None:
    rng = FastRng(fast_state(3))
    draws = {rng.between(-2, 2) for _ in range(500)}
    assert draws == {-2, -1, 0, 1, 2}


def test_random_floats_are_in_the_unit_interval_and_spread() -> None:
    rng = FastRng(fast_state(9))
    draws = [rng.random() for _ in range(10_000)]
    assert all(0.0 <= value < 1.0 for value in draws)
    assert 0.48 < sum(draws) / len(draws) < 0.52


def test_choice_picks_every_item_sometimes() -> None:
    rng = FastRng(fast_state(5))
    assert {rng.choice("abc") for _ in range(200)} == {"a", "b", "c"}


def test_shuffle_is_a_permutation_and_every_order_comes_up_evenly() -> None:
    rng = FastRng(fast_state(11))
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6_000):
        items = [1, 2, 3]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert set(counts) == set(itertools.permutations([1, 2, 3]))
    assert all(abs(count - 1_000) < 150 for count in counts.values()), counts
    big = list(range(108))
    rng.shuffle(big)
    assert sorted(big) == list(range(108))
    assert big != list(range(108))


def test_shuffled_returns_a_tuple_and_leaves_its_input_alone() -> None:
    items = [1, 2, 3, 4, 5]
    result = FastRng(fast_state(1)).shuffled(items)
    assert isinstance(result, tuple)
    assert sorted(result) == items
    assert items == [1, 2, 3, 4, 5]


def test_unique_tokens_are_distinct_opaque_and_repeatable() -> None:
    tokens = FastRng(fast_state(8)).unique_tokens(500)
    assert len(set(tokens)) == 500
    assert all(len(token) == 8 and int(token, 16) >= 0 for token in tokens)
    assert tokens == FastRng(fast_state(8)).unique_tokens(500)
    assert FastRng(fast_state(8)).unique_tokens(0) == ()
    assert tokens != FastRng(fast_state(9)).unique_tokens(500)


# -- options ---------------------------------------------------------------------------

OPTIONS = (
    int_option("rounds", "Rounds", default=3, minimum=1, maximum=5),
    choice_option("length", "Length", default="long", choices=("long", "short")),
    bool_option("fast", "Fast", default=False),
)


def test_options_default_when_not_given() -> None:
    expected = {"rounds": 3, "length": "long", "fast": False}
    assert parse_options(OPTIONS, None) == expected
    assert parse_options(OPTIONS, {}) == expected


def test_options_keep_given_values() -> None:
    given = {"rounds": 5, "length": "short", "fast": True}
    assert parse_options(OPTIONS, given) == given
    assert parse_options(OPTIONS, {"rounds": 1}) == {"rounds": 1, "length": "long", "fast": False}


@pytest.mark.parametrize(
    "given",
    [
        {"rounds": 0},
        {"rounds": 6},
        {"rounds": "3"},
        {"rounds": 3.0},
        {"rounds": True},
        {"length": "medium"},
        {"length": 1},
        {"length": None},
        {"fast": 1},
        {"fast": "true"},
        {"fast": None},
    ],
)
def test_options_refuse_values_their_declaration_does_not_allow(given: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_options(OPTIONS, given)
    assert caught.value.code == "bad_option"
    assert repr(next(iter(given))) in str(caught.value)


@pytest.mark.parametrize("given", [[], "rounds=3", 3, [("rounds", 3)]])
def test_options_must_be_a_mapping(given: Any) -> None:
    assert code_of(parse_options, OPTIONS, given) == "bad_option"


def test_options_refuse_unknown_names_and_list_them() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_options(OPTIONS, {"turbo": True, "rounds": 2, "colour": "red"})
    assert caught.value.code == "unknown_option"
    assert "colour, turbo" in str(caught.value)


def test_option_as_data_describes_a_form_field() -> None:
    assert OPTIONS[0].as_data() == {
        "name": "rounds",
        "label": "Rounds",
        "kind": "int",
        "default": 3,
        "help": "",
        "minimum": 1,
        "maximum": 5,
    }
    assert OPTIONS[1].as_data()["choices"] == ["long", "short"]
    assert "choices" not in OPTIONS[2].as_data()
    assert json.loads(json.dumps([option.as_data() for option in OPTIONS])) == [o.as_data() for o in OPTIONS]


# -- actions ---------------------------------------------------------------------------

SCHEMAS: ActionSchemas = {
    "take": {"index": IntField(0, 8), "pile": ChoiceField(("deck", "discard")), "card": TokenField()},
    "pass": {},
}


def test_parse_action_returns_the_type_and_checked_fields() -> None:
    action = {"type": "take", "index": 8, "pile": "deck", "card": "ab12cd34"}
    assert parse_action(action, SCHEMAS) == ("take", {"index": 8, "pile": "deck", "card": "ab12cd34"})
    assert parse_action({"type": "pass"}, SCHEMAS) == ("pass", {})
    assert (
        parse_action({"type": "take", "index": 0, "pile": "discard", "card": "x"}, SCHEMAS)[1]["index"] == 0
    )


@pytest.mark.parametrize(
    "action", [None, [], "pass", 3, ("type", "pass"), {"kind": "pass"}, {"type": 1}, {"type": None}]
)
def test_parse_action_refuses_what_is_not_an_action(action: Any) -> None:
    assert code_of(parse_action, action, SCHEMAS) == "malformed_action"


def test_parse_action_refuses_unknown_types_with_a_short_message() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_action({"type": "x" * 10_000}, SCHEMAS)
    assert caught.value.code == "unknown_action"
    assert len(str(caught.value)) < 120


@pytest.mark.parametrize("extra", [{"junk": 1}, {1: "x"}, {"Index": 1}])
def test_parse_action_refuses_fields_the_type_does_not_take(extra: dict[Any, Any]) -> None:
    assert code_of(parse_action, {"type": "pass", **extra}, SCHEMAS) == "unexpected_field"


def test_parse_action_refuses_a_missing_field() -> None:
    assert code_of(parse_action, {"type": "take", "index": 1, "pile": "deck"}, SCHEMAS) == "missing_field"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("index", True),  # bool is an int subclass, but not a position
        ("index", False),
        ("index", 1.0),
        ("index", "1"),
        ("index", None),
        ("pile", "Deck"),
        ("pile", 0),
        ("pile", ["deck"]),
        ("card", ""),
        ("card", "x" * 33),
        ("card", 12345678),
        ("card", None),
    ],
)
def test_parse_action_refuses_fields_of_the_wrong_kind(field: str, value: Any) -> None:
    action = {"type": "take", "index": 1, "pile": "deck", "card": "ab12cd34", field: value}
    assert code_of(parse_action, action, SCHEMAS) == "bad_field"


@pytest.mark.parametrize("index", [-1, 9, 2**64, -(2**64)])
def test_parse_action_refuses_out_of_range_numbers(index: int) -> None:
    action = {"type": "take", "index": index, "pile": "deck", "card": "ab12cd34"}
    assert code_of(parse_action, action, SCHEMAS) == "out_of_range"


def test_describe_schemas_summarises_every_field() -> None:
    assert describe_schemas(SCHEMAS) == {
        "take": {"index": "int 0..8", "pile": "deck | discard", "card": "id"},
        "pass": {},
    }


# -- codec -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Part:
    name: str
    weight: float


@dataclass(frozen=True, slots=True)
class Sample:
    count: int
    flag: bool
    ratio: float
    label: str | None
    parts: tuple[Part, ...]
    pair: tuple[int, str]
    maybe: Part | None
    grid: tuple[tuple[int, ...], ...]


SAMPLE = Sample(
    count=3,
    flag=True,
    ratio=0.5,
    label=None,
    parts=(Part("a", 1.5), Part("b", 2.0)),
    pair=(7, "x"),
    maybe=Part("c", 0.0),
    grid=((1, 2), (), (3,)),
)


def test_codec_round_trips_nested_dataclasses_tuples_and_optionals() -> None:
    data = encode(SAMPLE)
    assert data["parts"] == [{"name": "a", "weight": 1.5}, {"name": "b", "weight": 2.0}]
    assert data["pair"] == [7, "x"]
    text = json.dumps(data, sort_keys=True)
    assert decode(Sample, json.loads(text)) == SAMPLE
    assert json.dumps(encode(decode(Sample, json.loads(text))), sort_keys=True) == text


def test_codec_reads_a_whole_number_into_a_float_field() -> None:
    data = encode(SAMPLE)
    data["ratio"] = 1
    decoded = decode(Sample, data)
    assert decoded.ratio == 1.0
    assert type(decoded.ratio) is float


def _broken(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = encode(SAMPLE)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "state",
        {},
        _broken(count=True),  # bool is not an int here either
        _broken(count="3"),
        _broken(count=3.0),
        _broken(flag=1),
        _broken(label=5),
        _broken(parts={"name": "a"}),
        _broken(parts=[{"name": "a"}]),
        _broken(pair=[7]),
        _broken(pair=[7, "x", 8]),
        _broken(pair=["x", 7]),
        _broken(maybe="c"),
        _broken(grid=[[1, "2"]]),
        _broken(extra=1),
        {key: value for key, value in encode(SAMPLE).items() if key != "count"},
    ],
)
def test_codec_refuses_data_that_is_not_a_state_with_value_error(data: Any) -> None:
    with pytest.raises(DecodeError):
        decode(Sample, data)
    assert issubclass(DecodeError, ValueError)


@pytest.mark.parametrize("value", [{"a": 1}, [1], {1, 2}, object()])
def test_codec_refuses_to_encode_mutable_or_unknown_values(value: Any) -> None:
    with pytest.raises(TypeError):
        encode(Part("a", value))


def test_codec_refuses_types_a_state_may_not_hold() -> None:
    @dataclass(frozen=True)
    class WithDict:
        table: dict[str, int]

    with pytest.raises(ValueError, match="unsupported type"):
        decode(WithDict, {"table": {}})


# -- log -------------------------------------------------------------------------------

DRAW = entry(
    "draw",
    1,
    "{s1} drew a card",
    {"card": "ab12", "pile": "deck"},
    {1: ("You drew the 7", {"value": 7})},
)


def test_log_entry_keeps_facts_as_canonical_json() -> None:
    assert DRAW.public == '{"card":"ab12","pile":"deck"}'
    assert DRAW.private == ((1, "You drew the 7", '{"value":7}'),)
    assert entry("pass", None, "Nobody moved").public == "{}"


def test_log_view_shows_a_seat_its_own_private_facts() -> None:
    assert entry_view(DRAW, 1) == {
        "event": "draw",
        "seat": 1,
        "text": "You drew the 7",
        "card": "ab12",
        "pile": "deck",
        "value": 7,
    }


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_log_view_hides_private_facts_from_others_and_spectators(viewer: int | None) -> None:
    assert entry_view(DRAW, viewer) == {
        "event": "draw",
        "seat": 1,
        "text": "{s1} drew a card",
        "card": "ab12",
        "pile": "deck",
    }
    assert "7" not in json.dumps(log_view((DRAW, DRAW), viewer))


def test_cached_views_are_of_the_entry_shown_though_ids_are_given_again() -> None:
    """The view cache is keyed by ``id``: an entry that dies takes its keys with it, so
    a new entry given the same id (CPython reuses them at once) is never shown another's
    view; and the cache holds no entry alive."""
    import gc
    import weakref

    from games.engine import log

    ids_seen: set[int] = set()
    reused = 0
    for number in range(2_000):
        item = entry("draw", 1, f"draw {number}", {"n": number}, {1: (f"you {number}", {"v": number})})
        reused += id(item) in ids_seen
        ids_seen.add(id(item))
        for _ in range(2):  # cached the second time
            assert entry_view(item, 1) == {
                "event": "draw",
                "seat": 1,
                "text": f"you {number}",
                "n": number,
                "v": number,
            }
            assert log_view([item], None) == [
                {"event": "draw", "seat": 1, "text": f"draw {number}", "n": number}
            ]
        watched = weakref.ref(item)
        del item
        assert watched() is None  # the cache held it not
    assert reused > 100  # the case under test happened
    gc.collect()
    assert not any(key in log._SHOWN or key in log._SHOWN_ONCE for key in ids_seen)


def test_log_reveal_reads_as_a_spectators_entry_with_every_private_part() -> None:
    assert entry_reveal(DRAW) == {
        "event": "draw",
        "seat": 1,
        "text": "{s1} drew a card",
        "card": "ab12",
        "pile": "deck",
        "value": 7,  # one seat's own fact: shown beside the public ones too
        "as_seen_by": {"1": {"text": "You drew the 7", "value": 7}},
    }
    assert log_reveal((DRAW, entry("pass", None, "Nobody moved"))) == [
        entry_reveal(DRAW),
        {"event": "pass", "seat": None, "text": "Nobody moved"},  # no private part: no as_seen_by
    ]


def test_log_reveal_keeps_facts_that_differ_per_seat_apart() -> None:
    dealt = entry(
        "deal",
        0,
        "{s0} dealt",
        {"hand_size": 1, "cards": []},
        {
            0: ("You got the 3", {"cards": [3], "first": True, "suit": "red"}),
            1: ("You got the 5", {"cards": [5], "suit": "red"}),
        },
    )
    revealed = entry_reveal(dealt)
    # "cards" is public (an empty list) and stays so; "first" is one seat's and "suit" agrees.
    assert {key: revealed[key] for key in ("cards", "first", "suit")} == {
        "cards": [],
        "first": True,
        "suit": "red",
    }
    assert revealed["as_seen_by"] == {
        "0": {"text": "You got the 3", "cards": [3], "first": True, "suit": "red"},
        "1": {"text": "You got the 5", "cards": [5], "suit": "red"},
    }
    clashing = entry("deal", 0, "{s0} dealt", None, {0: ("3", {"card": 3}), 1: ("5", {"card": 5})})
    assert "card" not in entry_reveal(clashing)


def test_log_reveal_read_as_a_seat_is_that_seats_log_view() -> None:
    for viewer in (0, 1, 2):
        revealed = entry_reveal(DRAW)
        own = revealed.pop("as_seen_by").get(str(viewer), {})
        seen = {**revealed, **own}
        assert {key: seen[key] for key in entry_view(DRAW, viewer)} == entry_view(DRAW, viewer)


def test_log_entries_survive_the_codec() -> None:
    assert decode(LogEntry, json.loads(json.dumps(encode(DRAW)))) == DRAW


def test_render_text_puts_names_in_place_of_seat_marks() -> None:
    assert render_text("{s0} gave {s1} a box", ["Ann", "Bo"]) == "Ann gave Bo a box"
    assert render_text("{s3} left", ["Ann"]) == "Seat 4 left"
    assert render_text("No marks {here}", ["Ann"]) == "No marks {here}"
    assert render_text("{s10} won", [f"P{index}" for index in range(11)]) == "P10 won"


# -- cards -----------------------------------------------------------------------------


def test_draw_takes_from_the_top() -> None:
    assert draw(("a", "b", "c")) == (("a",), ("b", "c"))
    assert draw(("a", "b", "c"), 2) == (("a", "b"), ("c",))
    assert draw(("a",), 0) == ((), ("a",))
    with pytest.raises(ValueError):
        draw(("a",), 2)


def test_deal_goes_round_the_table_one_card_at_a_time() -> None:
    hands, rest = deal(tuple("abcdefg"), hands=3, size=2)
    assert hands == (("a", "d"), ("b", "e"), ("c", "f"))
    assert rest == ("g",)
    with pytest.raises(ValueError):
        deal(tuple("abc"), hands=2, size=2)


def test_reshuffle_under_top_keeps_the_top_card_face_up() -> None:
    discard = tuple(range(20))
    deck, kept = reshuffle_under_top(discard, FastRng(fast_state(4)))
    assert kept == (0,)
    assert sorted(deck) == list(range(1, 20))
    assert deck != tuple(range(1, 20))
    assert reshuffle_under_top((), FastRng(1)) == ((), ())
    assert reshuffle_under_top((5,), FastRng(1)) == ((), (5,))


def test_insert_at_random_reaches_every_gap_and_keeps_the_order() -> None:
    rng = FastRng(fast_state(6))
    positions = set()
    for _ in range(400):
        pile = insert_at_random(("a", "b", "c"), "X", rng)
        assert tuple(card for card in pile if card != "X") == ("a", "b", "c")
        positions.add(pile.index("X"))
    assert positions == {0, 1, 2, 3}


def test_replace_at_copies_with_one_item_changed() -> None:
    items = (1, 2, 3)
    assert replace_at(items, 1, 9) == (1, 9, 3)
    assert items == (1, 2, 3)


# -- seats and ranking -----------------------------------------------------------------


def test_seats_go_round_in_both_directions() -> None:
    assert next_seat(3, 4) == 0
    assert next_seat(0, 4, step=-1) == 3
    assert seats_from(2, 4) == (2, 3, 0, 1)
    assert seats_from(1, 3, step=-1) == (1, 0, 2)


@pytest.mark.parametrize("seat", [-1, 4, True, False, "1", None, 1.0])
def test_check_seat_refuses_what_is_no_seat(seat: Any) -> None:
    assert code_of(check_seat, seat, 4) == "no_such_seat"


def test_check_seat_accepts_every_seat() -> None:
    assert [check_seat(seat, 4) for seat in range(4)] == [0, 1, 2, 3]


def test_competition_ranks_share_ties_and_skip_after_them() -> None:
    assert competition_ranks([10, 20, 20, 5]) == [3, 1, 1, 4]
    assert competition_ranks([10, 20, 20, 5], higher_is_better=False) == [2, 3, 3, 1]
    assert competition_ranks([7, 7, 7]) == [1, 1, 1]
    assert competition_ranks([]) == []


def test_competition_ranks_break_ties_with_tuple_keys() -> None:
    # Boom Box: most gems, then most boxes opened.
    assert competition_ranks([(3, 2), (3, 5), (1, 9), (3, 5)]) == [3, 1, 4, 1]


# -- the base game and the registry ----------------------------------------------------

TOY = ToyHighCard()


@pytest.mark.parametrize("players", [1, 5, 0, -2, True, 2.0, "3", None])
def test_new_refuses_bad_player_counts(players: Any) -> None:
    assert code_of(TOY.new, players, 1) == "bad_player_count"


@pytest.mark.parametrize("seed", [None, 1.5, "1", True, [1]])
def test_new_refuses_seeds_that_are_not_whole_numbers(seed: Any) -> None:
    assert code_of(TOY.new, 2, seed) == "bad_seed"


def test_new_accepts_any_whole_number_seed_and_repeats_it() -> None:
    for seed in (0, -5, 2**80):
        assert TOY.new(3, seed) == TOY.new(3, seed)
    assert TOY.new(3, 1) != TOY.new(3, 2)


def test_apply_checks_the_seat_before_the_action() -> None:
    state = TOY.new(2, 1)
    assert code_of(TOY.apply, state, True, {"type": "ready"}) == "no_such_seat"
    assert code_of(TOY.apply, state, 2, {"type": "ready"}) == "no_such_seat"
    assert code_of(TOY.apply, state, 0, {"type": "fly"}) == "unknown_action"
    ready = TOY.apply(state, 0, {"type": "ready"})
    assert code_of(TOY.apply, ready, 0, {"type": "ready"}) == "not_your_turn"


def test_apply_refuses_everything_once_the_game_is_over() -> None:
    state = TOY.new(2, 1, {"hand_size": 1, "can_draw": False})
    while TOY.to_act(state):
        seat = TOY.to_act(state)[0]
        state = TOY.apply(state, seat, TOY.legal_actions(state, seat)[0])
    assert code_of(TOY.apply, state, 0, {"type": "ready"}) == "game_over"


def test_base_encode_and_decode_use_the_state_type() -> None:
    state = TOY.new(3, 9)
    assert TOY.decode(json.loads(json.dumps(TOY.encode(state)))) == state
    with pytest.raises(ValueError):
        TOY.decode({"players": 3})


@pytest.mark.parametrize("slug", ["no-such-game", None, [], 3])
def test_get_refuses_unknown_games(slug: Any) -> None:
    assert code_of(get, slug) == "no_such_game"


def test_below_refuses_a_bound_beyond_64_bits_instead_of_looping() -> None:
    assert 0 <= FastRng(3).below(1 << 64) < 1 << 64
    with pytest.raises(ValueError, match="at most 2\\*\\*64"):
        FastRng(3).below((1 << 64) + 1)
