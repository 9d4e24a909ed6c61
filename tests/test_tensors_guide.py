"""docs/research.md stays true: its tables are what the code says, and its examples run as
written (the code blocks are the files in docs/examples/, run here with small sizes).

Regenerate the tables after a layout change: ``python tests/test_tensors_guide.py``.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys
from types import ModuleType

import pytest

import koloda
import koloda.tensors as kt
from koloda.envs.actions import markdown as actions_markdown
from koloda.envs.common import Features

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "research.md"
EXAMPLES = ROOT / "docs" / "examples"
MARKED = re.compile(r"<!-- koloda:(\w+) ?([^\n>]*?) -->\n(.*?)<!-- /koloda -->", re.DOTALL)


def _sizes() -> str:
    rows = ["| game | players: tensor size (adapter vector size) |", "|---|---|"]
    for name, spec in koloda.registry().items():
        cells = [f"{p}: {kt.size(name, p)} ({Features(name, p).size})" for p in spec.players]
        rows.append(f"| `{name}` | {', '.join(cells)} |")
    return "\n".join(rows)


def _section(kind: str, arg: str) -> str:
    if kind == "sizes":
        return _sizes() + "\n"
    if kind == "layout":
        game, players = arg.split()
        return kt.markdown(game, int(players), Features(game, int(players)).extra) + "\n"
    if kind == "actions":
        return actions_markdown(arg) + "\n"
    if kind == "example":
        return "```python\n" + (ROOT / arg).read_text(encoding="utf-8") + "```\n"
    raise AssertionError(f"unknown marker {kind!r}")


def _expand_placeholders(text: str) -> str:
    layouts, actions = [], []
    for name, spec in koloda.registry().items():
        p = spec.default_players
        layouts.append(f"#### `{name}`, {p} players\n\n<!-- koloda:layout {name} {p} -->\n"
                       f"<!-- /koloda -->\n")
        actions.append(f"#### `{name}` ({koloda.envs.action_space(name).size} actions)\n\n"
                       f"<!-- koloda:actions {name} -->\n<!-- /koloda -->\n")
    text = text.replace("\nLAYOUTS\n", "\n" + "\n".join(layouts))
    return text.replace("\nACTIONS\n", "\n" + "\n".join(actions))


def render_guide(text: str) -> str:
    text = _expand_placeholders(text)
    return MARKED.sub(lambda m: f"<!-- koloda:{m[1]}{' ' + m[2] if m[2] else ''} -->\n"
                                f"{_section(m[1], m[2])}<!-- /koloda -->", text)


def test_the_guide_tables_and_examples_are_what_the_code_says() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert "LAYOUTS" not in text and "ACTIONS" not in text
    assert render_guide(text) == text, "run: python tests/test_tensors_guide.py"


def test_every_game_has_its_layout_and_action_table_in_the_guide() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for name in koloda.registry():
        assert f"<!-- koloda:layout {name} " in text
        assert f"<!-- koloda:actions {name} -->" in text


def _example(name: str) -> ModuleType:
    path = EXAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"koloda_example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pettingzoo_training_example_runs_and_learns_something() -> None:
    pytest.importorskip("pettingzoo")
    weights = _example("pettingzoo_training").main(episodes=3, players=2)
    assert weights.any(), "three matches of REINFORCE changed no weight"


def test_the_ismcts_example_plays_durak_against_the_search_bot() -> None:
    pytest.importorskip("pyspiel")
    results = _example("openspiel_ismcts").main(matches=1, simulations=3)
    assert results in ([1.0], [-1.0], [0.0])


def test_the_determinize_example_runs() -> None:
    _example("determinize").main(samples=2)


def test_every_code_snippet_of_the_guide_runs_as_written() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) >= 6
    for code in blocks:
        exec(compile(code, str(GUIDE), "exec"), {"__name__": "koloda_guide"})


if __name__ == "__main__":
    GUIDE.write_text(render_guide(GUIDE.read_text(encoding="utf-8")), encoding="utf-8")
    sys.exit(0)
