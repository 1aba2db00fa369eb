"""What features say about a match where it is shown ("Autumn Cup: round 2, table 3"),
without the core importing them: each feature lists a function in
``settings.MATCH_NOTES`` by its dotted path, as the match-finished subscribers are
listed by task name (``games/effects.py``). A function takes a list of matches and
returns a dict from match id to a ``MatchNote`` (the matches it has nothing to say
about left out): so a page of many matches (a history page) asks each feature once,
in one query, and the match page asks about its one match the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.feature_links import hook_functions
from games.models import Match


@dataclass(frozen=True)
class MatchNote:
    """One line under the match's title: ``text`` linking to ``url``."""

    text: str
    url: str


def notes_of(matches: Sequence[Match]) -> dict[int, list[MatchNote]]:
    """The notes of every listed feature on each of ``matches`` (by match id; a match
    nobody has a note on is left out), in the order of the setting."""
    notes: dict[int, list[MatchNote]] = {}
    if not matches:
        return notes
    for make in hook_functions("MATCH_NOTES"):
        for match_id, note in make(list(matches)).items():
            notes.setdefault(match_id, []).append(note)
    return notes


def match_notes(match: Match) -> list[MatchNote]:
    """The notes of every listed feature on ``match``, in the order of the setting."""
    return notes_of([match]).get(match.pk, [])
