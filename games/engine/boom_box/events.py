"""The log entries of Boom Box, built in one place.

Only two events carry private facts: a Start Line (which boxes the player set
aside) and a removed box (what it held, told to its owner alone). The sampler
rebuilds those two from the boxes it re-deals, so both are built here by
functions that take exactly the facts they need.

Texts name a box by its letter (``state.box_names``), never by its id: ids are for
programs, and stay in the facts.
"""

from __future__ import annotations

from games.engine.boom_box.state import BOOM, CONTENT_NAMES, Box, line_letters
from games.engine.log import LogEntry, entry

CONTENT_WORDS = {BOOM: "a Boom", 1: "one gem", 2: "two gems"}


def deal_entry() -> LogEntry:
    return entry(
        "deal", None, "Every troll gets six boxes in their colour and chooses four for a Start Line."
    )


def start_line_entry(seat: int, line: tuple[str, ...], set_aside: tuple[Box, ...]) -> LogEntry:
    letters = _joined(list(line_letters(seat)[: len(line)]))
    held = _joined([CONTENT_WORDS[box.gems] for box in set_aside])
    return entry(
        "start_line",
        seat,
        f"{{s{seat}}} laid out a Start Line of four boxes: {letters}.",
        public={"start_line": list(line)},
        private={
            seat: (
                f"You laid out your Start Line, boxes {letters}, and set aside two boxes holding {held}.",
                {"set_aside": [box.id for box in set_aside]},
            )
        },
    )


def _joined(words: list[str]) -> str:
    """Words as a list: "A, B, C and D"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def first_player_entry(seat: int) -> LogEntry:
    return entry(
        "first_player",
        seat,
        f"{{s{seat}}} last saw the Moon and goes first.",
        public={"starting_seat": seat},
    )


def pass_entry(giver: int, receiver: int, box_id: str, name: str, claim: str) -> LogEntry:
    said = "a gem" if claim == "gem" else "a Boom"
    return entry(
        "pass",
        giver,
        f"{{s{giver}}} passed box {name} to {{s{receiver}}}, saying it holds {said}.",
        public={"box": box_id, "to": receiver, "claim": claim},
    )


def open_entry(seat: int, box: Box, name: str, gems_now: int) -> LogEntry:
    found = "Ha ha Boom! All gems gone" if box.gems == BOOM else CONTENT_WORDS[box.gems]
    return entry(
        "open",
        seat,
        f"{{s{seat}}} opened box {name}: {found} ({gems_now} gem{'' if gems_now == 1 else 's'}).",
        public={"box": box.id, "owner": box.owner, "content": CONTENT_NAMES[box.gems], "gems": gems_now},
    )


def loss_due_entry(opener: int, chooser: int, boom_id: str) -> LogEntry:
    return entry(
        "loss_due",
        chooser,
        f"{{s{opener}}} had no gems to lose, so {{s{chooser}}}, whose Boom it was, "
        f"chooses which of {{s{opener}}}'s boxes leaves the game.",
        public={"opener": opener, "boom": boom_id},
    )


def boom_in_face_entry(opener: int) -> LogEntry:
    return entry(
        "boom_in_face",
        opener,
        f"{{s{opener}}} had no gems and no boxes left: a Boom in the face, and nothing more.",
    )


def remove_entry(chooser: int, holder: int, box: Box, name: str) -> LogEntry:
    text = f"{{s{chooser}}} chose box {name} in front of {{s{holder}}}: it leaves the game unopened."
    return entry(
        "remove",
        chooser,
        text,
        public={"box": box.id, "from": holder},
        private={
            box.owner: (
                f"{text} It was your box, holding {CONTENT_WORDS[box.gems]}.",
                {"content": CONTENT_NAMES[box.gems]},
            )
        },
    )


def skip_entry(seat: int) -> LogEntry:
    return entry("skip", seat, f"{{s{seat}}} has no box and is skipped.")


def over_entry(scores: list[int], ranks: list[int]) -> LogEntry:
    return entry(
        "game_over",
        None,
        "No unopened box is left: the game is over.",
        public={"scores": scores, "ranks": ranks},
    )
