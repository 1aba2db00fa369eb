"""One list of error codes (games/errors.py), one map to HTTP, used everywhere."""

from __future__ import annotations

import re
from pathlib import Path

from games.errors import ErrorCode, http_status

GAMES = Path(__file__).resolve().parents[2] / "games"


def test_the_site_raises_and_answers_only_codes_from_the_one_list() -> None:
    """No refusal spells its code as a bare string: each is an ``ErrorCode`` member."""
    literal = re.compile(r'(?:MatchError|TournamentError|BadInput|_error)\(\s*"')
    offenders = [
        f"{path.relative_to(GAMES.parent)}:{number}"
        for path in GAMES.rglob("*.py")
        if "engine" not in path.parts and "bots" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if literal.search(line)
    ]
    assert offenders == []


def test_codes_are_their_own_snake_case_names() -> None:
    for code in ErrorCode:
        assert code.value == code.name.lower() and re.fullmatch(r"[a-z_]+", code.value)


def test_http_statuses_for_site_and_engine_codes() -> None:
    assert http_status(ErrorCode.NO_SUCH_MATCH) == 404
    assert http_status(ErrorCode.STALE_PLY) == 409
    assert http_status(ErrorCode.RATE_LIMITED) == 429
    assert http_status(ErrorCode.UNAUTHORISED) == 401
    assert http_status(ErrorCode.MALFORMED_JSON) == 400
    assert http_status(ErrorCode.NO_SUCH_TOURNAMENT) == 404
    # The engine's codes pass through: a refused action is a 400, a turn out of order a 409.
    assert http_status("no_such_card") == 400
    assert http_status("not_your_turn") == 409
