"""What features say about a match on its page ("Autumn Cup: round 2, table 3"), without
the core importing them: each feature lists a function in ``settings.MATCH_NOTES`` by
its dotted path, as the match-finished subscribers are listed by task name
(``games/effects.py``). A function takes the match and returns a ``MatchNote`` or None.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.feature_links import hook_functions
from games.models import Match


@dataclass(frozen=True)
class MatchNote:
    """One line under the match's title: ``text`` linking to ``url``."""

    text: str
    url: str


def match_notes(match: Match) -> list[MatchNote]:
    """The notes of every listed feature on ``match``, in the order of the setting."""
    notes = (make(match) for make in hook_functions("MATCH_NOTES"))
    return [note for note in notes if note is not None]
