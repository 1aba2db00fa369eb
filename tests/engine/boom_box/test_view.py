"""Views hide what each seat may not know; samples re-deal it; box facts for bots."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine.boom_box import box_facts
from games.engine.boom_box.state import BoomBoxState
from tests.engine.boom_box.builder import GAME, play, table
from tests.engine.playouts import random_game


def canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def test_unopened_contents_are_shown_only_to_their_owner() -> None:
    state = table(lines={0: ["0-boom1"], 1: ["1-gem1"]}, fronts={1: ["0-two"]}, opened={0: ["1-two"]})
    for viewer in (1, None):
        boxes = GAME.view(state, viewer)["boxes"]
        assert boxes["0-boom1"]["content"] is None
        assert boxes["0-two"]["content"] is None
        assert boxes["0-two"]["gems"] is None
        assert boxes["1-two"]["content"] == "two_gems"  # opened: public
    own = GAME.view(state, 0)["boxes"]
    assert own["0-boom1"]["content"] == "boom"
    assert own["0-two"]["gems"] == 2
    assert own["1-gem1"]["content"] is None


def test_boxes_set_aside_are_listed_only_for_their_owner() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]})
    assert "0-boom2" in GAME.view(state, 0)["boxes"]
    assert GAME.view(state, 0)["boxes"]["0-boom2"]["place"] == "set_aside"
    assert "0-boom2" not in GAME.view(state, 1)["boxes"]
    assert "0-boom2" not in GAME.view(state, None)["boxes"]


def test_the_view_tells_whose_turn_it_is_and_what_is_still_compulsory() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]}, fronts={0: ["1-gem2"]})
    turn = GAME.view(state, 1)["turn"]
    assert turn == {
        "seat": 0,
        "has_passed": False,
        "has_opened": False,
        "must_pass": True,
        "must_open": None,
        "must_act": True,
        "can_end": False,
    }
    state = play(state, 0, "pass", box="0-gem1", claim="boom")
    turn = GAME.view(state, 1)["turn"]
    assert (turn["must_pass"], turn["must_act"], turn["can_end"]) == (False, False, True)
    seat_view = GAME.view(state, 1)["seats"][0]
    assert seat_view["boxes_held"] == 1
    assert seat_view["in_front"] == ["1-gem2"]


def test_the_log_names_players_by_seat_marks_and_boxes_by_letter() -> None:
    state = table(lines={0: ["0-gem1"], 1: ["1-gem1"]})
    state = play(state, 0, "pass", box="0-gem1", claim="boom")
    entry = GAME.view(state, None)["log"][-1]
    assert entry["text"] == "{s0} passed box A to {s1}, saying it holds a Boom."
    assert entry["box"] == "0-gem1"  # the id stays in the facts, for programs


@pytest.mark.parametrize("players", [2, 6])
def test_a_box_keeps_one_letter_for_everyone_from_its_start_line_to_the_end(players: int) -> None:
    """Seat 0's Start Line is A to D in its order, seat 1's E to H...; a letter never
    moves to another box, every viewer reads the same one, and nothing but boxes on the
    table is named (set-aside and unchosen boxes are seen by their owner alone)."""
    letters: dict[str, str] = {}
    for state in random_game(GAME, players, players + 40).states:
        views = [GAME.view(state, viewer) for viewer in [*range(players), None]]
        public = views[-1]
        for shown in views:
            for box_id, box in shown["boxes"].items():
                if box["place"] in ("set_aside", "unchosen"):
                    assert box["name"] is None
                    continue
                assert box["name"] == public["boxes"][box_id]["name"]
                assert letters.setdefault(box_id, box["name"]) == box["name"]
        for item in public["log"]:
            if item["event"] == "start_line":
                first = 4 * item["seat"]
                expected = [chr(ord("A") + first + index) for index in range(4)]
                assert [public["boxes"][box_id]["name"] for box_id in item["start_line"]] == expected
    assert sorted(letters.values()) == [chr(ord("A") + index) for index in range(4 * players)]


def test_texts_name_boxes_by_letter_and_set_aside_boxes_by_what_they_hold() -> None:
    state = GAME.new(2, 3, None)
    for seat in (0, 1):
        for _ in range(2):
            state = play(state, seat, "set_aside", box=GAME.legal_actions(state, seat)[0]["box"])
    lines = [item for item in GAME.view(state, 0)["log"] if item["event"] == "start_line"]
    gems = {box.id: box.gems for box in state.boxes}
    held = [{0: "a Boom", 1: "one gem", 2: "two gems"}[gems[box_id]] for box_id in lines[0]["set_aside"]]
    assert [item["text"] for item in lines] == [
        f"You laid out your Start Line, boxes A, B, C and D, and set aside two boxes holding {' and '.join(held)}.",
        "{s1} laid out a Start Line of four boxes: E, F, G and H.",
    ]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_samples_give_back_the_view_and_keep_every_known_fact(players: int) -> None:
    rng = random.Random(players)
    states = random_game(GAME, players, players).states
    for state in states[:: max(1, len(states) // 12)]:
        for viewer in [*range(players), None]:
            shown = GAME.view(state, viewer)
            sampled = GAME.sample(shown, viewer, rng)
            assert canonical(GAME.view(sampled, viewer)) == canonical(shown)
            assert GAME.to_act(sampled) == GAME.to_act(state)
            _assert_known_facts_agree(state, sampled, viewer)


def _assert_known_facts_agree(truth: BoomBoxState, sampled: BoomBoxState, viewer: int | None) -> None:
    true_boxes = {box.id: box for box in truth.boxes}
    for owner in range(truth.players):
        # Every owner keeps a full set: 2 Booms, 3 one-gem boxes, 1 two-gem box.
        assert Counter(box.gems for box in sampled.boxes if box.owner == owner) == {0: 2, 1: 3, 2: 1}
    for box in sampled.boxes:
        is_opened = any(box.id in stack for stack in sampled.stacks)
        if is_opened or box.owner == viewer:
            assert true_boxes[box.id].gems == box.gems


def test_a_spectator_sample_re_deals_the_hidden_contents() -> None:
    state = table(
        lines={0: ["0-gem1", "0-boom1", "0-two", "0-gem2"], 1: ["1-gem1", "1-boom1", "1-two", "1-gem2"]}
    )
    shown = GAME.view(state, None)
    deals = {
        tuple(box.gems for box in GAME.sample(shown, None, random.Random(seed)).boxes) for seed in range(10)
    }
    assert len(deals) > 1


def test_box_facts_give_claims_and_the_chance_of_a_boom_from_the_owner_set() -> None:
    state = table(
        lines={0: ["0-gem1", "0-gem2"], 1: ["1-gem1"]},
        fronts={1: ["0-boom1"]},
        opened={1: ["0-boom2", "0-two"]},
        passes=[("0-boom1", 0, "gem")],
    )
    facts = box_facts(GAME.view(state, 1))
    # Seat 0's unseen boxes: 4 of 6 (one Boom, three one-gem boxes).
    assert facts["0-boom1"].boom_chance == pytest.approx(1 / 4)
    assert facts["0-boom1"].claims == ("gem",)
    assert facts["0-boom1"].claimed_by == (0,)
    assert facts["0-boom1"].expected_gems == pytest.approx(1.0)
    assert facts["0-two"].content == "two_gems"
    assert facts["1-gem1"].boom_chance == 0.0  # the viewer's own box
    own = box_facts(GAME.view(state, 0))
    assert own["0-boom1"].boom_chance == 1.0
