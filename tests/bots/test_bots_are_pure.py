"""Bots are pure strategies over views: no Django, no site, nothing but the engine and themselves.

(Unlike the engine they may read a clock: the expert bot thinks for a time budget.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.purity import FORBIDDEN_ROOTS, PROJECT_ROOT, imported_modules

BOTS = PROJECT_ROOT / "games" / "bots"


def bot_files() -> list[Path]:
    return sorted(BOTS.rglob("*.py"))


def is_forbidden_for_bots(module: str) -> bool:
    root = module.split(".")[0]
    if root in FORBIDDEN_ROOTS:
        return True
    allowed = ("games", "games.engine", "games.bots")
    return (
        root == "games" and module not in allowed and not module.startswith(("games.engine.", "games.bots."))
    )


def test_bot_source_is_found() -> None:
    assert BOTS / "__init__.py" in bot_files()


@pytest.mark.parametrize("path", bot_files(), ids=lambda path: str(path.relative_to(BOTS)))
def test_a_bot_module_imports_only_the_engine_and_other_bots(path: Path) -> None:
    found = [
        f"line {line}: {module}" for line, module in imported_modules(path) if is_forbidden_for_bots(module)
    ]
    assert not found, f"{path.relative_to(PROJECT_ROOT)} imports outside the engine and the bots: {found}"


def test_the_scan_refuses_the_site() -> None:
    assert is_forbidden_for_bots("games.models")
    assert is_forbidden_for_bots("django.db")
    assert not is_forbidden_for_bots("games.engine.rng")
    assert not is_forbidden_for_bots("games.bots.search")
