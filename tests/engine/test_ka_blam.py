"""Ka-Blam! rules (../shared/rules/ka-blam.md), one test per rule and Ruling.

Most tests set a table up by hand (hands, the top card, the pile) from a real
starting state and play one action on it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.engine import IllegalAction
from games.engine.ka_blam import KaBlam, KaBlamState
from games.engine.ka_blam.cards import (
    CARD_COUNT,
    COLOUR,
    COLOURS,
    EXPLODING_CARD,
    KIND,
    MISS_A_TURN,
    PICK_UP_2,
    POINTS,
    REVERSE,
    WILD_CARDS,
    action_card,
    matches,
)
from games.engine.ka_blam.sample import hidden_model
from games.engine.log import log_view
from games.engine.word_cards import card_index
from games.engine.word_cards.hidden import violations
from tests.engine.playouts import play_on, random_game, spread

GAME = KaBlam()
RED, YELLOW, GREEN, BLUE, PURPLE, ORANGE = range(6)
WILD, OTHER_WILD = WILD_CARDS[:2]


def word(colour: int, number: int) -> int:
    return card_index(colour, number)


def action(colour: int, kind: str) -> int:
    return action_card(colour, kind)


def table(
    hands: list[list[int]],
    top: int,
    *,
    pile: tuple[int, ...] | None = None,
    under: tuple[int, ...] = (),
    turn: int = 0,
    colour: int | None = None,
    options: dict[str, Any] | None = None,
    state: KaBlamState | None = None,
) -> KaBlamState:
    """A state with these hands and this discard pile; by default the pile holds every
    other card but the Exploding one, in box order."""
    if state is None:
        state = GAME.new(len(hands), 7, options)
    used = {card for hand in hands for card in hand} | {top, *under}
    if pile is None:
        pile = tuple(card for card in range(CARD_COUNT) if card not in used and card != EXPLODING_CARD)
    return replace(
        state,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        pile=pile,
        discard=(top, *under),
        colour=COLOUR[top] if colour is None else colour,
        turn=turn,
        direction=1,
        passes=0,
        exploded=-1,
    )


def play(state: KaBlamState, card: int, named: str | None = None) -> KaBlamState:
    if named is None:
        return GAME.apply(state, state.turn, {"type": "play", "card": state.ids[card]})
    return GAME.apply(state, state.turn, {"type": "play_wild", "card": state.ids[card], "colour": named})


def draw(state: KaBlamState) -> KaBlamState:
    return GAME.apply(state, state.turn, {"type": "draw"})


def pass_turn(state: KaBlamState) -> KaBlamState:
    return GAME.apply(state, state.turn, {"type": "pass"})


def refusal(state: KaBlamState, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, state.turn, action)
    return refused.value.code


# -- the cards --------------------------------------------------------------------------


def test_deck_has_89_cards_with_one_of_each_action_per_colour_four_wilds_and_one_exploding() -> None:
    kinds = [KIND[card] for card in range(CARD_COUNT)]
    assert CARD_COUNT == 89
    assert kinds.count("word") == 66
    for kind in (MISS_A_TURN, PICK_UP_2, REVERSE):
        assert sorted(COLOUR[card] for card in range(CARD_COUNT) if KIND[card] == kind) == list(range(6))
    assert kinds.count("wild") == 4
    assert kinds.count("exploding") == 1


def test_word_cards_are_worth_their_number_and_every_other_card_ten() -> None:
    assert POINTS[word(RED, 7)] == 7
    assert POINTS[word(ORANGE, 11)] == 11
    assert {POINTS[card] for card in range(66, CARD_COUNT)} == {10}


# -- the deal ---------------------------------------------------------------------------


def test_each_player_is_dealt_five_cards_and_never_the_exploding_card() -> None:
    for seed in range(40):
        for players in range(2, 7):
            state = GAME.new(players, seed)
            assert [len(hand) for hand in state.hands] == [5] * players
            assert all(EXPLODING_CARD not in hand for hand in state.hands)
            assert EXPLODING_CARD in state.pile


def test_all_89_cards_are_in_play_at_the_start() -> None:
    state = GAME.new(6, 3)
    everything = [card for hand in state.hands for card in hand] + list(state.pile) + list(state.discard)
    assert sorted(everything) == list(range(CARD_COUNT))


def test_an_action_card_cannot_start_the_discard_pile_it_goes_into_the_pile() -> None:
    turned_seen = 0
    for seed in range(60):
        state = GAME.new(4, seed)
        assert KIND[state.discard[0]] == "word"
        assert state.colour == COLOUR[state.discard[0]]
        turned = [card["id"] for card in log_view(state.log, None)[1]["turned"]]
        for card_id in turned:
            card = state.ids.index(card_id)
            assert KIND[card] != "word"
            assert card in state.pile  # and no longer at the bottom: the pile was shuffled
        turned_seen += len(turned)
    assert turned_seen, "no seed turned an action card over at the start"


def test_the_player_after_the_dealer_plays_first_towards_seat_plus_one() -> None:
    state = GAME.new(4, 1)
    assert state.dealer == 0
    assert GAME.to_act(state) == [1]
    assert state.direction == 1
    after = play(table([[], [word(RED, 2), word(RED, 3)], [], []], word(RED, 5), turn=1), word(RED, 2))
    assert after.turn == 2


# -- what matches ---------------------------------------------------------------------


def test_a_word_card_matches_by_colour_or_by_number() -> None:
    top = word(RED, 5)
    assert matches(word(RED, 9), top, RED)
    assert matches(word(BLUE, 5), top, RED)
    assert not matches(word(BLUE, 9), top, RED)
    assert not matches(word(BLUE, 5), action(RED, MISS_A_TURN), RED)  # an action card has no number


def test_an_action_card_matches_by_colour_or_by_the_same_action() -> None:
    top = action(RED, PICK_UP_2)
    assert matches(action(RED, MISS_A_TURN), top, RED)
    assert matches(action(BLUE, PICK_UP_2), top, RED)  # stacking needs no special rule
    assert not matches(action(BLUE, REVERSE), top, RED)
    assert matches(action(BLUE, REVERSE), word(BLUE, 3), BLUE)


def test_a_wild_matches_anything_and_what_follows_it_must_match_the_named_colour() -> None:
    assert matches(WILD, word(RED, 5), RED)
    assert matches(WILD, OTHER_WILD, GREEN)
    state = play(
        table([[WILD, word(BLUE, 2)], [word(YELLOW, 5), word(GREEN, 1), word(GREEN, 4)]], word(RED, 5)),
        WILD,
        "green",
    )
    assert state.colour == GREEN
    assert COLOURS[state.colour] == GAME.view(state, None)["colour"] == "green"
    legal = GAME.legal_actions(state, 1)
    assert legal == [
        {"type": "play", "card": state.ids[word(GREEN, 1)]},
        {"type": "play", "card": state.ids[word(GREEN, 4)]},
    ]


def test_wild_actions_name_every_colour() -> None:
    state = table([[WILD, word(BLUE, 2)], [word(YELLOW, 5)]], word(RED, 5))
    wild_plays = [action for action in GAME.legal_actions(state, 0) if action["type"] == "play_wild"]
    assert [action["colour"] for action in wild_plays] == list(COLOURS)


# -- a turn -----------------------------------------------------------------------------


def test_a_player_who_can_play_must_play_and_may_not_draw() -> None:
    state = table([[word(RED, 2), word(BLUE, 9)], [word(YELLOW, 1)]], word(RED, 5))
    assert GAME.legal_actions(state, 0) == [{"type": "play", "card": state.ids[word(RED, 2)]}]
    assert refusal(state, {"type": "draw"}) == "must_play"
    assert refusal(state, {"type": "pass"}) == "must_play"


def test_a_player_holding_a_wild_can_never_draw() -> None:
    state = table([[WILD, word(BLUE, 9)], [word(YELLOW, 1)]], word(RED, 5))
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"play_wild"}
    assert refusal(state, {"type": "draw"}) == "must_play"


def test_a_player_who_cannot_play_draws_one_card_and_the_turn_ends_even_if_it_matches() -> None:
    state = table(
        [[word(BLUE, 9)], [word(YELLOW, 1)], [word(GREEN, 2)]],
        word(RED, 5),
        pile=(word(RED, 7), word(RED, 8)),
    )
    assert GAME.legal_actions(state, 0) == [{"type": "draw"}]
    after = draw(state)
    assert after.hands[0] == (word(RED, 7), word(BLUE, 9))
    assert after.pile == (word(RED, 8),)
    assert after.turn == 1


def test_cards_that_do_not_match_or_are_not_held_are_refused() -> None:
    state = table([[word(RED, 2), word(BLUE, 9)], [word(YELLOW, 1)]], word(RED, 5))
    assert refusal(state, {"type": "play", "card": state.ids[word(BLUE, 9)]}) == "does_not_match"
    assert refusal(state, {"type": "play", "card": state.ids[word(YELLOW, 1)]}) == "no_such_card"
    assert refusal(state, {"type": "play", "card": "nonsense"}) == "no_such_card"


def test_a_wild_is_played_with_play_wild_and_only_a_wild_names_a_colour() -> None:
    state = table([[WILD, word(RED, 2)], [word(YELLOW, 1)]], word(RED, 5))
    assert refusal(state, {"type": "play", "card": state.ids[WILD]}) == "name_a_colour"
    assert (
        refusal(state, {"type": "play_wild", "card": state.ids[word(RED, 2)], "colour": "blue"})
        == "not_a_wild"
    )
    assert refusal(state, {"type": "play_wild", "card": state.ids[WILD], "colour": "pink"}) == "bad_field"


# -- action cards -------------------------------------------------------------------------


def test_miss_a_turn_skips_the_next_player() -> None:
    state = table([[action(RED, MISS_A_TURN), word(BLUE, 3)], [word(RED, 1)], [word(RED, 2)]], word(RED, 5))
    after = play(state, action(RED, MISS_A_TURN))
    assert after.turn == 2
    assert log_view(after.log, None)[-1]["event"] == "miss"


def test_pick_up_2_makes_the_next_player_draw_two_and_miss_their_turn() -> None:
    pile = (word(GREEN, 1), word(GREEN, 2), word(GREEN, 3))
    state = table(
        [[action(RED, PICK_UP_2), word(BLUE, 3)], [word(RED, 1)], [word(RED, 2)]], word(RED, 5), pile=pile
    )
    after = play(state, action(RED, PICK_UP_2))
    assert after.hands[1] == tuple(sorted((word(RED, 1), word(GREEN, 1), word(GREEN, 2))))
    assert after.pile == (word(GREEN, 3),)
    assert after.turn == 2


def test_pick_up_2_with_one_card_left_to_draw_draws_it_and_still_misses_the_turn() -> None:
    # The pile is empty; the reshuffle can only give the card the Pick Up 2 covered.
    state = table(
        [[action(RED, PICK_UP_2), word(BLUE, 3)], [word(BLUE, 1)], [word(RED, 2)]], word(RED, 5), pile=()
    )
    after = play(state, action(RED, PICK_UP_2))
    assert after.hands[1] == (word(RED, 5), word(BLUE, 1))
    assert after.pile == () and after.discard == (action(RED, PICK_UP_2),)
    assert after.turn == 2


def test_a_matching_pick_up_2_can_be_played_on_a_pick_up_2() -> None:
    state = table(
        [[], [action(BLUE, PICK_UP_2), word(GREEN, 3)], [word(RED, 2)]], action(RED, PICK_UP_2), turn=1
    )
    assert {"type": "play", "card": state.ids[action(BLUE, PICK_UP_2)]} in GAME.legal_actions(state, 1)
    after = play(state, action(BLUE, PICK_UP_2))
    assert len(after.hands[2]) == 3 and after.turn == 0


def test_reverse_turns_play_around_with_three_or_more_players() -> None:
    state = table(
        [[action(RED, REVERSE), word(BLUE, 3)], [word(RED, 1)], [word(RED, 2), word(RED, 3)]], word(RED, 5)
    )
    after = play(state, action(RED, REVERSE))
    assert after.direction == -1
    assert after.turn == 2
    assert play(after, word(RED, 2)).turn == 1


def test_reverse_with_two_players_acts_as_miss_a_turn() -> None:
    state = table([[action(RED, REVERSE), word(BLUE, 3)], [word(RED, 1)]], word(RED, 5))
    after = play(state, action(RED, REVERSE))
    assert after.turn == 0
    assert after.direction == 1


def test_reverse_with_two_players_left_after_an_explosion_acts_as_miss_a_turn() -> None:
    state = table([[action(RED, REVERSE), word(BLUE, 3)], [word(RED, 1)], [EXPLODING_CARD]], word(RED, 5))
    state = replace(state, exploded=2)
    assert play(state, action(RED, REVERSE)).turn == 0


# -- the Exploding card --------------------------------------------------------------------


def test_drawing_the_exploding_card_puts_the_player_out_of_the_round_with_their_hand() -> None:
    state = table(
        [[word(BLUE, 9)], [word(RED, 1), word(RED, 2)], [word(RED, 3), word(RED, 4)]],
        word(RED, 5),
        pile=(EXPLODING_CARD, word(GREEN, 1)),
    )
    after = draw(state)
    assert after.exploded == 0
    assert after.hands[0] == (word(BLUE, 9), EXPLODING_CARD)
    assert after.turn == 1
    others = GAME.view(after, 1)
    assert others["exploded"] == 0 and others["hand_sizes"][0] == 2
    assert after.ids[word(BLUE, 9)] not in json.dumps(others)  # shown only when the round is scored
    after = play(play(after, word(RED, 1)), word(RED, 3))
    assert after.turn == 1  # seat 0 is skipped from now on
    public = log_view(after.log, 2)
    exploded = next(item for item in public if item["event"] == "explode")
    assert exploded["card"]["kind"] == "exploding"
    assert exploded["seat"] == 0


def test_pick_up_2_stops_at_once_at_the_exploding_card() -> None:
    state = table(
        [[action(RED, PICK_UP_2), word(BLUE, 3)], [word(BLUE, 1)], [word(RED, 2)]],
        word(RED, 5),
        pile=(EXPLODING_CARD, word(GREEN, 1), word(GREEN, 2)),
    )
    after = play(state, action(RED, PICK_UP_2))
    assert after.hands[1] == tuple(sorted((word(BLUE, 1), EXPLODING_CARD)))
    assert after.pile == (word(GREEN, 1), word(GREEN, 2))
    assert after.exploded == 1
    assert after.turn == 2


def test_with_two_players_the_other_player_wins_when_one_explodes() -> None:
    state = table([[word(BLUE, 9), word(GREEN, 2)], [word(RED, 1)]], word(RED, 5), pile=(EXPLODING_CARD,))
    after = draw(state)
    assert after.round == 2
    assert after.rounds[0].winner == 1
    assert after.rounds[0].reason == "explosion"
    assert after.scores == (0, 9 + 2 + 10)  # the Exploding card is worth 10 to its victim's opponent


def test_the_exploding_card_never_goes_back_into_the_pile() -> None:
    state = table(
        [[word(BLUE, 9)], [word(GREEN, 1)], [word(BLUE, 3), word(BLUE, 4)]],
        word(RED, 5),
        pile=(word(GREEN, 7),),
        under=(word(RED, 6), word(RED, 7)),
    )
    state = replace(state, hands=(state.hands[0] + (EXPLODING_CARD,), *state.hands[1:]), exploded=0, turn=1)
    after = draw(draw(state))  # seat 1 takes the last card, seat 2 must reshuffle
    assert EXPLODING_CARD not in after.pile
    assert EXPLODING_CARD in after.hands[0]


# -- the pick-up pile ---------------------------------------------------------------------


def test_an_empty_pile_is_refilled_from_the_discard_pile_but_its_top_card() -> None:
    under = (word(RED, 6), word(RED, 7), word(RED, 8))
    state = table([[word(BLUE, 9)], [word(GREEN, 1)]], word(RED, 5), pile=(), under=under)
    after = draw(state)
    assert after.discard == (word(RED, 5),)
    assert len(after.pile) == 2
    assert sorted(after.pile + after.hands[0]) == sorted((*under, word(BLUE, 9)))
    assert any(item["event"] == "reshuffle" for item in log_view(after.log, None))


def test_with_nothing_to_draw_the_player_passes() -> None:
    state = table([[word(BLUE, 9)], [word(GREEN, 1)], [word(GREEN, 2)]], word(RED, 5), pile=())
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    assert refusal(state, {"type": "draw"}) == "nothing_to_draw"
    after = pass_turn(state)
    assert after.turn == 1
    assert after.passes == 1
    can_draw = table([[word(BLUE, 9)], [word(GREEN, 1)]], word(RED, 5), pile=(word(GREEN, 3),))
    assert refusal(can_draw, {"type": "pass"}) == "must_draw"


def test_when_every_player_in_the_round_passes_the_lowest_hand_wins_it() -> None:
    hands = [[word(BLUE, 3), word(BLUE, 4)], [word(GREEN, 2)], [word(PURPLE, 9)]]
    state = table(hands, word(RED, 5), pile=())
    state = pass_turn(pass_turn(state))
    assert state.round == 1 and state.passes == 2
    state = pass_turn(state)
    assert state.round == 2
    assert state.rounds[0].reason == "all_passed"
    assert state.rounds[0].winner == 1
    assert state.scores == (0, 7 + 9, 0)


def test_a_play_or_a_draw_breaks_a_run_of_passes() -> None:
    state = table([[word(BLUE, 3)], [word(GREEN, 2), word(RED, 2)], [word(PURPLE, 9)]], word(RED, 5), pile=())
    state = play(pass_turn(state), word(RED, 2))
    assert state.passes == 0


def test_an_all_pass_tie_goes_to_fewer_cards_then_to_the_first_in_turn_order() -> None:
    # All three hands are worth 3; seats 0 and 2 hold one card each.
    hands = [[word(BLUE, 3)], [word(GREEN, 1), word(GREEN, 2)], [word(PURPLE, 3)]]
    state = table(hands, word(RED, 5), pile=(), turn=1)
    state = pass_turn(pass_turn(pass_turn(state)))  # seats 1, 2, 0: seat 1 would play next
    assert state.rounds[0].winner == 2


# -- the end of a round and scoring ----------------------------------------------------------


def test_the_first_to_empty_their_hand_wins_and_the_last_cards_effect_is_ignored() -> None:
    state = table([[action(RED, PICK_UP_2)], [word(BLUE, 1)], [word(GREEN, 2), word(GREEN, 3)]], word(RED, 5))
    after = play(state, action(RED, PICK_UP_2))
    finished = after.rounds[0]
    assert finished.winner == 0 and finished.reason == "empty_hand"
    assert finished.hands[1] == (word(BLUE, 1),)  # no Pick Up 2
    assert after.scores == (1 + 2 + 3, 0, 0)


def test_the_winner_scores_every_other_hand_the_exploded_one_and_its_exploding_card_included() -> None:
    state = table([[word(RED, 1)], [word(BLUE, 3)], [word(RED, 9), EXPLODING_CARD]], word(RED, 5))
    state = replace(state, exploded=2)
    after = play(state, word(RED, 1))
    assert after.scores == (3 + 9 + 10, 0, 0)


def test_the_rulebook_scoring_example_43_plus_36_plus_22_makes_101() -> None:
    """Lin Li (seat 0) and Helena (seat 1); the long game ends at 100 points."""

    def helena_goes_out(state: KaBlamState, lin_li: list[int]) -> KaBlamState:
        return play(table([lin_li, [word(RED, 3)]], word(RED, 5), turn=1, state=state), word(RED, 3))

    def lin_li_goes_out(state: KaBlamState, helena: list[int]) -> KaBlamState:
        return play(table([[word(RED, 3)], helena], word(RED, 5), turn=0, state=state), word(RED, 3))

    state = GAME.new(2, 1)
    state = helena_goes_out(
        state, [word(RED, 11), word(BLUE, 11), word(GREEN, 11), action(BLUE, MISS_A_TURN)]
    )
    assert state.scores == (0, 43)
    state = lin_li_goes_out(state, [word(RED, 10), word(YELLOW, 9), word(GREEN, 7), word(BLUE, 4)])
    assert state.scores == (30, 43)
    state = helena_goes_out(state, [word(BLUE, 9), word(YELLOW, 9), word(GREEN, 8), action(GREEN, REVERSE)])
    assert state.scores == (30, 79)
    assert GAME.result(state) is None
    state = helena_goes_out(state, [word(BLUE, 7), word(YELLOW, 7), word(GREEN, 8)])
    assert state.scores == (30, 101)
    assert GAME.result(state) == {"scores": [30, 101], "ranks": [2, 1]}
    assert GAME.to_act(state) == []


def test_a_short_game_is_one_round_whose_winner_is_first_and_everyone_else_second() -> None:
    state = table(
        [[word(RED, 1)], [word(BLUE, 3)], [word(GREEN, 4)]], word(RED, 5), options={"length": "short"}
    )
    after = play(state, word(RED, 1))
    assert GAME.to_act(after) == []
    assert GAME.result(after) == {"scores": [7, 0, 0], "ranks": [1, 2, 2]}


def test_a_long_game_deals_a_new_round_with_the_next_dealer_until_someone_reaches_the_target() -> None:
    state = table([[word(RED, 1)], [word(BLUE, 3)], [word(GREEN, 4)]], word(RED, 5), options={"target": 10})
    after = play(state, word(RED, 1))
    assert after.round == 2 and after.dealer == 1 and after.turn == 2
    assert [len(hand) for hand in after.hands] == [5, 5, 5]
    in_play = [card for hand in after.hands for card in hand] + [*after.pile, *after.discard]
    assert sorted(in_play) == list(range(CARD_COUNT))
    assert log_view(after.log, None)[0]["event"] == "deal"
    state = table([[word(RED, 1)], [word(BLUE, 3)], [word(GREEN, 7)]], word(RED, 5), state=after, turn=0)
    assert GAME.result(play(state, word(RED, 1))) == {"scores": [7 + 10, 0, 0], "ranks": [1, 2, 2]}


def test_target_is_a_whole_number_from_10_to_300_defaulting_to_100() -> None:
    assert GAME.new(2, 1).target == 100
    assert GAME.new(2, 1).length == "long"
    assert GAME.new(2, 1, {"target": 300}).target == 300
    for bad in (9, 301, "100", 1.5):
        with pytest.raises(IllegalAction) as refused:
            GAME.new(2, 1, {"target": bad})
        assert refused.value.code == "bad_option"


# -- views -----------------------------------------------------------------------------------


def test_hands_are_private_their_sizes_public_and_the_pile_hidden() -> None:
    state = GAME.new(4, 5)
    turned = {card["id"] for card in log_view(state.log, None)[1]["turned"]}
    for viewer in (None, 0, 1, 2, 3):
        shown = GAME.view(state, viewer)
        text = json.dumps(shown)
        assert shown["hand_sizes"] == [5, 5, 5, 5]
        assert shown["pile_size"] == len(state.pile)
        for seat, hand in enumerate(state.hands):
            for card in hand:
                assert (state.ids[card] in text) == (seat == viewer)
        hidden_pile = [state.ids[card] for card in state.pile if state.ids[card] not in turned]
        assert not any(card_id in text for card_id in hidden_pile)
    assert GAME.view(state, None)["hand"] is None
    assert [card["id"] for card in GAME.view(state, 2)["hand"]] == [
        state.ids[card] for card in state.hands[2]
    ]


def test_a_drawn_card_shows_only_to_its_drawer() -> None:
    # An empty log: the deal's entry would show seat 1 its real first hand.
    state = table(
        [[word(BLUE, 9)], [word(GREEN, 1)], [word(GREEN, 2)]],
        word(RED, 5),
        pile=(word(PURPLE, 4),),
        state=replace(GAME.new(3, 7), log=()),
    )
    after = draw(state)
    mine = log_view(after.log, 0)[-1]
    theirs = log_view(after.log, 1)[-1]
    assert mine["card"]["word"] == "cut" and mine["words"] == ["cut"]
    assert "card" not in theirs and theirs["words"] == []
    assert theirs["text"] == "{s0} drew a card."
    assert state.ids[word(PURPLE, 4)] not in json.dumps(GAME.view(after, 1))


def test_every_card_and_log_entry_in_a_view_carries_its_word_or_label() -> None:
    state = play_on(GAME, GAME.new(3, 11), random.Random(3), first_seat=True, stop_after=60).final
    shown = GAME.view(state, 0)
    cards = [shown["top"], *shown["hand"], *shown["discard"]]
    for item in shown["log"]:
        assert isinstance(item["words"], list)
        cards.extend(item.get("cards", []))
        if "card" in item:
            cards.append(item["card"])
    for card in cards:
        assert card["label"]
        assert (card["word"] is not None) == (card["kind"] == "word")
        if card["kind"] == "word":
            assert card["label"] == card["word"]
    plays = [item for item in shown["log"] if item["event"] == "play"]
    assert plays and all(item["words"] == [item["card"]["label"]] for item in plays)


def test_every_hand_is_shown_when_a_round_is_scored() -> None:
    state = table([[word(RED, 1)], [word(BLUE, 3), EXPLODING_CARD], [word(GREEN, 4)]], word(RED, 5))
    after = play(replace(state, exploded=1), word(RED, 1))
    shown = GAME.view(after, 2)["rounds"][0]
    assert [[card["label"] for card in hand] for hand in shown["hands"]] == [[], ["dog", "KA-BLAM!"], ["hid"]]
    assert shown["values"] == [0, 13, 4]
    assert shown["exploded"] == 1


# -- random play ends ------------------------------------------------------------------------


def test_random_long_games_with_six_players_end() -> None:
    for seed in range(4):
        state = random_game(GAME, 6, seed, first_seat=True, max_actions=20_000).final
        assert GAME.result(state) is not None
        assert max(state.scores) >= 100


# -- sampling: the hidden history agrees with everything seen ------------------------------


def playout_states(players: int, seed: int, count: int = 8) -> list[KaBlamState]:
    """About ``count`` states spread over a random long game, its end included."""
    return spread(random_game(GAME, players, seed, first_seat=True).states, count)


def true_filling(state: KaBlamState, viewer: int | None) -> tuple[Any, list[int]]:
    """The sampler's model of a view, and the filling the true state gives it."""
    model = hidden_model(GAME.view(state, viewer), viewer)
    # The four Wilds look alike: the model numbers the ones it saw in its own order.
    unseen_wilds = iter(sorted(set(WILD_CARDS) - set(model.known.values())))
    as_modelled = {
        card: model.known.get(state.ids[card]) or (next(unseen_wilds) if card in WILD_CARDS else card)
        for card in range(CARD_COUNT)
    }

    def card_of(card_id: str) -> int:
        return as_modelled[state.ids.index(card_id)]

    seen = [log_view(state.log, seat) for seat in range(state.players)]
    card_at: dict[int, int] = {}
    for owner, slots in model.deal_slots.items():
        dealt = [card_of(card["id"]) for card in seen[owner][0]["cards"]]
        card_at.update(zip(slots, dealt, strict=True))
    for time, slot in model.draw_slot.items():
        card_at[slot] = card_of(seen[model.slots[slot].owner][time]["card"]["id"])
    card_at.update(zip(model.pile_slots, (as_modelled[card] for card in state.pile), strict=True))
    by_card_and_epoch = {(item.card, item.epoch): index for index, item in enumerate(model.occurrences)}
    return model, [by_card_and_epoch[(card_at[index], slot.epoch)] for index, slot in enumerate(model.slots)]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_true_history_always_fits_what_the_sampler_reads_from_a_view(players: int) -> None:
    for seed in range(3):
        for state in playout_states(players, seed):
            for viewer in (None, 0, players - 1):
                model, filling = true_filling(state, viewer)
                assert violations(model.slots, model.occurrences, model.facts, (), filling) == []


def replay_hands(state: KaBlamState) -> list[str]:
    """Replay the round's log as each seat saw it and list every broken fact:
    a draw or a pass while holding a playable card, a card played that was not held,
    a hand that differs from the state's."""
    problems = []
    players = state.players
    hands: list[list[int]] = [[] for _ in range(players)]
    seen = [log_view(state.log, seat) for seat in range(players)]
    top, colour = -1, -1
    for time, item in enumerate(seen[0]):
        event, actor = item["event"], item["seat"]
        if event == "deal":
            for seat in range(players):
                hands[seat] = [state.ids.index(card["id"]) for card in seen[seat][time]["cards"]]
        elif event == "start":
            top = state.ids.index(item["card"]["id"])
            colour = COLOUR[top]
        elif event == "play":
            card = state.ids.index(item["card"]["id"])
            if card not in hands[actor]:
                problems.append(f"{time}: seat {actor} played a card it did not hold")
            else:
                hands[actor].remove(card)
            top, colour = card, COLOURS.index(item["colour"])
        elif event in ("draw", "explode"):
            forced = item["reason"] == "no_play"
            if forced and any(matches(card, top, colour) for card in hands[actor]):
                problems.append(f"{time}: seat {actor} drew while holding a playable card")
            hands[actor].append(state.ids.index(seen[actor][time]["card"]["id"]))
        elif event == "pass" and any(matches(card, top, colour) for card in hands[actor]):
            problems.append(f"{time}: seat {actor} passed while holding a playable card")
    if [sorted(hand) for hand in hands] != [list(hand) for hand in state.hands]:
        problems.append("the hands differ from what the log says")
    return problems


@pytest.mark.parametrize("players", [2, 4, 6])
def test_sampled_states_have_a_history_in_which_every_draw_and_pass_was_forced(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        for state in playout_states(players, seed):
            assert replay_hands(state) == []
            for viewer in (None, 0, 1):
                sampled = GAME.sample(GAME.view(state, viewer), viewer, rng)
                assert replay_hands(sampled) == []


def faces(cards: Any) -> Counter[int]:
    """Cards as a multiset of what they show (the four Wilds look alike)."""
    return Counter(WILD if card in WILD_CARDS else card for card in cards)


def test_sampled_piles_after_a_reshuffle_hold_only_cards_of_that_reshuffle() -> None:
    rng = random.Random(4)
    checked = 0
    for seed in range(4):
        for state in playout_states(3, seed, 20):
            reshuffled: set[int] = set()
            discard: list[int] = []
            for item in log_view(state.log, None):
                if "card" in item and item["event"] in ("start", "play"):
                    discard.insert(0, state.ids.index(item["card"]["id"]))
                elif item["event"] == "reshuffle":
                    reshuffled, discard = set(discard[1:]), discard[:1]
            if not reshuffled or not GAME.to_act(state):
                continue
            checked += 1
            for viewer in (None, 0):
                sampled = GAME.sample(GAME.view(state, viewer), viewer, rng)
                assert faces(sampled.pile) <= faces(reshuffled)
    assert checked


def test_sampled_states_keep_the_exploding_card_in_the_pile_until_someone_draws_it() -> None:
    rng = random.Random(2)
    for seed in range(5):
        state = GAME.new(4, seed)
        for viewer in (None, 1):
            sampled = GAME.sample(GAME.view(state, viewer), viewer, rng)
            assert EXPLODING_CARD in sampled.pile
            assert all(EXPLODING_CARD not in hand for hand in sampled.hands)
