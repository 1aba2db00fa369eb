"""A finished match as a JSON document: the schema of ``docs/export.md``.

Everything needed to replay the match elsewhere and check its deal: the game and
options, the revealed seed and salt with the commitment published at the start, the
generator the seed starts, the players, every move and the result. Only finished
matches are exported (their seed is public then); the selectors choose which.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from games.models import Match, Seat
from games.scores_json import json_number, result_json

FORMAT = "boomsite-match"
# Bumped when a field changes meaning or goes away; new fields may appear without a new version.
SCHEMA_VERSION = 1


def match_document(
    match: Match, table: Sequence[Seat], moves: Sequence[tuple[int, int, Any, datetime]]
) -> dict[str, Any]:
    """``table``: the match's seats in turn order, with their users; ``moves``: (ply, seat,
    action, made at) in ply order."""
    if match.status != Match.Status.FINISHED or match.seed is None:
        raise ValueError(f"{match} is not finished: its seed is secret until it is")
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "id": match.pk,
        "game": match.game,
        "game_name": match.game_name,
        "options": match.options,
        # As decimal digits: a 256-bit number loses its low digits in most JSON readers.
        "seed": str(match.seed),
        "generator": match.generator,
        "salt": match.seed_salt or None,
        "commitment": match.seed_commitment or None,
        "visibility": match.visibility,
        "started_at": _when(match.started_at),
        "finished_at": _when(match.finished_at),
        "players": [
            {
                "seat": seat.index,
                "name": seat.public_name,
                "is_bot": bool(seat.user and seat.user.labelled_bot),
                "bot_level": seat.user.bot_level if seat.user and seat.user.is_bot else None,
                "rank": seat.rank,
                "score": json_number(seat.score),
                "out": seat.resigned_reason or None,
            }
            for seat in table
        ],
        "moves": [
            {"ply": ply, "seat": seat, "action": action, "at": _when(made_at)}
            for ply, seat, action, made_at in moves
        ],
        "result": result_json(match.result),
    }


def json_line(document: dict[str, Any]) -> bytes:
    """One line of a JSON Lines file: compact, UTF-8, no line break inside (JSON escapes
    every line break in a string)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
