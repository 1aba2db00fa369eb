"""The word cards shared by Ka-Blam!, Go Fox! and Read and Grab (see word_list.py)."""

from games.engine.word_cards.view import (
    cards_in,
    public_entry,
    rebuild_ids,
    word_card_json,
    word_card_of_view,
    word_card_view,
    word_json,
)
from games.engine.word_cards.word_list import (
    CARD_COUNT,
    COLOUR_COUNT,
    NUMBERS,
    WORDS,
    Colour,
    WordCard,
    WordList,
    WordListError,
    card_index,
    load_word_list,
    parse_word_list,
)

__all__ = [
    "CARD_COUNT",
    "COLOUR_COUNT",
    "NUMBERS",
    "WORDS",
    "Colour",
    "WordCard",
    "WordList",
    "WordListError",
    "card_index",
    "cards_in",
    "load_word_list",
    "parse_word_list",
    "public_entry",
    "rebuild_ids",
    "word_card_json",
    "word_card_of_view",
    "word_card_view",
    "word_json",
]
