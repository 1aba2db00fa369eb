"""The test tree's own rules (README, "Layout"): helpers live in helper modules.

A test module that imports another test module runs that module's tests' set-up on
import and hides where a helper lives; shared code goes to ``helpers.py``-style
modules or a folder's ``conftest.py`` instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def imported_test_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)  # from tests.x import test_y
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return sorted(
        {name for name in names if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")}
    )


def test_no_module_imports_a_test_module() -> None:
    offenders = {
        str(path.relative_to(TESTS)): found
        for path in sorted(TESTS.rglob("*.py"))
        if (found := imported_test_modules(path))
    }
    assert offenders == {}
