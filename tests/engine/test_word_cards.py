"""The word cards shared by Ka-Blam!, Go Fox! and Read and Grab: the word list as
data, and the re-deal of hidden cards that keeps every fact a viewer saw."""

from __future__ import annotations

import copy
import json
import random
from importlib import resources
from typing import Any

import pytest

from games.engine.log import log_view
from games.engine.word_cards import (
    CARD_COUNT,
    WORDS,
    WordListError,
    card_index,
    load_word_list,
    parse_word_list,
    public_entry,
    rebuild_ids,
    word_card_json,
    word_card_of_view,
    word_card_view,
)
from games.engine.word_cards.facts import json_object, logged
from games.engine.word_cards.hidden import (
    PILE,
    Fact,
    InconsistentView,
    Occurrence,
    Slot,
    Witness,
    redeal,
    violations,
)

RULES_TABLE = {
    "red": "cat, map, bag, hat, jam, fan, pan, van, ram, sad, tap",
    "yellow": "bed, hen, jet, leg, net, pen, ten, web, vet, wet, men",
    "green": "big, dig, fin, hid, kit, lip, pig, pin, sit, win, zip",
    "blue": "box, cot, dog, fog, hop, jog, log, mop, pot, sob, top",
    "purple": "bug, bun, cup, cut, fun, gum, hut, mud, nut, run, sun",
    "orange": "chip, chop, fish, ship, shop, thin, that, them, much, rich, moth",
}


def box_data() -> dict[str, Any]:
    text = resources.files("games.engine.word_cards").joinpath("words.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


# -- the word list --------------------------------------------------------------------------


def test_the_box_holds_the_66_words_of_the_rules_table_in_order() -> None:
    assert len(WORDS.cards) == CARD_COUNT == 66
    assert WORDS.colour_keys == tuple(RULES_TABLE)
    for colour, words in RULES_TABLE.items():
        assert [card.word for card in WORDS.cards if card.colour == colour] == words.split(", ")


def test_a_cards_index_is_its_place_in_the_box() -> None:
    card = WORDS.cards[card_index(3, 5)]
    assert (card.colour, card.number, card.word) == ("blue", 5, "hop")
    assert card.label == '"hop" (blue 5)'
    assert [card.index for card in WORDS.cards] == list(range(66))
    assert word_card_of_view(word_card_view(card, "a1b2c3d4")) == card.index


def test_a_card_view_carries_id_colour_number_and_word_and_its_json_says_the_same() -> None:
    card = WORDS.card(5, 6)
    shown = word_card_view(card, "0badcafe")
    assert shown == {"id": "0badcafe", "kind": "word", "colour": "orange", "number": 6, "word": "thin"}
    assert json.loads(word_card_json(card, "0badcafe")) == shown


def test_the_legend_gives_each_colour_its_hex_and_sound_pattern() -> None:
    legend = WORDS.legend()
    assert [entry["colour"] for entry in legend] == list(RULES_TABLE)
    assert legend[5]["pattern"] == "sh, ch, th"
    assert all(entry["hex"].startswith("#") for entry in legend)


def test_another_word_list_needs_only_data() -> None:
    data = box_data()
    data["name"], data["language"] = "Mots simples", "fr"
    data["colours"][0] = {**data["colours"][0], "colour": "rouge", "words": [f"mot{n}" for n in range(1, 12)]}
    swapped = parse_word_list(data)
    assert swapped.card(0, 3).word == "mot3" and swapped.card(0, 3).colour == "rouge"
    assert swapped.card(1, 3).word == "jet"


@pytest.mark.parametrize(
    "break_it",
    [
        lambda data: data["colours"].pop(),
        lambda data: data["colours"][2]["words"].pop(),
        lambda data: data["colours"][2]["words"].__setitem__(0, ""),
        lambda data: data["colours"][2]["words"].__setitem__(0, 7),
        lambda data: data["colours"][1].__setitem__("colour", "red"),
        lambda data: data["colours"][1].__setitem__("colour", "Not A Key"),
        lambda data: data["colours"][1].__setitem__("hex", "yellow"),
        lambda data: data.__setitem__("colours", "all of them"),
        lambda data: data.pop("name"),
    ],
)
def test_a_broken_word_list_is_refused_with_a_reason(break_it: Any) -> None:
    data = copy.deepcopy(box_data())
    break_it(data)
    with pytest.raises(WordListError) as refused:
        parse_word_list(data)
    assert str(refused.value)


def test_a_word_list_that_is_not_json_is_refused() -> None:
    with pytest.raises(WordListError):
        load_word_list("{not json")
    with pytest.raises(WordListError):
        load_word_list("[]")


# -- views read back --------------------------------------------------------------------------


def test_rebuilt_ids_keep_the_ones_a_view_showed_and_invent_distinct_others() -> None:
    ids = rebuild_ids({"aaaaaaaa": 3, "bbbbbbbb": 60}, CARD_COUNT, random.Random(1))
    assert ids[3] == "aaaaaaaa" and ids[60] == "bbbbbbbb"
    assert len(set(ids)) == CARD_COUNT
    assert ids != rebuild_ids({"aaaaaaaa": 3, "bbbbbbbb": 60}, CARD_COUNT, random.Random(2))


def test_a_public_entry_rebuilt_from_its_view_reads_the_same() -> None:
    original = logged("flip", 2, "{s2} turned over a card.", json_object(number="5", words='["jam"]'))
    shown = log_view([original], 0)[0]
    assert log_view([public_entry(shown)], 1) == log_view([original], 1)


# -- the re-deal of hidden cards ---------------------------------------------------------------


def hand_slots(owner: int, count: int, arrival: int = 0) -> list[Slot]:
    return [Slot(owner, arrival) for _ in range(count)]


def dealt(slots: list[Slot], occurrences: list[Occurrence], filled: list[int], owner: int) -> set[int]:
    return {occurrences[filled[index]].card for index, slot in enumerate(slots) if slot.owner == owner}


def test_a_re_deal_is_random_and_fills_every_slot_once() -> None:
    slots = hand_slots(0, 3) + hand_slots(1, 3)
    occurrences = [Occurrence(card) for card in range(6)]
    deals = {
        frozenset(dealt(slots, occurrences, redeal(slots, occurrences, [], [], random.Random(seed)), 0))
        for seed in range(20)
    }
    assert len(deals) > 5


def test_a_seat_known_to_hold_none_of_some_cards_is_not_dealt_them() -> None:
    slots = hand_slots(0, 2) + hand_slots(1, 2)
    occurrences = [Occurrence(card) for card in range(4)]
    facts = [Fact(0, time=5, cards=frozenset({0, 1}))]
    for seed in range(10):
        assert dealt(slots, occurrences, redeal(slots, occurrences, facts, [], random.Random(seed)), 0) == {
            2,
            3,
        }


def test_a_card_drawn_after_the_fact_may_be_one_of_those_cards() -> None:
    slots = [Slot(0, 0), Slot(0, 9), Slot(1, 0), Slot(1, 0)]
    occurrences = [Occurrence(card) for card in range(4)]
    facts = [Fact(0, time=5, cards=frozenset({0, 1, 2}))]
    seen = set()
    for seed in range(30):
        filled = redeal(slots, occurrences, facts, [], random.Random(seed))
        assert occurrences[filled[0]].card == 3  # held since before the fact
        seen.add(occurrences[filled[1]].card)
    assert seen == {0, 1, 2}


def test_a_card_played_face_up_came_from_its_players_hand_before_then() -> None:
    slots = [Slot(0, 0), Slot(0, 8), Slot(1, 0)]
    occurrences = [Occurrence(0, end=4, leaver=0), Occurrence(1), Occurrence(2)]
    for seed in range(10):
        filled = redeal(slots, occurrences, [], [], random.Random(seed))
        assert filled[0] == 0  # the only slot of seat 0 that arrived before time 4


def test_a_witness_keeps_a_fitting_card_in_its_seats_hand_across_its_time() -> None:
    slots = [Slot(0, 0), Slot(0, 0), Slot(1, 0), Slot(1, 0), Slot(PILE, 10)]
    occurrences = [Occurrence(card) for card in range(5)]
    witnesses = [Witness(0, time=3, cards=frozenset({4}))]
    for seed in range(10):
        filled = redeal(slots, occurrences, [], witnesses, random.Random(seed))
        assert 4 in dealt(slots, occurrences, filled, 0)
        assert violations(slots, occurrences, [], witnesses, filled) == []


def test_the_pile_takes_only_cards_still_hidden_and_epochs_do_not_mix() -> None:
    slots = [Slot(0, 0, epoch=0), Slot(0, 6, epoch=1), Slot(PILE, 10, epoch=1)]
    occurrences = [Occurrence(0, epoch=0), Occurrence(1, epoch=1), Occurrence(2, epoch=1)]
    for seed in range(10):
        filled = redeal(slots, occurrences, [], [], random.Random(seed))
        assert filled[0] == 0
        assert sorted(filled[1:]) == [1, 2]


def test_a_view_no_re_deal_can_agree_with_is_refused() -> None:
    slots = hand_slots(0, 2)
    occurrences = [Occurrence(0), Occurrence(1)]
    with pytest.raises(InconsistentView):
        redeal(slots, occurrences, [Fact(0, 1, frozenset({0}))], [], random.Random(1))
    with pytest.raises(InconsistentView):
        redeal(slots, occurrences[:1], [], [], random.Random(1))


def test_violations_name_what_a_filling_breaks() -> None:
    slots = [Slot(0, 0), Slot(1, 0)]
    occurrences = [Occurrence(0), Occurrence(1)]
    facts = [Fact(0, 2, frozenset({0}))]
    assert violations(slots, occurrences, facts, [], [1, 0]) == []
    assert len(violations(slots, occurrences, facts, [], [0, 1])) == 1
    assert violations(slots, occurrences, [], [Witness(1, 3, frozenset({0}))], [0, 1])
