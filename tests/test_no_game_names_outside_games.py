"""The interfaces hold no table keyed by a game's name (the design's "A game is one
folder"): outside the games' own code no module compares a name or family to the name of a
game. What such a module needs to know of a game is a declaration on its spec (its verbs,
its arena measure, whether its scores are better lower, whether its matches move ranks),
so a new game written in one folder appears everywhere without touching another file."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from koloda.engine.registry import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "koloda"

#: the games' own code, where a game may name itself: the games, their heuristic and
#: search bots, and the batched simulators (one module per game by design)
GAMES_CODE = ("games", "bots/heuristic", "bots/search/games", "batched")

#: comparisons still there, each to be replaced by a declaration on the spec; this list
#: only shrinks (a new comparison anywhere else fails the test)
ALLOWED = {
    # the benchmark picks the batched simulator to time by name
    ("bench.py", "game_name == 'opendaum'"),
}


def _game_names() -> set[str]:
    names: set[str] = set()
    for spec in registry().values():
        names |= {spec.name, spec.family, *spec.aliases}
    return names


def _strings(node: ast.AST) -> Iterator[str]:
    """The string literals of a comparison's side (one, or a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from _strings(item)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("frozenset", "set", "tuple") and node.args:
        yield from _strings(node.args[0])


def _sides(node: ast.AST) -> list[ast.AST]:
    """What a node compares with: both sides of ``==``/``in``, a ``case`` value, the
    argument of ``startswith``/``endswith``."""
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.MatchValue):
        return [node.value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("startswith", "endswith"):
        return list(node.args)
    return []


def comparisons_with_game_names() -> list[tuple[str, int, str]]:
    """(module, line, comparison) of every comparison with a game's name outside the
    games' own code."""
    names = _game_names()
    skip = tuple(PACKAGE / part for part in GAMES_CODE)
    found: list[tuple[str, int, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(path.is_relative_to(s) for s in skip):
            continue
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if any(v in names for side in _sides(node) for v in _strings(side)):
                found.append((rel, getattr(node, "lineno", 0), ast.unparse(node)))
    return found


def test_no_module_outside_the_games_compares_with_a_games_name() -> None:
    found = [f"koloda/{rel}:{line}: {text}" for rel, line, text in comparisons_with_game_names()
             if (rel, text) not in ALLOWED]
    assert found == [], "declare it on the game's spec instead:\n" + "\n".join(found)


def test_the_allowed_comparisons_are_still_there() -> None:
    """An allowance whose comparison is gone is removed from the list, so it cannot hide a
    new one."""
    have = {(rel, text) for rel, _, text in comparisons_with_game_names()}
    assert have >= ALLOWED, ALLOWED - have


def test_the_scan_finds_a_comparison_with_a_games_name() -> None:
    names = _game_names()
    tree = ast.parse('if spec.family == "durak" or spec.name in ("opendaum-33", "x"):\n'
                     '    pass\nmatch f:\n    case "mushka":\n        pass\n'
                     'spec.name.startswith("opendaum")\n')
    hits = [n for n in ast.walk(tree) if any(v in names for side in _sides(n)
                                             for v in _strings(side))]
    assert len(hits) == 4
