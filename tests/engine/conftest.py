"""Engine tests: pure Python, no Django (the engine must not need it)."""

from __future__ import annotations

import pytest

from games.engine import all_games
from tests.engine.conformance.common import BUDGET
from tests.engine.playouts import extra_games


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say which games the conformance suite covers, so a CI log shows a game that never joined."""
    registered = ", ".join(game.slug for game in all_games()) or "none"
    lines = [f"engine conformance: registered games: {registered}"]
    extra = ", ".join(game.slug for game in extra_games())
    if extra:
        lines.append(f"engine conformance: unregistered games from ENGINE_CONFORMANCE_EXTRA: {extra}")
    if BUDGET.playouts_per_config != 3:
        lines.append(f"engine conformance: budget scaled by ENGINE_CONFORMANCE_SCALE: {BUDGET}")
    return lines
