"""The engine is pure Python: no Django, Channels, Celery, Redis or the rest of the site,
no clock, no global randomness (see docs/engine.md).

Two ways, because each misses something the other sees: reading the source finds an
import hidden in a function that no test calls; importing every module in a fresh
interpreter finds a dependency pulled in through a third-party package.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.purity import FORBIDDEN_ROOTS, PROJECT_ROOT, imported_modules, imported_modules_in

ENGINE = PROJECT_ROOT / "games" / "engine"

# The clock and hidden randomness make replays differ; the engine gets both from the state.
NONDETERMINISTIC_MODULES = {"time", "datetime", "zoneinfo", "secrets", "uuid"}
# random.Random is fine (sample() is handed one); the module's shared generator is not.
ALLOWED_FROM_RANDOM = {"Random"}


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def is_forbidden(module: str) -> bool:
    root = module.split(".")[0]
    if root in FORBIDDEN_ROOTS:
        return True
    return (
        root == "games" and module not in ("games", "games.engine") and not module.startswith("games.engine.")
    )


def test_engine_source_is_found() -> None:
    files = engine_files()
    assert ENGINE / "base.py" in files
    assert len(files) >= 12


@pytest.mark.parametrize("path", engine_files(), ids=lambda path: str(path.relative_to(ENGINE)))
def test_engine_module_imports_nothing_from_the_site(path: Path) -> None:
    found = [f"line {line}: {module}" for line, module in imported_modules(path) if is_forbidden(module)]
    assert not found, f"{path.relative_to(PROJECT_ROOT)} imports outside the engine: {found}"


@pytest.mark.parametrize("path", engine_files(), ids=lambda path: str(path.relative_to(ENGINE)))
def test_engine_module_uses_no_clock_and_no_global_randomness(path: Path) -> None:
    found = nondeterminism_in(path.read_text())
    assert not found, f"{path.relative_to(PROJECT_ROOT)} is not deterministic: {found}"


def nondeterminism_in(source: str) -> list[str]:
    """Uses of the clock, of hidden randomness, or of hash() in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name}"
                for a in node.names
                if a.name in NONDETERMINISTIC_MODULES
            ]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if node.module in NONDETERMINISTIC_MODULES:
                found.append(f"line {node.lineno}: from {node.module} import ...")
            if node.module == "random":
                found += [
                    f"line {node.lineno}: from random import {a.name}"
                    for a in node.names
                    if a.name not in ALLOWED_FROM_RANDOM
                ]
        elif (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random"
        ):
            if node.attr not in ALLOWED_FROM_RANDOM:
                found.append(f"line {node.lineno}: random.{node.attr} (the shared generator)")
        elif isinstance(node, ast.Call) and _is_unseeded_random(node):
            found.append(f"line {node.lineno}: random.Random() with no seed")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hash":
            # str hashes change with PYTHONHASHSEED, so hash() differs between processes.
            found.append(f"line {node.lineno}: hash()")
    return found


def _is_unseeded_random(node: ast.Call) -> bool:
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == "Random") or (
        isinstance(func, ast.Name) and func.id == "Random"
    )
    return named and not node.args and not node.keywords


@pytest.mark.slow
def test_importing_every_engine_module_loads_nothing_from_the_site() -> None:
    script = (
        "import importlib, json, pkgutil, sys\n"
        "import games.engine\n"
        "for module in pkgutil.walk_packages(games.engine.__path__, 'games.engine.'):\n"
        "    importlib.import_module(module.name)\n"
        "games.engine.all_games()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    loaded = json.loads(completed.stdout)
    assert "games.engine.base" in loaded
    assert [module for module in loaded if is_forbidden(module)] == []


def test_the_import_scan_sees_relative_dotted_from_and_dynamic_imports() -> None:
    assert is_forbidden("django.db")
    assert is_forbidden("games.models")
    assert not is_forbidden("games.engine.rng")
    assert not is_forbidden("games")
    assert not is_forbidden("random")
    source = (
        "from ...bots import basic\n"
        "from . import rules\n"
        "from games import views\n"
        "import importlib\n"
        "def later():\n"
        "    importlib.import_module('celery')\n"
    )
    found = [
        module for _, module in imported_modules_in(source, "games.engine.some_game") if is_forbidden(module)
    ]
    assert found == ["games.bots", "games.bots.basic", "games.views", "celery"]


def test_the_determinism_scan_sees_clocks_shared_randomness_and_hash() -> None:
    source = (
        "import random\n"
        "import time\n"
        "from datetime import datetime\n"
        "from random import shuffle\n"
        "def play(rng: random.Random, ids: list[str]) -> None:\n"
        "    random.shuffle(ids)\n"
        "    random.Random()\n"
        "    random.Random(7)\n"
        "    rng.shuffle(ids)\n"
        "    hash(ids[0])\n"
    )
    assert sorted(nondeterminism_in(source)) == [
        "line 10: hash()",
        "line 2: import time",
        "line 3: from datetime import ...",
        "line 4: from random import shuffle",
        "line 6: random.shuffle (the shared generator)",
        "line 7: random.Random() with no seed",
    ]
