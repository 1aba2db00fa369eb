"""The formats are pure: the standard library, networkx and themselves, nothing of the site."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.engine.purity import PROJECT_ROOT, imported_modules

FORMATS = PROJECT_ROOT / "games" / "tournaments" / "formats"
ALLOWED_ROOTS = {*sys.stdlib_module_names, "__future__", "networkx"}


def allowed(module: str) -> bool:
    return module.split(".")[0] in ALLOWED_ROOTS or module.startswith("games.tournaments.formats")


def test_the_formats_import_only_the_standard_library_and_networkx() -> None:
    files = sorted(FORMATS.rglob("*.py"))
    assert files
    found = [
        f"{path.relative_to(PROJECT_ROOT)}:{line}: {module}"
        for path in files
        for line, module in imported_modules(Path(path))
        if not allowed(module)
    ]
    assert found == []


def test_the_bracket_drawing_is_pure_too() -> None:
    """Drawn from positions alone, as profiles/charts.py draws its charts."""
    drawing = PROJECT_ROOT / "games" / "tournaments" / "bracket_drawing.py"
    found = [module for _, module in imported_modules(drawing) if not allowed(module)]
    assert found == []


def test_the_check_catches_a_site_import() -> None:
    assert not allowed("django.db")
    assert not allowed("games.tournaments.models")
    assert allowed("games.tournaments.formats.model")
