"""A decision's grade in words, from what it cost by the expert's estimate.

Pure: numbers in, words out (docs/site.md, "Post-game review", "Grades"). The cost is in
``search.reward`` units, the seat's worth in [0, 1] (1 a win or sole first place, 0 a
loss or sole last, linear between), so the same thresholds serve every game; how it
reads depends on the table (``Scale``): a chance to win where one seat wins (two seats,
a team, a solitaire game), an expected place among three or more.
"""

from __future__ import annotations

from dataclasses import dataclass

# The thresholds, in points of reward (percentage points of a chance to win), as lichess
# grades chess moves by the winning chances they lose (there 5, 10 and 15 points). A
# card game's luck makes single decisions cost less and the estimate noisier: below 4
# points the appraisal cannot tell a cost from its noise (docs: "How sure a grade is").
INACCURACY = 0.04
MISTAKE = 0.10
BLUNDER = 0.20
# The thresholds in points, as the page explains them.
THRESHOLD_POINTS = {
    "inaccuracy": round(INACCURACY * 100),
    "mistake": round(MISTAKE * 100),
    "blunder": round(BLUNDER * 100),
}
# Minus, not hyphen: "-6% chance to win".
MINUS = "\u2212"


@dataclass(frozen=True)
class Grade:
    """``word``: what the page says; ``slug``: its CSS class and the JSON's ``grade``;
    ``is_costly``: an inaccuracy or worse (the page lists the costliest first)."""

    word: str
    slug: str
    is_costly: bool = False


BEST = Grade("Best", "best")
GOOD = Grade("Good", "good")
INACCURATE = Grade("Inaccuracy", "inaccuracy", is_costly=True)
MISTAKEN = Grade("Mistake", "mistake", is_costly=True)
BLUNDERED = Grade("Blunder", "blunder", is_costly=True)
FORCED = Grade("Forced", "forced")
NOT_GRADED = Grade("Not graded", "not-graded")


def grade_of(cost: float, *, agrees: bool) -> Grade:
    """The grade of a decision with a choice: the expert's own move is "Best"; another is
    "Good" while it costs less than ``INACCURACY`` (or nothing: the appraisal may find it
    as good), then "Inaccuracy", "Mistake", "Blunder" from each threshold up."""
    if agrees:
        return BEST
    if cost >= BLUNDER:
        return BLUNDERED
    if cost >= MISTAKE:
        return MISTAKEN
    if cost >= INACCURACY:
        return INACCURATE
    return GOOD


@dataclass(frozen=True)
class Scale:
    """How a seat's worth reads at a table of ``players``: ``is_chance`` where one side
    wins or loses (two seats, a cooperative team, a solitaire game), else an expected
    place (1 first, ``players`` last: ``players - reward * (players - 1)``, tied places
    shared as ``search.reward`` shares them)."""

    players: int
    is_chance: bool

    @classmethod
    def for_table(cls, players: int, *, cooperative: bool) -> Scale:
        return cls(players=players, is_chance=cooperative or players <= 2)

    def worth(self, reward: float) -> str:
        """``reward`` in words: "48% chance to win", "expected place 2.3 of 4"."""
        if self.is_chance:
            return f"{round(reward * 100)}% chance to win"
        return f"expected place {self.players - reward * (self.players - 1):.1f} of {self.players}"

    def cost(self, cost: float) -> str:
        """What ``cost`` (>= 0) lost, in words: "-6% chance to win", "0.4 places worse"."""
        if self.is_chance:
            points = round(cost * 100)
            return f"{MINUS}{points}% chance to win" if points else "no chance to win lost"
        places = round(cost * (self.players - 1), 1)
        if not places:
            return "no place lost"
        return f"expected place {places:.1f} worse"

    @property
    def measure(self) -> str:
        """What the numbers are, for the page's explanation."""
        return "your chance to win" if self.is_chance else f"your expected place (1 to {self.players})"
