"""Every ``koloda.…`` module path the package's docstrings and the research docs name
resolves (a docstring named ``koloda.envs.gym``, which does not exist)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATH = re.compile(r"\bkoloda(?:\.[a-z_][a-z0-9_]*)+")


def named_paths() -> set[str]:
    """The dotted ``koloda.`` paths in every docstring of koloda's modules, and in
    docs/research.md and docs/performance.md."""
    out: set[str] = set()
    for py in (ROOT / "koloda").rglob("*.py"):
        tree = ast.parse(py.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    out |= set(PATH.findall(doc))
    for md in ("docs/research.md", "docs/performance.md", "examples/README.md"):
        out |= set(PATH.findall((ROOT / md).read_text(encoding="utf-8")))
    return out


def resolves(path: str) -> bool:
    """The longest importable module prefix, then attributes for the rest; a module
    that needs a missing optional extra counts as resolving."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError as exc:
            if exc.name and not exc.name.startswith("koloda"):
                return True                 # (an optional extra that is not installed)
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def test_docstrings_name_no_module_that_does_not_exist() -> None:
    pytest.importorskip("pettingzoo")
    missing = sorted(p for p in named_paths() if not resolves(p))
    assert not missing, f"named but not importable: {missing}"
