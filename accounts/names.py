"""The names players are shown by: how a display name is cleaned, and when two names are too alike.

A name is *normalised* before it is stored: Unicode NFKC (full-width and other
compatibility letters become plain ones), characters that draw nothing removed,
whitespace collapsed. Two names *clash* when a reader could take one for the other:
the same letters in another case, with accents, with spaces or punctuation moved, or
with look-alike letters from another script. A new name may not clash with any other
account's display name or username, bots' included.
"""

from __future__ import annotations

import string
import unicodedata
from typing import NamedTuple

from django.core.exceptions import ValidationError

from accounts.models import User

# Characters that draw nothing but are not format (Cf) or control (Cc) characters,
# which are removed by category: the rest of Unicode's Default_Ignorable_Code_Point
# (the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, variation
# selectors) and the Braille blank. Hangul fillers are a known way to make a blank name.
_INVISIBLE = frozenset(
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0}
    | {*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}  # variation selectors
)
# Control, format, surrogate, private-use and unassigned code points.
_REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

# Look-alikes of Latin letters, each mapped to the letter it passes for: a hand-picked
# subset of Unicode's confusables.txt (UTS #39, "confusable detection") covering the
# Greek, Cyrillic and Latin-extension letters that look the same in common fonts,
# plus the digits 0 and 1. Capitals and small letters are listed apart because they
# can pass for different letters (capital eta is an H, small eta an n). Anything NFKC
# already folds (full-width, mathematical and circled letters) needs no entry. As in
# confusables.txt, I, 1 and | all pass for a small l.
_LOOKALIKES = {
    "GREEK CAPITAL LETTER ALPHA": "A",
    "GREEK CAPITAL LETTER BETA": "B",
    "GREEK CAPITAL LETTER EPSILON": "E",
    "GREEK CAPITAL LETTER ZETA": "Z",
    "GREEK CAPITAL LETTER ETA": "H",
    "GREEK CAPITAL LETTER IOTA": "l",
    "GREEK CAPITAL LETTER KAPPA": "K",
    "GREEK CAPITAL LETTER MU": "M",
    "GREEK CAPITAL LETTER NU": "N",
    "GREEK CAPITAL LETTER OMICRON": "O",
    "GREEK CAPITAL LETTER RHO": "P",
    "GREEK CAPITAL LETTER TAU": "T",
    "GREEK CAPITAL LETTER UPSILON": "Y",
    "GREEK CAPITAL LETTER CHI": "X",
    "GREEK SMALL LETTER ALPHA": "a",
    "GREEK SMALL LETTER GAMMA": "y",
    "GREEK SMALL LETTER ETA": "n",
    "GREEK SMALL LETTER IOTA": "i",
    "GREEK SMALL LETTER NU": "v",
    "GREEK SMALL LETTER OMICRON": "o",
    "GREEK SMALL LETTER RHO": "p",
    "GREEK SMALL LETTER UPSILON": "u",
    "GREEK SMALL LETTER CHI": "x",
    "GREEK SMALL LETTER OMEGA": "w",
    "CYRILLIC CAPITAL LETTER A": "A",
    "CYRILLIC CAPITAL LETTER VE": "B",
    "CYRILLIC CAPITAL LETTER IE": "E",
    "CYRILLIC CAPITAL LETTER KA": "K",
    "CYRILLIC CAPITAL LETTER EM": "M",
    "CYRILLIC CAPITAL LETTER EN": "H",
    "CYRILLIC CAPITAL LETTER O": "O",
    "CYRILLIC CAPITAL LETTER ER": "P",
    "CYRILLIC CAPITAL LETTER ES": "C",
    "CYRILLIC CAPITAL LETTER TE": "T",
    "CYRILLIC CAPITAL LETTER U": "Y",
    "CYRILLIC CAPITAL LETTER HA": "X",
    "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I": "l",
    "CYRILLIC CAPITAL LETTER JE": "J",
    "CYRILLIC CAPITAL LETTER DZE": "S",
    "CYRILLIC CAPITAL LETTER STRAIGHT U": "Y",
    "CYRILLIC CAPITAL LETTER SHHA": "H",
    "CYRILLIC LETTER PALOCHKA": "l",
    "CYRILLIC SMALL LETTER A": "a",
    "CYRILLIC SMALL LETTER IE": "e",
    "CYRILLIC SMALL LETTER O": "o",
    "CYRILLIC SMALL LETTER ER": "p",
    "CYRILLIC SMALL LETTER ES": "c",
    "CYRILLIC SMALL LETTER U": "y",
    "CYRILLIC SMALL LETTER HA": "x",
    "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I": "i",
    "CYRILLIC SMALL LETTER JE": "j",
    "CYRILLIC SMALL LETTER DZE": "s",
    "CYRILLIC SMALL LETTER SHHA": "h",
    "CYRILLIC SMALL LETTER KOMI DE": "d",
    "CYRILLIC SMALL LETTER QA": "q",
    "CYRILLIC SMALL LETTER WE": "w",
    "CYRILLIC SMALL LETTER STRAIGHT U": "y",
    "CYRILLIC SMALL LETTER PALOCHKA": "l",
    "LATIN SMALL LETTER DOTLESS I": "i",
    "LATIN SMALL LETTER DOTLESS J": "j",
    "LATIN SMALL LETTER ALPHA": "a",
    "LATIN SMALL LETTER SCRIPT G": "g",
    "ARMENIAN SMALL LETTER OH": "o",
    "LATIN CAPITAL LETTER I": "l",
    "DIGIT ZERO": "o",
    "DIGIT ONE": "l",
    "VERTICAL LINE": "l",
}
CONFUSABLES = {ord(unicodedata.lookup(name)): latin for name, latin in _LOOKALIKES.items()}

BOT_WORD = "bot"
# Several bots of one level at a table are told apart by a letter after their name, in
# seat order: "Basic Bot A", "Basic Bot B" (games/services/matches.py).
BOT_SEAT_LETTERS = string.ascii_uppercase


class NameKeys(NamedTuple):
    """What two names are compared by; they clash if either key is the same.

    ``folded`` ignores case, accents, spaces and punctuation ("Bob" = "b.ó.b"). ``looks``
    also maps look-alikes before folding case ("Bob" with a Cyrillic o = "Bob", "BiII" = "Bill").
    Two keys, because one cannot do both: folding case first would lose that a capital
    eta looks like H, and mapping first would map "I" but not "i" to l, so "Ian" and "ian"
    would no longer meet.
    """

    folded: str
    looks: str

    def clash(self, other: NameKeys) -> bool:
        return self.folded == other.folded or self.looks == other.looks


def normalise(raw: str) -> str:
    """``raw`` as it is stored and shown: NFKC, invisible characters removed, spaces collapsed."""
    text = unicodedata.normalize("NFKC", raw)
    kept = []
    for char in text:
        if char.isspace():
            kept.append(" ")
        elif ord(char) not in _INVISIBLE and unicodedata.category(char) not in _REMOVED_CATEGORIES:
            kept.append(char)
    # Again: removing a joiner can leave a letter and an accent that NFKC now composes.
    return " ".join(unicodedata.normalize("NFKC", "".join(kept)).split())


def _words(text: str, *, map_lookalikes: bool) -> list[str]:
    text = _without_marks(normalise(text))
    if map_lookalikes:
        text = text.translate(CONFUSABLES)
    text = _without_marks(text.casefold())
    return "".join(" " if unicodedata.category(char)[0] in "PZ" else char for char in text).split()


def _without_marks(text: str) -> str:
    return "".join(
        char for char in unicodedata.normalize("NFD", text) if unicodedata.category(char)[0] != "M"
    )


def name_keys(name: str) -> NameKeys:
    return NameKeys(
        folded="".join(_words(name, map_lookalikes=False)), looks="".join(_words(name, map_lookalikes=True))
    )


def bot_seat_name(name: str, number: int) -> str:
    """The name of the ``number``-th (from 0) of several seats one bot plays in a match."""
    return f"{name} {BOT_SEAT_LETTERS[number]}"


def ends_in_bot(name: str) -> bool:
    """Whether the name ends as a bot's does: its last word reads "Bot", however it is
    spelt ("Sneaky B0T" with a Greek B), or "Bot" and one letter ("Basic Bot A", as a
    bot is named at a table with several of it)."""
    words = _words(name, map_lookalikes=True)
    if len(words) > 1 and len(words[-1]) == 1:
        words = words[:-1]
    return bool(words) and words[-1] == BOT_WORD


def _first_clash(keys: NameKeys, *, exclude_pk: int | None) -> User | None:
    """The account whose display name or username clashes with ``keys``, bots first.

    Names are compared in Python, since no database index knows look-alikes: one pass
    over the accounts, which is cheap at this site's size and happens only when a name
    is chosen.
    """
    accounts = User.objects.order_by("-is_bot", "pk").only("pk", "username", "display_name", "is_bot")
    if exclude_pk is not None:
        accounts = accounts.exclude(pk=exclude_pk)
    for account in accounts.iterator(chunk_size=2000):
        names = [account.username, account.display_name] if account.display_name else [account.username]
        if account.is_bot:
            # Also as it is named at a table with several of it ("BasicBotA" reads as "Basic Bot A").
            names += [bot_seat_name(account.public_name, number) for number in range(len(BOT_SEAT_LETTERS))]
        if any(keys.clash(name_keys(name)) for name in names):
            return account
    return None


def display_name_checked(raw: str, *, user: User) -> str:
    """The display name ``user`` asks for, normalised; raises ``ValidationError`` saying why not.

    An empty name is allowed: the username is shown instead. A name the user already
    has is kept even if it would not pass today (it predates the rules; a user keeping
    their name must still be able to save their settings).
    """
    if not raw.strip():
        return ""
    name = normalise(raw)
    if not name:
        raise ValidationError("That name has no visible letters in it.", code="invisible_name")
    # The saved name, not ``user.display_name``: a model form has already set that to the new one.
    if name == User.objects.filter(pk=user.pk).values_list("display_name", flat=True).first():
        return name
    keys = name_keys(name)
    if not keys.folded:
        raise ValidationError("A name needs at least one letter, digit or symbol.", code="no_letters")
    if ends_in_bot(name):
        raise ValidationError(
            "Names ending in “Bot” (or “Bot” and a letter) are kept for the site's bots.", code="bot_name"
        )
    _refuse_clash(keys, exclude_pk=user.pk, what="That name")
    return name


def username_checked(username: str) -> None:
    """Refuse a new username that another account's name could be taken for (it is shown
    as the player's name until they choose a display name)."""
    _refuse_clash(name_keys(username), exclude_pk=None, what="That username")


def _refuse_clash(keys: NameKeys, *, exclude_pk: int | None, what: str) -> None:
    other = _first_clash(keys, exclude_pk=exclude_pk)
    if other is None:
        return
    if other.is_bot:
        raise ValidationError(
            f"{what} looks too much like the name of one of the site's bots.", code="bot_lookalike"
        )
    raise ValidationError(
        f"{what} looks too much like another player's name: please choose another.", code="name_taken"
    )
