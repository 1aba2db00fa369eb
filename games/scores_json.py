"""How scores are written in JSON, the same in every answer (the API, the history, the
exports): a whole number without ".0". A seat's score is stored as a float and a
match's result holds the numbers its game gave, so the same score read 4.0 in one place
and 4 in another (issue 35, bug 3)."""

from __future__ import annotations

from typing import Any


def json_number(value: float | None) -> int | float | None:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def result_json(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A match's result with its ``scores`` written by ``json_number``."""
    if not result or not isinstance(result.get("scores"), list):
        return result
    return {**result, "scores": [json_number(score) for score in result["scores"]]}
