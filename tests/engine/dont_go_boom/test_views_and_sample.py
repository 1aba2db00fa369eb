"""Views hide what a seat may not know; samples re-deal exactly that; the score estimate."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.dont_go_boom import DontGoBoomState, estimate_score
from games.engine.dont_go_boom.cards import VALUE
from tests.engine.dont_go_boom.scenario import GAME, act, scenario, tokens
from tests.engine.playouts import random_game

MINE = "~1 ~2 ~4 / ~5 6 ~8 / ~9 ~11 ~12"
THEIRS = "~1 2 ~4 / ~5 ~6 ~8 / ~9 ~11 13"


def same(first: dict[str, Any], second: dict[str, Any]) -> bool:
    return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def random_states(players: int, seed: int, every: int) -> list[DontGoBoomState]:
    """Every ``every``-th state of a random one-round playout, then the last."""
    states = random_game(GAME, players, seed, {"rounds": 1}).states
    return [*states[::every], states[-1]]


@pytest.mark.parametrize("players", [2, 5])
def test_sample_reproduces_the_view_of_every_seat_and_of_a_spectator(players: int) -> None:
    rng = random.Random(players)
    for state in random_states(players, seed=players, every=11):
        for viewer in [None, *range(players)]:
            view = GAME.view(state, viewer)
            sampled = GAME.sample(view, viewer, rng)
            assert same(GAME.view(sampled, viewer), view)
            assert GAME.decode(json.loads(json.dumps(GAME.encode(sampled)))) == sampled
            # Every legal action of the sampled state applies (it is a real state).
            for seat in GAME.to_act(sampled):
                for action in GAME.legal_actions(sampled, seat)[:3]:
                    GAME.apply(sampled, seat, action)


def test_sample_re_deals_face_down_cards_and_keeps_what_the_seat_peeked_at() -> None:
    state = scenario([MINE, THEIRS], deck=["7P", "9"])
    state = act(act(state, 0, "draw", source="deck"), 0, "peek", position=8)
    view = GAME.view(state, 0)
    hidden_values = set()
    for seed in range(20):
        sampled = GAME.sample(view, 0, random.Random(seed))
        assert VALUE[sampled.grids[0][8]] == 12
        assert sampled.peeked[0] == (sampled.grids[0][8],)
        hidden_values.add(VALUE[sampled.grids[1][0]])
    assert len(hidden_values) > 3
    # The other seat does not know it: its samples vary that card.
    other = GAME.view(state, 1)
    assert len({VALUE[GAME.sample(other, 1, random.Random(seed)).grids[0][8]] for seed in range(20)}) > 3


def test_sample_of_another_seats_peek_names_the_sampled_card_in_its_private_log() -> None:
    state = scenario([MINE, THEIRS], deck=["7P", "9"])
    state = act(act(state, 0, "draw", source="deck"), 0, "peek", position=8)
    sampled = GAME.sample(GAME.view(state, 1), 1, random.Random(3))
    card = sampled.grids[0][8]
    assert GAME.view(sampled, 0)["log"][-1]["peeked"]["value"] == VALUE[card]
    assert GAME.view(sampled, 0)["minefields"][0]["cards"][8]["peeked"]["value"] == VALUE[card]


def test_sample_puts_the_publicly_known_cards_back_in_the_deck_after_a_reshuffle() -> None:
    state = scenario([MINE, THEIRS], deck=[], discard=["9", "4"], rest_to="discard")
    reshuffled = sorted(tokens(state.discard[1:]))
    state = act(state, 0, "draw", source="deck")
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        for seed in range(5):
            sampled = GAME.sample(view, viewer, random.Random(seed))
            # Others cannot tell which of those cards seat 0 holds, but it is one of them.
            assert sorted(tokens([*sampled.deck, sampled.held])) == reshuffled
            if viewer == 0:
                assert sampled.ids[sampled.held] == state.ids[state.held]


def test_sample_guesses_the_hidden_first_flip_choices_of_others() -> None:
    state = act(GAME.new(3, seed=2), 1, "choose", position=6)
    state = act(state, 2, "choose", position=2)
    view = GAME.view(state, 2)
    guesses = set()
    for seed in range(20):
        sampled = GAME.sample(view, 2, random.Random(seed))
        assert sampled.chosen[0] == -1
        assert sampled.chosen[2] == 2
        guesses.add(sampled.chosen[1])
    assert len(guesses) > 1


def test_spectator_view_shows_no_held_card_and_no_peek_results() -> None:
    state = scenario([MINE, THEIRS], deck=["7P", "9"], peeked={1: [(1, 0)]})
    state = act(state, 0, "draw", source="deck")
    view = GAME.view(state, None)
    assert view["seat"] is None
    assert view["held"] == {"seat": 0, "from": "deck", "card": None}
    assert view["minefields"][1]["cards"][0]["known_by"] == [1]
    assert all(card["peeked"] is None for field in view["minefields"] for card in field["cards"])
    assert all(
        card["value"] is None
        for field in view["minefields"]
        for card in field["cards"]
        if not card["face_up"]
    )


def test_view_describes_the_table_for_a_board_template() -> None:
    state = scenario([MINE, THEIRS], deck=["9"], discard=["4", "10"], removed=["B"])
    view = GAME.view(state, 0)
    assert view["phase"] == "draw"
    assert view["to_act"] == [0]
    assert view["turn"] == 0
    assert view["deck"]["size"] == 108 - 18 - 3
    assert [card["label"] for card in view["discard"]] == ["4", "10 Swap"]
    card = view["minefields"][0]["cards"][4]
    assert card == {
        "position": 4,
        "name": "r1c1",
        "id": state.ids[state.grids[0][4]],
        "face_up": True,
        "value": 6,
        "kind": "number",
        "label": "6",
        "peeked": None,
        "known_by": [],
    }
    assert view["minefields"][0]["face_up_count"] == 1
    assert view["minefields"][0]["face_down_count"] == 8


def test_estimate_score_counts_known_cards_lines_and_the_unseen_average() -> None:
    state = scenario(["~1 ~2 ~4 / 5 5 5 / ~9 ~11 ~12", THEIRS], peeked={0: [(0, 0)]})
    view = GAME.view(state, 0)
    estimate = estimate_score(view, 0)
    # Middle row defused, the peeked 1 counts 1, five unseen cards at the average.
    seen = 5 + 5 + 5 + 1 + 2 + 13 + 5  # own row, peeked 1, their 2 and 13, the discard 5
    average = (788 - seen) / (108 - 7)
    assert estimate == pytest.approx(1 + 5 * average)
    spectator_estimate = estimate_score(GAME.view(state, None), 0)
    assert spectator_estimate > estimate
