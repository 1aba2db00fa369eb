"""Go Fox! rules (../shared/rules/ka-blam.md), one test per rule and Ruling, and the
sampler's promise: every failed ask stays true in a sampled state."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine import IllegalAction
from games.engine.go_fox import GoFox, GoFoxState
from games.engine.go_fox.sample import hidden_model
from games.engine.go_fox.state import hand_order
from games.engine.log import log_view
from games.engine.word_cards import CARD_COUNT, WORDS, card_index
from games.engine.word_cards.hidden import violations
from tests.engine.playouts import random_game, spread

GAME = GoFox()
RED, YELLOW, GREEN, BLUE, PURPLE, ORANGE = range(6)


def word(colour: int, number: int) -> int:
    return card_index(colour, number)


def table(hands: list[list[int]], *, pile: tuple[int, ...] | None = None, turn: int = 1) -> GoFoxState:
    """A state with these hands; by default the pile holds every other card in box order."""
    state = GAME.new(len(hands), 5)
    held = {card for hand in hands for card in hand}
    if pile is None:
        pile = tuple(card for card in range(CARD_COUNT) if card not in held)
    return replace(
        state,
        hands=tuple(tuple(sorted(hand, key=hand_order)) for hand in hands),
        pile=pile,
        pairs=tuple(() for _ in hands),
        turn=turn,
        phase="ask",
    )


def act(state: GoFoxState, kind: str, **fields: Any) -> GoFoxState:
    return GAME.apply(state, state.turn, {"type": kind, **fields})


def refusal(state: GoFoxState, kind: str, **fields: Any) -> str:
    with pytest.raises(IllegalAction) as refused:
        act(state, kind, **fields)
    return refused.value.code


# -- the deal and the turn -----------------------------------------------------------------


def test_each_player_gets_five_cards_the_rest_is_the_pile_and_seat_1_asks_first() -> None:
    for players in range(2, 7):
        state = GAME.new(players, players)
        assert [len(hand) for hand in state.hands] == [5] * players
        assert len(state.pile) == CARD_COUNT - 5 * players
        assert GAME.to_act(state) == [1]
        assert GAME.view(state, None)["asks"] == (2 if players > 2 else 0)


def test_a_player_asks_only_for_a_number_they_hold() -> None:
    state = table([[word(RED, 1)], [word(RED, 5), word(BLUE, 5), word(GREEN, 2)], [word(RED, 9)]])
    assert GAME.legal_actions(state, 1) == [{"type": "ask", "number": 2}, {"type": "ask", "number": 5}]
    assert refusal(state, "ask", number=9) == "not_in_hand"
    assert refusal(state, "ask", number=12) == "out_of_range"


def test_a_player_holding_cards_asks_before_anything_else() -> None:
    state = table([[word(RED, 1)], [word(RED, 5), word(BLUE, 5)], [word(RED, 9)]])
    assert refusal(state, "draw") == "ask_first"
    assert refusal(state, "lay", number=5) == "ask_first"


def test_a_successful_ask_gives_the_first_colour_the_pair_is_laid_and_the_asker_draws() -> None:
    state = table(
        [
            [word(RED, 1)],
            [word(BLUE, 5), word(PURPLE, 5), word(GREEN, 2)],
            [word(ORANGE, 5), word(YELLOW, 5)],
        ],
        pile=(word(RED, 11), word(RED, 10)),
    )
    after = act(state, "ask", number=5)
    assert after.hands[2] == (word(ORANGE, 5),)  # yellow comes before orange in the word table
    assert after.pairs[1] == (word(YELLOW, 5), word(BLUE, 5))  # and blue before purple
    assert after.hands[1] == tuple(sorted((word(PURPLE, 5), word(GREEN, 2), word(RED, 11)), key=hand_order))
    assert after.turn == 2 and after.phase == "ask"
    events = [item["event"] for item in log_view(after.log, None)[-4:]]
    assert events == ["ask", "give", "pair", "draw"]


def test_the_next_player_is_asked_and_with_two_players_that_is_the_other_one() -> None:
    state = table([[word(RED, 5)], [word(BLUE, 5)]], turn=1)
    after = act(state, "ask", number=5)
    assert after.pairs[1] == (word(RED, 5), word(BLUE, 5))
    state = table([[word(RED, 5)], [word(BLUE, 5)], [word(GREEN, 5)]], turn=1)
    assert act(state, "ask", number=5).pairs[1] == (word(GREEN, 5), word(BLUE, 5))


def test_go_fox_lets_the_asker_lay_one_pair_they_hold_and_then_they_draw() -> None:
    hand = [word(RED, 3), word(GREEN, 3), word(BLUE, 7), word(PURPLE, 7), word(ORANGE, 2)]
    state = table([[word(RED, 1)], hand, [word(YELLOW, 9)]], pile=(word(RED, 11), word(RED, 10)))
    after = act(state, "ask", number=2)
    assert after.turn == 1 and after.phase == "go_fox"
    assert log_view(after.log, None)[-1]["event"] == "go_fox"
    assert GAME.legal_actions(after, 1) == [
        {"type": "draw"},
        {"type": "lay", "number": 3},
        {"type": "lay", "number": 7},
    ]
    after = act(after, "lay", number=3)
    assert after.pairs[1] == (word(RED, 3), word(GREEN, 3))
    assert word(BLUE, 7) in after.hands[1] and word(RED, 11) in after.hands[1]
    assert after.turn == 2  # one pair per turn: the 7s wait


def test_after_go_fox_the_asker_may_just_draw() -> None:
    state = table([[word(RED, 1)], [word(RED, 3), word(GREEN, 3)], [word(YELLOW, 9)]])
    after = act(act(state, "ask", number=3), "draw")
    assert after.pairs[1] == ()
    assert len(after.hands[1]) == 3 and after.turn == 2


def test_laying_needs_a_pair_and_asking_twice_is_refused() -> None:
    state = act(table([[word(RED, 1)], [word(RED, 3), word(GREEN, 4)], [word(YELLOW, 9)]]), "ask", number=3)
    assert GAME.legal_actions(state, 1) == [{"type": "draw"}]
    assert refusal(state, "lay", number=3) == "no_pair"
    assert refusal(state, "ask", number=4) == "already_asked"


def test_a_player_with_an_empty_hand_skips_the_ask_and_draws() -> None:
    state = table([[word(RED, 1)], [], [word(YELLOW, 9)]])
    assert GAME.legal_actions(state, 1) == [{"type": "draw"}]
    assert refusal(state, "ask", number=1) == "not_in_hand"
    after = act(state, "draw")
    assert len(after.hands[1]) == 1 and after.turn == 2


def test_asking_a_player_with_an_empty_hand_gets_go_fox() -> None:
    state = table([[word(RED, 1)], [word(RED, 4)], []])
    assert act(state, "ask", number=4).phase == "go_fox"


def test_the_game_ends_as_soon_as_a_draw_empties_the_pile_and_most_pairs_wins() -> None:
    state = table([[word(RED, 1)], [word(RED, 4)], [word(BLUE, 9)]], pile=(word(GREEN, 7),))
    state = replace(state, pairs=((word(RED, 2), word(BLUE, 2)), (), (word(RED, 6), word(BLUE, 6))))
    after = act(act(state, "ask", number=4), "draw")
    assert GAME.to_act(after) == []
    assert after.phase == "over"
    assert GAME.result(after) == {"scores": [1, 0, 1], "ranks": [1, 3, 1]}
    assert log_view(after.log, None)[-1]["event"] == "end"


def test_a_pair_still_in_hand_when_the_pile_runs_out_scores_nothing() -> None:
    """Decision (docs/games/go-fox.md): only pairs laid count. Seat 0 holds two 3s when
    seat 1's draw empties the pile: seat 2's laid pair wins alone."""
    state = table([[word(RED, 3), word(BLUE, 3)], [word(RED, 4)], [word(BLUE, 9)]], pile=(word(GREEN, 7),))
    state = replace(state, pairs=((), (), (word(RED, 6), word(BLUE, 6))))
    after = act(act(state, "ask", number=4), "draw")
    assert after.phase == "over" and sorted(after.hands[0]) == sorted([word(RED, 3), word(BLUE, 3)])
    assert GAME.result(after) == {"scores": [0, 0, 1], "ranks": [2, 2, 1]}


# -- views --------------------------------------------------------------------------------


def test_hands_are_private_their_sizes_public_and_the_pile_hidden() -> None:
    state = GAME.new(3, 9)
    for viewer in (None, 0, 1, 2):
        shown = GAME.view(state, viewer)
        text = json.dumps(shown)
        assert shown["hand_sizes"] == [5, 5, 5]
        assert shown["pile_size"] == CARD_COUNT - 15
        for seat, hand in enumerate(state.hands):
            for card in hand:
                assert (state.ids[card] in text) == (seat == viewer)
        assert not any(state.ids[card] in text for card in state.pile)
    assert GAME.view(state, None)["hand"] is None


def test_what_an_ask_reveals_is_public_and_a_drawn_card_is_not() -> None:
    state = table(
        [[word(RED, 1)], [word(RED, 3), word(GREEN, 5)], [word(YELLOW, 3)]],
        pile=(word(PURPLE, 8), word(RED, 10)),
    )
    after = act(act(state, "ask", number=5), "draw")
    spectator = log_view(after.log, None)
    said = next(item for item in spectator if item["event"] == "go_fox")
    assert said["seat"] == 2 and said["asker"] == 1 and said["number"] == 5
    assert spectator[-1] == {
        "event": "draw",
        "seat": 1,
        "text": "{s1} drew a card.",
        "pile_size": 1,
        "words": [],
    }
    assert log_view(after.log, 1)[-1]["card"]["word"] == "mud"
    given = act(state, "ask", number=3)
    shown = next(item for item in log_view(given.log, 0) if item["event"] == "give")
    assert shown["card"]["word"] == "jet" and shown["words"] == ["jet"]


def test_every_card_in_a_view_carries_its_word() -> None:
    state = random_game(GAME, 4, 2, first_seat=True, stop_after=40).final
    shown = GAME.view(state, 1)
    cards = list(shown["hand"]) + [
        card for table in shown["pairs"] for pair in table["pairs"] for card in pair["cards"]
    ]
    for item in shown["log"]:
        assert isinstance(item["words"], list)
        cards.extend(item.get("cards", []))
        if "card" in item:
            cards.append(item["card"])
    assert cards
    for card in cards:
        assert card["word"] == WORDS.card(WORDS.colour_keys.index(card["colour"]), card["number"]).word


# -- random play, and sampling ---------------------------------------------------------------


def playout_states(players: int, seed: int, count: int = 10) -> list[GoFoxState]:
    """About ``count`` states spread over a random game, its end included."""
    return spread(random_game(GAME, players, seed, first_seat=True).states, count)


def test_random_games_end_when_the_pile_is_empty() -> None:
    for players in range(2, 7):
        final = playout_states(players, players, 2)[-1]
        assert GAME.result(final) is not None
        assert final.pile == ()


def failed_asks(state: GoFoxState) -> list[tuple[int, int, int]]:
    """(log index, asked seat, number) of every GO FOX!"""
    return [
        (time, item["seat"], item["number"])
        for time, item in enumerate(log_view(state.log, None))
        if item["event"] == "go_fox"
    ]


def broken_go_fox_facts(state: GoFoxState) -> list[str]:
    """Every failed ask the state contradicts: a card of the asked number in the asked
    player's hand now that their own log does not show them drawing after the ask."""
    problems = []
    seen = [log_view(state.log, seat) for seat in range(state.players)]
    for time, asked, number in failed_asks(state):
        own_log = seen[asked]
        drawn_since = {
            state.ids.index(item["card"]["id"])
            for item in own_log[time + 1 :]
            if item["event"] == "draw" and item["seat"] == asked
        }
        for card in state.hands[asked]:
            if WORDS.cards[card].number == number and card not in drawn_since:
                problems.append(f"seat {asked} said GO FOX! to {number}s at {time} but holds {card}")
    return problems


def replayed_problems(state: GoFoxState) -> list[str]:
    """Replay the log as each seat saw it: every ask, give and lay must fit the hands
    (GO FOX! only without the number, the asker holding it, first colours given and
    laid), and the hands must end as the state's."""
    players = state.players
    seen = [log_view(state.log, seat) for seat in range(players)]
    hands: list[list[int]] = [[] for _ in range(players)]
    problems = []
    asker_number = (0, 0)

    def numbered(seat: int, number: int) -> list[int]:
        return sorted((card for card in hands[seat] if WORDS.cards[card].number == number), key=hand_order)

    for time, item in enumerate(seen[0]):
        event, actor = item["event"], item["seat"]
        if event == "deal":
            for seat in range(players):
                hands[seat] = [state.ids.index(card["id"]) for card in seen[seat][time]["cards"]]
        elif event == "draw":
            hands[actor].append(state.ids.index(seen[actor][time]["card"]["id"]))
        elif event == "ask":
            asker_number = (actor, item["number"])
            if not numbered(actor, item["number"]):
                problems.append(f"{time}: seat {actor} asked for a number it did not hold")
        elif event == "go_fox" and numbered(actor, item["number"]):
            problems.append(f"{time}: seat {actor} said GO FOX! holding the number")
        elif event == "give":
            given = state.ids.index(item["card"]["id"])
            if numbered(actor, asker_number[1])[:1] != [given]:
                problems.append(f"{time}: seat {actor} did not give its first colour")
            else:
                hands[actor].remove(given)
        elif event == "pair":
            laid = [state.ids.index(card["id"]) for card in item["cards"]]
            own = laid[1:] if item["after"] == "give" else laid
            if numbered(actor, item["number"])[: len(own)] != own:
                problems.append(f"{time}: seat {actor} did not lay its first colours")
            else:
                for card in own:
                    hands[actor].remove(card)
    if [sorted(hand, key=hand_order) for hand in hands] != [list(hand) for hand in state.hands]:
        problems.append("the hands differ from what the log says")
    return problems


@pytest.mark.parametrize("players", [2, 3, 6])
def test_sampled_states_respect_every_failed_ask(players: int) -> None:
    rng = random.Random(players)
    for seed in range(2):
        for state in playout_states(players, seed, 8):
            assert broken_go_fox_facts(state) == []
            assert replayed_problems(state) == []
            for viewer in (None, 0, players - 1):
                sampled = GAME.sample(GAME.view(state, viewer), viewer, rng)
                assert failed_asks(sampled) == failed_asks(state)
                assert broken_go_fox_facts(sampled) == []
                assert replayed_problems(sampled) == []


def test_samples_re_deal_the_hidden_cards() -> None:
    state = playout_states(4, 1)[4]
    rng = random.Random(5)
    samples = [GAME.sample(GAME.view(state, 0), 0, rng) for _ in range(6)]
    assert all(sample.hands[0] == state.hands[0] for sample in samples)
    assert len({sample.hands[1:] for sample in samples}) > 1
    assert len({sample.pile for sample in samples}) > 1


def test_the_true_history_always_fits_what_the_sampler_reads_from_a_view() -> None:
    for players in (2, 4, 6):
        for seed in range(2):
            for state in playout_states(players, seed, 8):
                for viewer in (None, 0, players - 1):
                    model = hidden_model(GAME.view(state, viewer), viewer)
                    seen = [log_view(state.log, seat) for seat in range(players)]
                    card_at: dict[int, int] = {}
                    for owner, slots in model.deal_slots.items():
                        dealt = seen[owner][0]["cards"]
                        card_at.update(
                            zip(slots, (state.ids.index(card["id"]) for card in dealt), strict=True)
                        )
                    for time, slot in model.draw_slot.items():
                        drawn = seen[model.slots[slot].owner][time]["card"]
                        card_at[slot] = state.ids.index(drawn["id"])
                    card_at.update(zip(model.pile_slots, state.pile, strict=True))
                    occurrence_of = {item.card: index for index, item in enumerate(model.occurrences)}
                    filling = [occurrence_of[card_at[index]] for index in range(len(model.slots))]
                    assert (
                        violations(model.slots, model.occurrences, model.facts, model.witnesses, filling)
                        == []
                    )
